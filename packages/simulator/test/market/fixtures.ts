/**
 * Shared by the market tests: the start instant, statistics helpers, and the invariants every
 * candle list must satisfy (checked independently of the engine's own aggregation code).
 */
import { assert } from "@effect/vitest"
import type { UsdCandle } from "@swapdesk/core"

/** The demo scenario's start: 2026-01-01T00:00:00Z. */
export const START_MS = Date.UTC(2026, 0, 1)
export const MINUTE_MS = 60_000
export const HOUR_MS = 3_600_000
export const DAY_MS = 86_400_000

export const mean = (xs: ReadonlyArray<number>): number => xs.reduce((sum, x) => sum + x, 0) / xs.length

/** Sample autocorrelation at `lag`. */
export const autocorrelation = (xs: ReadonlyArray<number>, lag: number): number => {
  const m = mean(xs)
  let numerator = 0
  let denominator = 0
  for (let i = 0; i < xs.length; i++) {
    const d = xs[i]! - m
    denominator += d * d
    if (i + lag < xs.length) numerator += d * (xs[i + lag]! - m)
  }
  return numerator / denominator
}

/** Excess kurtosis (0 for a normal distribution). */
export const excessKurtosis = (xs: ReadonlyArray<number>): number => {
  const m = mean(xs)
  let m2 = 0
  let m4 = 0
  for (const x of xs) {
    const d = (x - m) ** 2
    m2 += d
    m4 += d * d
  }
  m2 /= xs.length
  m4 /= xs.length
  return m4 / (m2 * m2) - 3
}

/** Log returns close-to-close of contiguous candles. */
export const logReturns = (candles: ReadonlyArray<UsdCandle>): Array<number> =>
  candles.map((candle) => Math.log(candle.close / candle.open))

/**
 * The first broken invariant of a candle list (OHLC bounds, alignment, contiguity, the gap rule), or
 * undefined. Plain checks and one message, so that property runs over 40 000 candles stay fast.
 */
export const candleViolation = (candles: ReadonlyArray<UsdCandle>, periodMs: number): string | undefined => {
  for (let i = 0; i < candles.length; i++) {
    const candle = candles[i]!
    const at = `candle ${i} ${JSON.stringify(candle)}`
    if (candle.openTime % periodMs !== 0) return `${at} is not aligned to ${periodMs}`
    if (!(candle.low <= Math.min(candle.open, candle.close) && Math.max(candle.open, candle.close) <= candle.high)) {
      return `${at} breaks low <= open, close <= high`
    }
    if (!(candle.low > 0 && candle.volumeUsd >= 0)) return `${at} has a non-positive price or a negative volume`
    if (
      candle.volumeUsd === 0 &&
      !(candle.open === candle.high && candle.high === candle.low && candle.low === candle.close)
    ) {
      return `${at} has no volume but is not flat`
    }
    const previous = candles[i - 1]
    if (previous !== undefined) {
      if (candle.openTime - previous.openTime !== periodMs) return `${at} does not follow the previous period`
      if (candle.open !== previous.close) return `${at} does not open at the previous close ${previous.close}`
    }
  }
  return undefined
}

/** Asserts `candleViolation` finds nothing. */
export const assertCandleInvariants = (candles: ReadonlyArray<UsdCandle>, periodMs: number): void => {
  const violation = candleViolation(candles, periodMs)
  assert.isUndefined(violation, violation)
}
