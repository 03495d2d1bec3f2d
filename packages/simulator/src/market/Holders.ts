/**
 * Holder figures drift slowly with trading after the market starts: every day's worth of volume
 * brings 0.05% more holders, net buying adds holders (net selling removes them) at 1% per day's
 * volume, and whales buying on balance concentrate the supply in the top ten (5% relative per day's
 * volume of net whale buying). At the start they are exactly the configured figures.
 */

/**
 * Ten billion: more holders than any token has. Price moves to the edges of the quotable range book
 * years of volume in a second, and the drift's exponential would otherwise overflow to infinity.
 */
const MAX_HOLDERS = 1e10

/** Holder count after `volumeUsd` of trading with `netBuyUsd` of net buying since the start. */
export const holdersCount = (
  startHolders: number,
  volumeUsd: number,
  netBuyUsd: number,
  dailyVolumeUsd: number
): number => {
  if (!(dailyVolumeUsd > 0)) return startHolders
  const days = volumeUsd / dailyVolumeUsd
  const netDays = netBuyUsd / dailyVolumeUsd
  return Math.max(1, Math.min(MAX_HOLDERS, Math.round(startHolders * Math.exp(0.0005 * days + 0.01 * netDays))))
}

/** Top-ten share (percent, two decimals) after `whaleNetBuyUsd` of net whale buying since the start. */
export const top10Percent = (startPercent: number, whaleNetBuyUsd: number, dailyVolumeUsd: number): number => {
  if (!(dailyVolumeUsd > 0)) return startPercent
  const percent = startPercent * Math.exp(0.05 * whaleNetBuyUsd / dailyVolumeUsd)
  return Math.round(Math.min(100, Math.max(0.01, percent)) * 100) / 100
}
