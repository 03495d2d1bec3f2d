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

/** `candle` (absent: a new period) with `swap` added after everything already in it. */
export const mergeSwap = (candle: StoredCandle | undefined, openTime: number, swap: CandleSwap): StoredCandle => {
  const price = new MoneyDecimal(swap.priceUsd)
  const buy = swap.side === "buy" ? swap.valueUsd : "0"
  if (candle === undefined) {
    return {
      openTime,
      open: swap.priceUsd,
      high: swap.priceUsd,
      low: swap.priceUsd,
      close: swap.priceUsd,
      volumeUsd: swap.valueUsd,
      buyVolumeUsd: buy
    }
  }
  return {
    openTime,
    open: candle.open,
    high: price.gt(candle.high) ? swap.priceUsd : candle.high,
    low: price.lt(candle.low) ? swap.priceUsd : candle.low,
    close: swap.priceUsd,
    volumeUsd: new MoneyDecimal(candle.volumeUsd).add(swap.valueUsd).toFixed(),
    buyVolumeUsd: new MoneyDecimal(candle.buyVolumeUsd).add(buy).toFixed()
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
