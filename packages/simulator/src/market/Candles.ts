/**
 * Candles of any timeframe from the minute store, with the contract's rules: periods aligned to UTC
 * multiples of the timeframe, included when their open time lies in `[fromMs, toMs)`, none before
 * history or after the current (partial) period, and a period without trades printed flat at the
 * previous close with volume 0.
 *
 * "Trades" are scoped: with a network, a minute counts as traded only if that network had volume
 * in it. Every candle is exactly the aggregation of its (scoped) one-minute candles: open of the
 * first, close of the last, max of highs, min of lows, sum of volumes.
 *
 * A price replayed from a file of candles stores each minute's open, and every one of its minutes
 * counts as traded: its candles are the file's, even where the file's volume is 0.
 *
 * Before the minute window (`MinuteStore.firstBucket`, a UTC midnight) the minutes are rolled up
 * into hours (`HourStore`): a candle of an hour or more there is aggregated from its hours the same
 * way, and gives the same figures (volumes up to the rounding of their sums). A candle shorter than
 * an hour needs minutes: none is built before the window (docs/simulator.md#retention).
 */
import type { UsdCandle } from "@swapdesk/core"
import { HOUR_MINUTES, HOUR_MS, type HourStore } from "./HourStore.ts"
import { MINUTE_MS, type MinuteStore } from "./MinuteStore.ts"

/** The close of the last traded minute before `bucket`, or the price before all history. */
const closeBefore = (
  store: MinuteStore,
  hours: HourStore,
  process: number,
  pairs: ReadonlyArray<number>,
  bucket: number
): number => {
  const closes = store.close[process]!
  for (let b = bucket - 1; b >= store.firstBucket; b--) {
    if (store.volumeOf(b, pairs) > 0) return closes[store.indexOf(b)]!
  }
  for (let h = Math.min(hours.count, Math.ceil(bucket / HOUR_MINUTES)) - 1; h >= 0; h--) {
    const pair = lastTradedPair(hours, pairs, h)
    if (pair >= 0) return hours.close[pair]![h]!
  }
  return store.firstOpen[process]!
}

/** The pair of `pairs` that traded last in hour `h` (the first of them on a tie), or −1 if none did. */
const lastTradedPair = (hours: HourStore, pairs: ReadonlyArray<number>, h: number): number => {
  let found = -1
  let latest = -1
  for (const pair of pairs) {
    const last = hours.lastTraded[pair]![h]!
    if (last > latest) {
      latest = last
      found = pair
    }
  }
  return found
}

/**
 * Candles of `periodMs` for one price process, volumes summed over `pairs`, up to the bucket
 * `lastBucket` (the current minute).
 */
export const buildCandles = (
  store: MinuteStore,
  hours: HourStore,
  process: number,
  pairs: ReadonlyArray<number>,
  periodMs: number,
  fromMs: number,
  toMs: number,
  lastBucket: number
): Array<UsdCandle> => {
  const windowStartMs = store.startOf(store.firstBucket)
  // Shorter than an hour: minutes only, so nothing before the minute window.
  const historyStartMs = periodMs < HOUR_MS ? windowStartMs : store.startOf(0)
  const currentPeriodOpen = Math.floor(store.startOf(lastBucket) / periodMs) * periodMs
  const firstOpen = Math.ceil(Math.max(fromMs, historyStartMs) / periodMs) * periodMs
  const endExclusive = Math.min(toMs, currentPeriodOpen + 1)
  const candles: Array<UsdCandle> = []
  if (!(firstOpen < endExclusive)) return candles
  const minutesPerPeriod = periodMs / MINUTE_MS
  const highs = store.high[process]!
  const lows = store.low[process]!
  const closes = store.close[process]!
  const opens = store.open[process]
  if (opens !== undefined) {
    for (let openTime = firstOpen; openTime < endExclusive; openTime += periodMs) {
      const first = store.bucketOf(openTime)
      if (openTime < windowStartMs) {
        candles.push(replayedFromHours(hours, process, pairs, first, first + minutesPerPeriod, openTime))
        continue
      }
      const last = Math.min(first + minutesPerPeriod - 1, lastBucket)
      const firstIndex = store.indexOf(first)
      let high = highs[firstIndex]!
      let low = lows[firstIndex]!
      let volumeUsd = 0
      for (let b = first; b <= last; b++) {
        const i = store.indexOf(b)
        if (highs[i]! > high) high = highs[i]!
        if (lows[i]! < low) low = lows[i]!
        volumeUsd += store.volumeOf(b, pairs)
      }
      candles.push({ openTime, open: opens[firstIndex]!, high, low, close: closes[store.indexOf(last)]!, volumeUsd })
    }
    return candles
  }
  let previousClose = closeBefore(store, hours, process, pairs, store.bucketOf(firstOpen))
  for (let openTime = firstOpen; openTime < endExclusive; openTime += periodMs) {
    const first = store.bucketOf(openTime)
    const open = previousClose
    let high = open
    let low = open
    let volumeUsd = 0
    if (openTime < windowStartMs) {
      for (let h = first / HOUR_MINUTES; h < (first + minutesPerPeriod) / HOUR_MINUTES; h++) {
        const lastPair = lastTradedPair(hours, pairs, h)
        if (lastPair < 0) continue
        for (const pair of pairs) {
          if (hours.lastTraded[pair]![h]! < 0) continue
          if (hours.high[pair]![h]! > high) high = hours.high[pair]![h]!
          if (hours.low[pair]![h]! < low) low = hours.low[pair]![h]!
          volumeUsd += hours.volume[pair]![h]!
        }
        previousClose = hours.close[lastPair]![h]!
      }
      candles.push({ openTime, open, high, low, close: previousClose, volumeUsd })
      continue
    }
    const last = Math.min(first + minutesPerPeriod - 1, lastBucket)
    for (let b = first; b <= last; b++) {
      const volume = store.volumeOf(b, pairs)
      if (volume > 0) {
        const i = store.indexOf(b)
        if (highs[i]! > high) high = highs[i]!
        if (lows[i]! < low) low = lows[i]!
        previousClose = closes[i]!
        volumeUsd += volume
      }
    }
    candles.push({ openTime, open, high, low, close: previousClose, volumeUsd })
  }
  return candles
}

/** A replayed price's candle over buckets `[first, end)`, all of them rolled up into hours. */
const replayedFromHours = (
  hours: HourStore,
  process: number,
  pairs: ReadonlyArray<number>,
  first: number,
  end: number,
  openTime: number
): UsdCandle => {
  const h0 = first / HOUR_MINUTES
  const h1 = end / HOUR_MINUTES
  let high = hours.processHigh[process]![h0]!
  let low = hours.processLow[process]![h0]!
  let volumeUsd = 0
  for (let h = h0; h < h1; h++) {
    if (hours.processHigh[process]![h]! > high) high = hours.processHigh[process]![h]!
    if (hours.processLow[process]![h]! < low) low = hours.processLow[process]![h]!
    for (const pair of pairs) volumeUsd += hours.volume[pair]![h]!
  }
  return {
    openTime,
    open: hours.processOpen[process]![h0]!,
    high,
    low,
    close: hours.processClose[process]![h1 - 1]!,
    volumeUsd
  }
}
