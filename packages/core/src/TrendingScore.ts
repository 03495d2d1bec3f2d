/**
 * The trending score, one rule for the simulator and for live data (docs/simulator.md, "Trending"):
 * what a trader scanning for action wants on top. A token trends when it trades much more than
 * usual this hour, when it has moved a lot in a day, and when buyers are pressing. Each signal is mapped to [0, 1] and weighted:
 *
 *   acceleration = volume of the last hour / average hourly volume of the 24 h before it
 *   score = 100 × ( 0.45 × clamp(0.5 + log2(acceleration) / 2)      1× → 0.5, 2× → 1, ½× → 0
 *                 + 0.35 × (1 − e^(−|change 24 h %| / 10))          10% → 0.63, 30% → 0.95
 *                 + 0.20 × clamp(0.5 + 2 × (buy share 1 h − 0.5)) ) 75% buys → 1, 25% → 0
 *
 * rounded to two decimals. A stablecoin's volume is plumbing, not interest, so a pegged token scores
 * only on its move: 100 × (1 − e^(−|change 24 h %| / 10)), about 0 on its peg and high when it
 * depegs. Ties go to the larger 24 h volume, then the symbol.
 */

/** The window figures a score is computed from. */
export interface TrendingSignals {
  readonly volume1hUsd: number
  readonly buyVolume1hUsd: number
  readonly averageHourlyVolume24hUsd: number
  readonly change24hPercent: number
  /** A stablecoin: scored on its move alone. */
  readonly pegged: boolean
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x))

/** The score in [0, 100]. */
export const trendingScore = (signals: TrendingSignals): number => {
  const acceleration = signals.averageHourlyVolume24hUsd > 0
    ? signals.volume1hUsd / signals.averageHourlyVolume24hUsd
    : signals.volume1hUsd > 0
    ? 4
    : 1
  const accelerationScore = acceleration > 0 ? clamp01(0.5 + Math.log2(acceleration) / 2) : 0
  const moveScore = 1 - Math.exp(-Math.abs(signals.change24hPercent) / 10)
  if (signals.pegged) return Math.round(moveScore * 10_000) / 100
  const buyShare = signals.volume1hUsd > 0 ? signals.buyVolume1hUsd / signals.volume1hUsd : 0.5
  const pressureScore = clamp01(0.5 + 2 * (buyShare - 0.5))
  const score = 100 * (0.45 * accelerationScore + 0.35 * moveScore + 0.2 * pressureScore)
  return Math.round(score * 100) / 100
}
