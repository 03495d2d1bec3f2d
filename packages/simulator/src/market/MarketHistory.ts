/**
 * The market before its start, at one-minute resolution: every price process steps a minute at a
 * time with the same law as live ticks (`PriceProcesses.stepMinute`), every token trades each
 * minute by the same rules (`SwapArrivals`), and the levels are then priced so that the last close
 * is exactly the token's configured price. A stablecoin's activity follows the walking tokens' mean,
 * so processes run walking ones first.
 */
import type { TokenMarketParams } from "./MarketParams.ts"
import type { MinuteStore } from "./MinuteStore.ts"
import type { PriceProcesses } from "./PriceProcess.ts"
import type { SwapArrivals } from "./SwapArrivals.ts"
import { buyShare } from "./TradeFlow.ts"

const SQRT_60 = Math.sqrt(60)

/** What the history is written with: the processes (walking first) and who trades on each. */
export interface HistoryInputs {
  readonly params: ReadonlyArray<TokenMarketParams>
  readonly processes: PriceProcesses
  /** Token indices that use each process. */
  readonly tokensOfProcess: ReadonlyArray<ReadonlyArray<number>>
  /** How many processes walk (the rest are pegged). */
  readonly walkingCount: number
  readonly store: MinuteStore
  readonly arrivals: SwapArrivals
}

/** Fills buckets [0, `minutes`) minute by minute, process by process, then prices them. */
export const writeHistory = (inputs: HistoryInputs, minutes: number): void => {
  const { arrivals, processes, store, tokensOfProcess, walkingCount } = inputs
  const marketActivity = new Float64Array(minutes)
  for (let process = 0; process < processes.count; process++) {
    const pegged = processes.pegged[process] === 1
    const highs = store.high[process]!
    const lows = store.low[process]!
    const closes = store.close[process]!
    const openLevel = processes.level[process]!
    const tokens = tokensOfProcess[process]!
    for (let b = 0; b < minutes; b++) {
      const before = processes.level[process]!
      const scale = processes.stepScale[process]!
      processes.stepMinute(process)
      highs[b] = processes.minuteHighLevel
      lows[b] = processes.minuteLowLevel
      closes[b] = processes.level[process]!
      let activity: number
      if (pegged) activity = walkingCount > 0 ? marketActivity[b]! / walkingCount : 1
      else {
        activity = scale / processes.meanStepScale[process]!
        marketActivity[b] = marketActivity[b]! + activity
      }
      const share = buyShare((processes.level[process]! - before) / (scale * SQRT_60))
      const minuteStart = store.startOf(b)
      for (const t of tokens) arrivals.trade(t, b, 60, activity, share, minuteStart, "closedLeft", undefined)
    }
    // Price the levels so that the last close is exactly the configured price.
    const startPrice = inputs.params[tokens[0]!]!.priceUsd
    const shift = processes.rebase(process, startPrice)
    store.firstOpen[process] = processes.priceOfLevel(process, openLevel, shift)
    for (let b = 0; b < minutes; b++) {
      highs[b] = processes.priceOfLevel(process, highs[b]!, shift)
      lows[b] = processes.priceOfLevel(process, lows[b]!, shift)
      closes[b] = processes.priceOfLevel(process, closes[b]!, shift)
    }
    if (minutes > 0) store.recordPrice(process, minutes - 1, processes.price[process]!)
  }
}
