/**
 * Market data as the domain sees it: prices in USD, 24 h statistics, candles, trending, FX.
 * These are internal records; the HTTP layer converts currencies and shapes responses.
 */
import type { Decimal } from "decimal.js"
import { Schema } from "effect"
import type { Network } from "./Network.ts"

export const timeframes = ["1m", "5m", "15m", "1h", "4h", "1d"] as const
export const Timeframe = Schema.Literals(timeframes)
export type Timeframe = typeof Timeframe.Type

export const timeframeMs: Record<Timeframe, number> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000
}

export const currencies = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD"] as const
export const Currency = Schema.Literals(currencies)
export type Currency = typeof Currency.Type

/**
 * The USD prices a market quotes, bounds included: a ten-billionth of a cent to a trillion
 * dollars, wider than any real token's price yet far enough from the limits of a double that every
 * figure derived from a price (volume, market cap, a percent change) stays a finite number.
 */
export const priceRangeUsd = { min: 1e-12, max: 1e12 } as const

/** A USD price given as input (a simulator's price move, a scenario's starting price): in `priceRangeUsd`. */
export const PriceUsd = Schema.Finite.check(
  Schema.isBetween({ minimum: priceRangeUsd.min, maximum: priceRangeUsd.max }, {
    message: "must be between 1e-12 and 1e12 (USD)"
  })
)

/** One OHLCV candle in USD; `openTime` is a UTC multiple of the timeframe. */
export interface UsdCandle {
  readonly openTime: number
  readonly open: number
  readonly high: number
  readonly low: number
  readonly close: number
  readonly volumeUsd: number
}

/** A token's 24 h picture in USD, optionally limited to one network's trading. */
export interface MarketStats {
  readonly symbol: string
  readonly priceUsd: Decimal
  /** Percent change against the price 24 h ago. */
  readonly change24hPercent: number
  readonly volume24hUsd: number
  readonly marketCapUsd: number
  readonly volumeByNetworkUsd: Readonly<Partial<Record<Network, number>>>
  readonly buyVolume24hUsd: number
  readonly sellVolume24hUsd: number
  readonly holders: { readonly count: number; readonly top10Percent: number }
  readonly whaleActivity: { readonly transactions24h: number; readonly netFlow24hUsd: number }
  /** Rolling volume of the last hour, and the average hourly volume over the 24 h before it. */
  readonly volume1hUsd: number
  readonly averageHourlyVolume24hUsd: number
}

export interface TrendingEntry {
  readonly symbol: string
  readonly priceUsd: number
  readonly change24hPercent: number
  readonly volume24hUsd: number
  readonly network: Network
  readonly score: number
}

export interface TrendingRanking {
  /** When the ranking was last recalculated (every 60 s of market time). */
  readonly updatedAt: number
  readonly entries: ReadonlyArray<TrendingEntry>
}

/** A swap that happened in the market (background activity, a whale, or a user's trade). */
export interface MarketSwap {
  readonly at: number
  readonly symbol: string
  readonly network: Network
  readonly side: "buy" | "sell"
  readonly valueUsd: number
}
