/**
 * Background trading: how much of a token trades, in what pieces, on which side.
 *
 * A token's daily volume is split in two. Most of it (60%) is retail flow: the sum of countless
 * small swaps, booked every second as one aggregate without creating records. The rest (40%) comes
 * as discrete swaps with log-normal sizes (heavy-tailed: the mean is 2.7× the median), which the
 * engine returns as `MarketSwap`s; the largest of them are the whales (≥ $100k). Busier tokens have
 * both more and larger swaps: the count grows with the square root of daily volume.
 *
 * Both kinds scale with the token's activity (its current volatility over its mean), because
 * volume and volatility move together in real markets. Neither moves the price: the price process
 * is already the aggregate effect of all background order flow. Instead the buy share leans with
 * the move of the current minute, so that the buy/sell split agrees with the price.
 */
import type { TokenMarketParams } from "./MarketParams.ts"

/** The value from which a swap counts as a whale's. */
export const WHALE_THRESHOLD_USD = 100_000
/** Share of daily volume traded as discrete swaps (the rest is aggregate retail flow). */
export const DISCRETE_VOLUME_SHARE = 0.4
/** Standard deviation of log swap sizes. */
export const SWAP_SIZE_LOG_STD = 1.4
/** Bounds on the number of discrete swaps per token and day. */
export const DISCRETE_SWAPS_PER_DAY_MIN = 200
export const DISCRETE_SWAPS_PER_DAY_MAX = 4_000

/** The named PRNG stream a token's background swaps draw from. */
export const swapStreamName = (symbol: string): string => `market/swaps/${symbol}`

/** A token's background trading at activity 1, per second of market time. */
export interface FlowPlan {
  readonly flowUsdPerSecond: number
  readonly swapsPerSecond: number
  /** Mean of the log of a discrete swap's USD size. */
  readonly swapSizeLogMean: number
}

/** Splits a token's daily volume into retail flow and discrete swaps. */
export const flowPlan = (params: TokenMarketParams): FlowPlan => {
  const daily = params.dailyVolumeUsd
  if (!(daily > 0)) return { flowUsdPerSecond: 0, swapsPerSecond: 0, swapSizeLogMean: 0 }
  const swapsPerDay = Math.min(
    DISCRETE_SWAPS_PER_DAY_MAX,
    Math.max(DISCRETE_SWAPS_PER_DAY_MIN, Math.round(Math.sqrt(daily) / 10))
  )
  const meanSwapUsd = DISCRETE_VOLUME_SHARE * daily / swapsPerDay
  return {
    flowUsdPerSecond: (1 - DISCRETE_VOLUME_SHARE) * daily / 86_400,
    swapsPerSecond: swapsPerDay / 86_400,
    // E[e^(m + sZ)] = e^(m + s²/2) must be the mean swap.
    swapSizeLogMean: Math.log(meanSwapUsd) - SWAP_SIZE_LOG_STD ** 2 / 2
  }
}

/**
 * The share of volume that buys, given the current minute's move so far in units of its expected
 * size (`standardisedMove`): 50% when flat, leaning toward 80% / 20% on strong moves.
 */
export const buyShare = (standardisedMove: number): number =>
  0.5 + 0.3 * standardisedMove / (1 + Math.abs(standardisedMove))
