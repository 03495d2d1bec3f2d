/**
 * Candles of indexed swaps, kept per timeframe and rolled up as swaps arrive: every timeframe has its
 * own rows, so a chart reads at most as many rows as it shows, however old the index is. A period's
 * open is its first swap's price, its close its last one's (swaps merge in chain order), and its
 * volumes the USD values summed exactly. Reading fills a period without swaps with the previous
 * close and volume 0 (section 6's rule); periods before the first swap are absent.
 */
import { MoneyDecimal, type Timeframe, timeframeMs, timeframes, type UsdCandle } from "@swapdesk/core"

/** One stored candle, prices and volumes as exact decimal text. */
export interface StoredCandle {
  readonly openTime: number
  readonly open: string
  readonly high: string
  readonly low: string
  readonly close: string
  readonly volumeUsd: string
  readonly buyVolumeUsd: string
}

/** What a candle needs of a swap. */
export interface CandleSwap {
  readonly at: number
  readonly side: "buy" | "sell"
  readonly priceUsd: string
  readonly valueUsd: string
}

/** Every timeframe is kept: a chart reads the rows of its own timeframe only. */
export const candleTimeframes: ReadonlyArray<Timeframe> = timeframes

/** The open time of the period of `timeframe` containing `at`. */
export const periodOf = (timeframe: Timeframe, at: number): number =>
  Math.floor(at / timeframeMs[timeframe]) * timeframeMs[timeframe]

/** A candle being built, in exact decimals. */
interface CandleSum {
  readonly openTime: number
  readonly open: MoneyDecimal
  high: MoneyDecimal
  low: MoneyDecimal
  close: MoneyDecimal
  volume: MoneyDecimal
  buy: MoneyDecimal
}

const addInto = (sums: Map<number, CandleSum>, openTime: number, part: Omit<CandleSum, "openTime">) => {
  const sum = sums.get(openTime)
  if (sum === undefined) {
    sums.set(openTime, { openTime, ...part })
    return
  }
  if (part.high.gt(sum.high)) sum.high = part.high
  if (part.low.lt(sum.low)) sum.low = part.low
  sum.close = part.close
  sum.volume = sum.volume.add(part.volume)
  sum.buy = sum.buy.add(part.buy)
}

/**
 * The candles of every timeframe that `swaps` (in chain order) add to, by timeframe and open time:
 * the swaps make the one-minute candles, which make each coarser timeframe's, so a swap's price and
 * value are read once whatever the number of timeframes.
 */
export const candleSums = (
  swaps: ReadonlyArray<CandleSwap>
): ReadonlyMap<Timeframe, ReadonlyMap<number, CandleSum>> => {
  const zero = new MoneyDecimal(0)
  const minutes = new Map<number, CandleSum>()
  for (const swap of swaps) {
    const price = new MoneyDecimal(swap.priceUsd)
    const value = new MoneyDecimal(swap.valueUsd)
    addInto(minutes, periodOf("1m", swap.at), {
      open: price,
      high: price,
      low: price,
      close: price,
      volume: value,
      buy: swap.side === "buy" ? value : zero
    })
  }
  const out = new Map<Timeframe, ReadonlyMap<number, CandleSum>>([["1m", minutes]])
  for (const timeframe of candleTimeframes) {
    if (timeframe === "1m") continue
    const sums = new Map<number, CandleSum>()
    for (const minute of minutes.values()) addInto(sums, periodOf(timeframe, minute.openTime), minute)
    out.set(timeframe, sums)
  }
  return out
}

/** A stored candle (absent: a new period) followed by what later swaps added to its period. */
export const mergeCandle = (stored: StoredCandle | undefined, sum: CandleSum): StoredCandle => {
  if (stored === undefined) {
    return {
      openTime: sum.openTime,
      open: sum.open.toFixed(),
      high: sum.high.toFixed(),
      low: sum.low.toFixed(),
      close: sum.close.toFixed(),
      volumeUsd: sum.volume.toFixed(),
      buyVolumeUsd: sum.buy.toFixed()
    }
  }
  return {
    openTime: sum.openTime,
    open: stored.open,
    high: sum.high.gt(stored.high) ? sum.high.toFixed() : stored.high,
    low: sum.low.lt(stored.low) ? sum.low.toFixed() : stored.low,
    close: sum.close.toFixed(),
    volumeUsd: sum.volume.add(stored.volumeUsd).toFixed(),
    buyVolumeUsd: sum.buy.add(stored.buyVolumeUsd).toFixed()
  }
}

/**
 * The candles of `[fromMs, toMs)`, oldest first: `rows` are the stored ones in that range (oldest
 * first) and `before` the last stored one before `fromMs`, whose close opens the gap at the start.
 */
export const fillCandles = (
  timeframe: Timeframe,
  fromMs: number,
  toMs: number,
  rows: ReadonlyArray<StoredCandle>,
  before: StoredCandle | undefined
): ReadonlyArray<UsdCandle> => {
  const step = timeframeMs[timeframe]
  const out: Array<UsdCandle> = []
  let previousClose: number | undefined = before === undefined ? undefined : Number(before.close)
  let next = 0
  for (let t = Math.ceil(fromMs / step) * step; t < toMs; t += step) {
    const row = rows[next]
    if (row !== undefined && row.openTime === t) {
      next++
      out.push({
        openTime: t,
        open: Number(row.open),
        high: Number(row.high),
        low: Number(row.low),
        close: Number(row.close),
        volumeUsd: Number(row.volumeUsd)
      })
      previousClose = Number(row.close)
    } else if (previousClose !== undefined) {
      out.push({
        openTime: t,
        open: previousClose,
        high: previousClose,
        low: previousClose,
        close: previousClose,
        volumeUsd: 0
      })
    }
  }
  return out
}
