/**
 * The trending score of docs/simulator.md ("Trending"), over the indexed figures: a token trends
 * when it trades much more than usual this hour, when it moved a lot in a day, and when buyers are
 * pressing; a stablecoin scores on its move alone. Rounded to two decimals.
 */

/** The window figures a score is computed from. */
export interface TrendingSignals {
  readonly volume1hUsd: number
  readonly buyVolume1hUsd: number
  readonly averageHourlyVolume24hUsd: number
  readonly change24hPercent: number
  readonly pegged: boolean
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x))

/** The score in [0, 100]. */
export const indexedTrendingScore = (signals: TrendingSignals): number => {
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
  return Math.round(100 * (0.45 * accelerationScore + 0.35 * moveScore + 0.2 * pressureScore) * 100) / 100
}
