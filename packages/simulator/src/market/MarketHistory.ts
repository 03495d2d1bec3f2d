/**
 * The market before its start, at one-minute resolution: every price process steps a minute at a
 * time with the same law as live ticks (`PriceProcesses.stepMinute`), every token trades each
 * minute by the same rules (`SwapArrivals`), and the levels are then priced so that the last close
 * is exactly the token's configured price. A stablecoin's activity follows the walking tokens' mean,
 * so processes run walking ones first.
 *
 * A process replayed from a file of candles takes each minute the file covers from it (its
 * one-minute bars, with the file's volume), runs its model in the minutes before the file (priced
 * to end at the file's first open) and in gaps (from the last close).
 */
import type { HistoryReplay } from "./HistoryReplay.ts"
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
  /** How many processes walk on their model (the rest are pegged or replayed). */
  readonly walkingCount: number
  /** The replay of each process that has one. */
  readonly replays: ReadonlyArray<HistoryReplay | undefined>
  /** The token whose file each replayed process plays (the others on it trade as modelled). */
  readonly replayedToken: Int32Array
  readonly store: MinuteStore
  readonly arrivals: SwapArrivals
}

/**
 * Steps `process` one model minute into bucket `b`, in level units: its high, low and close. Answers
 * the buy share of the minute's move (the step scale it is measured in is read before the step).
 */
const stepModelMinute = (
  processes: PriceProcesses,
  process: number,
  b: number,
  highs: Float64Array,
  lows: Float64Array,
  closes: Float64Array
): number => {
  const before = processes.level[process]!
  const scale = processes.stepScale[process]!
  processes.stepMinute(process)
  highs[b] = processes.minuteHighLevel
  lows[b] = processes.minuteLowLevel
  closes[b] = processes.level[process]!
  return buyShare((processes.level[process]! - before) / (scale * SQRT_60))
}

/** Fills buckets [0, `minutes`) minute by minute, process by process, then prices them. */
export const writeHistory = (inputs: HistoryInputs, minutes: number): void => {
  const { arrivals, processes, store, tokensOfProcess, walkingCount } = inputs
  const marketActivity = new Float64Array(minutes)
  for (let process = 0; process < processes.count; process++) {
    const replay = inputs.replays[process]
    if (replay !== undefined) {
      writeReplayed(inputs, process, replay, minutes)
      continue
    }
    const pegged = processes.pegged[process] === 1
    const highs = store.high[process]!
    const lows = store.low[process]!
    const closes = store.close[process]!
    const openLevel = processes.level[process]!
    const tokens = tokensOfProcess[process]!
    for (let b = 0; b < minutes; b++) {
      const scale = processes.stepScale[process]!
      const share = stepModelMinute(processes, process, b, highs, lows, closes)
      let activity: number
      if (pegged) activity = walkingCount > 0 ? marketActivity[b]! / walkingCount : 1
      else {
        activity = scale / processes.meanStepScale[process]!
        marketActivity[b] = marketActivity[b]! + activity
      }
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

/** Process `process`'s minutes from its replay where the file covers them, from its model elsewhere. */
const writeReplayed = (inputs: HistoryInputs, process: number, replay: HistoryReplay, minutes: number): void => {
  const { arrivals, processes, store } = inputs
  const highs = store.high[process]!
  const lows = store.low[process]!
  const closes = store.close[process]!
  const opens = store.open[process]!
  const tokens = inputs.tokensOfProcess[process]!
  const replayed = inputs.replayedToken[process]!
  const bar = new Float64Array(4)
  // Before the file: model minutes in level units, priced afterwards to end at the file's first open.
  const lead = Math.max(0, Math.min(minutes, store.bucketOf(replay.fromMs)))
  const openLevel = processes.level[process]!
  for (let b = 0; b < lead; b++) {
    const scale = processes.stepScale[process]!
    const share = stepModelMinute(processes, process, b, highs, lows, closes)
    const activity = scale / processes.meanStepScale[process]!
    for (const t of tokens) arrivals.trade(t, b, 60, activity, share, store.startOf(b), "closedLeft", undefined)
  }
  const shift = processes.rebase(process, replay.series.open[0]!)
  store.firstOpen[process] = processes.priceOfLevel(process, openLevel, shift)
  for (let b = 0; b < lead; b++) {
    highs[b] = processes.priceOfLevel(process, highs[b]!, shift)
    lows[b] = processes.priceOfLevel(process, lows[b]!, shift)
    closes[b] = processes.priceOfLevel(process, closes[b]!, shift)
    opens[b] = b === 0 ? store.firstOpen[process]! : closes[b - 1]!
  }
  // From the file's start: its bars where it covers a minute, the model from the last close in gaps.
  for (let b = lead; b < minutes; b++) {
    const minuteStart = store.startOf(b)
    const before = processes.level[process]!
    const scale = processes.stepScale[process]!
    const candle = replay.candleAt(minuteStart)
    if (candle >= 0) {
      replay.minuteBar(candle, minuteStart, bar)
      opens[b] = bar[0]!
      highs[b] = bar[1]!
      lows[b] = bar[2]!
      closes[b] = bar[3]!
      processes.setPrice(process, bar[3]!)
    } else {
      opens[b] = b === 0 ? processes.price[process]! : closes[b - 1]!
      processes.stepMinute(process)
      highs[b] = processes.priceOfLevel(process, Math.max(processes.minuteHighLevel, before), 0)
      lows[b] = processes.priceOfLevel(process, Math.min(processes.minuteLowLevel, before), 0)
      closes[b] = processes.priceOfLevel(process, processes.level[process]!, 0)
      processes.setPrice(process, closes[b]!)
    }
    if (b === 0) store.firstOpen[process] = opens[0]!
    const share = buyShare((processes.level[process]! - before) / (scale * SQRT_60))
    for (const t of tokens) {
      if (t === replayed && candle >= 0) {
        arrivals.tradeReplayed(
          t,
          b,
          60,
          replay.volumeUsdPerSecond(candle) * 60,
          share,
          minuteStart,
          "closedLeft",
          undefined
        )
      } else {
        arrivals.trade(t, b, 60, scale / processes.meanStepScale[process]!, share, minuteStart, "closedLeft", undefined)
      }
    }
  }
}
