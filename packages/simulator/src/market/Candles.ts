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
 */
import type { UsdCandle } from "@swapdesk/core"
import { MINUTE_MS, type MinuteStore } from "./MinuteStore.ts"

/** The close of the last traded minute before `bucket`, or the price before all history. */
const closeBefore = (store: MinuteStore, process: number, pairs: ReadonlyArray<number>, bucket: number): number => {
  const closes = store.close[process]!
  for (let b = bucket - 1; b >= 0; b--) {
    if (store.volumeOf(b, pairs) > 0) return closes[b]!
  }
  return store.firstOpen[process]!
}

/**
 * Candles of `periodMs` for one price process, volumes summed over `pairs`, up to the bucket
 * `lastBucket` (the current minute).
 */
export const buildCandles = (
  store: MinuteStore,
  process: number,
  pairs: ReadonlyArray<number>,
  periodMs: number,
  fromMs: number,
  toMs: number,
  lastBucket: number
): Array<UsdCandle> => {
  const historyStartMs = store.startOf(0)
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
      const last = Math.min(first + minutesPerPeriod - 1, lastBucket)
      let high = highs[first]!
      let low = lows[first]!
      let volumeUsd = 0
      for (let b = first; b <= last; b++) {
        if (highs[b]! > high) high = highs[b]!
        if (lows[b]! < low) low = lows[b]!
        volumeUsd += store.volumeOf(b, pairs)
      }
      candles.push({ openTime, open: opens[first]!, high, low, close: closes[last]!, volumeUsd })
    }
    return candles
  }
  let previousClose = closeBefore(store, process, pairs, store.bucketOf(firstOpen))
  for (let openTime = firstOpen; openTime < endExclusive; openTime += periodMs) {
    const first = store.bucketOf(openTime)
    const last = Math.min(first + minutesPerPeriod - 1, lastBucket)
    const open = previousClose
    let high = open
    let low = open
    let volumeUsd = 0
    for (let b = first; b <= last; b++) {
      const volume = store.volumeOf(b, pairs)
      if (volume > 0) {
        if (highs[b]! > high) high = highs[b]!
        if (lows[b]! < low) low = lows[b]!
        previousClose = closes[b]!
        volumeUsd += volume
      }
    }
    candles.push({ openTime, open, high, low, close: previousClose, volumeUsd })
  }
  return candles
}
