/**
 * Background trading arriving over time (the law is in `TradeFlow.ts`): each token's retail flow is
 * booked as one aggregate per window, and its discrete swaps arrive as a Poisson process whose
 * intensity scales with the token's activity. The integrated intensity is a clock per token; a swap
 * happens each time it passes the next exponential mark, at the point of the window where it did.
 * One loop serves the history (one-minute windows) and live ticks (one-second windows), so the
 * history before the start trades exactly as the market does after it.
 *
 * A token replayed from a file of candles trades the file's volume instead of its modelled flow;
 * its discrete swaps (whales included) still arrive, in proportion to that volume against the
 * token's usual daily volume, as samples of it: they reach the whale figures and the caller but add
 * no volume of their own.
 */
import { type MarketSwap, networks } from "@swapdesk/core"
import { Prng, type PrngState } from "../Prng.ts"
import type { TokenMarketParams } from "./MarketParams.ts"
import type { PairBook } from "./PairBook.ts"
import { flowPlan, SWAP_SIZE_LOG_STD, swapStreamName } from "./TradeFlow.ts"
import type { TradeLedger } from "./TradeLedger.ts"

const SECOND_MS = 1_000
/** A replayed token's swaps arrive at most this many times its usual pace, however large the file's volume. */
const REPLAYED_ACTIVITY_MAX = 50

/**
 * Where in its window a swap is stamped. Live windows are the second `(start, start + 1000]` that
 * ends at the tick; history windows are the minute `[start, start + 60 000)` that a bucket holds.
 */
export type WindowEdge = "closedRight" | "closedLeft"

/** What background trading carries forward, per token: its intensity clock, next mark and stream. */
export interface SwapArrivalsSnapshot {
  readonly intensity: Float64Array
  readonly nextSwapAt: Float64Array
  readonly prngs: ReadonlyArray<PrngState>
}

/** Every token's background trading. */
export class SwapArrivals {
  private readonly params: ReadonlyArray<TokenMarketParams>
  private readonly pairsOfToken: ReadonlyArray<ReadonlyArray<number>>
  private readonly pairShare: Float64Array
  private readonly pairNetwork: Uint8Array
  private readonly ledger: TradeLedger
  /** Retail flow and discrete swap rate at activity 1, and the log-mean swap size, per token. */
  private readonly flowUsdPerSecond: Float64Array
  private readonly swapsPerSecond: Float64Array
  private readonly swapSizeLogMean: Float64Array
  /** The token's usual daily volume per second, what a replayed token's volume is measured against. */
  private readonly dailyUsdPerSecond: Float64Array
  private prngs: ReadonlyArray<Prng>
  /** Integrated swap intensity, and the level at which the next discrete swap happens. */
  private readonly intensity: Float64Array
  private readonly nextSwapAt: Float64Array

  constructor(
    seed: string | number,
    params: ReadonlyArray<TokenMarketParams>,
    pairs: PairBook,
    ledger: TradeLedger
  ) {
    this.params = params
    this.pairsOfToken = pairs.ofToken
    this.pairShare = pairs.share
    this.pairNetwork = pairs.network
    this.ledger = ledger
    const plans = params.map(flowPlan)
    this.flowUsdPerSecond = Float64Array.from(plans, (f) => f.flowUsdPerSecond)
    this.swapsPerSecond = Float64Array.from(plans, (f) => f.swapsPerSecond)
    this.swapSizeLogMean = Float64Array.from(plans, (f) => f.swapSizeLogMean)
    this.dailyUsdPerSecond = Float64Array.from(params, (p) => p.dailyVolumeUsd / 86_400)
    this.prngs = params.map((p) => Prng.stream(seed, swapStreamName(p.symbol)))
    this.intensity = new Float64Array(params.length)
    this.nextSwapAt = Float64Array.from(this.prngs, (prng) => prng.exponential(1))
  }

  /** A copy of the evolving state. */
  snapshot(): SwapArrivalsSnapshot {
    return {
      intensity: this.intensity.slice(),
      nextSwapAt: this.nextSwapAt.slice(),
      prngs: this.prngs.map((prng) => prng.state())
    }
  }

  /** Continues from `snapshot`, taken from arrivals of the same tokens. */
  restore(snapshot: SwapArrivalsSnapshot): void {
    if (snapshot.intensity.length !== this.intensity.length || snapshot.prngs.length !== this.prngs.length) {
      throw new Error(`swap snapshot of ${snapshot.intensity.length} tokens, the market has ${this.intensity.length}`)
    }
    this.intensity.set(snapshot.intensity)
    this.nextSwapAt.set(snapshot.nextSwapAt)
    this.prngs = snapshot.prngs.map(Prng.restore)
  }

  /**
   * Token `t`'s trading over a window of `seconds` starting at `windowStartMs`, at `activity` (1 is
   * the token's usual pace) with `share` of the volume buying: its retail flow is booked in
   * `bucket`, and each discrete swap is booked and, when `out` is given, appended to it.
   */
  trade(
    t: number,
    bucket: number,
    seconds: number,
    activity: number,
    share: number,
    windowStartMs: number,
    edge: WindowEdge,
    out: Array<MarketSwap> | undefined
  ): void {
    this.ledger.bookFlow(t, bucket, this.flowUsdPerSecond[t]! * seconds * activity, share)
    const before = this.intensity[t]!
    const after = before + this.swapsPerSecond[t]! * seconds * activity
    this.intensity[t] = after
    // Most windows have no swap: keep this part small enough to inline into the tick loop.
    if (this.nextSwapAt[t]! <= after) this.arrive(t, before, after, seconds, share, windowStartMs, edge, out, true)
  }

  /**
   * A replayed token `t`'s trading over a window: `volumeUsd` from its file booked as flow, and its
   * discrete swaps drawn at the pace that volume sets, booked in the whale figures only.
   */
  tradeReplayed(
    t: number,
    bucket: number,
    seconds: number,
    volumeUsd: number,
    share: number,
    windowStartMs: number,
    edge: WindowEdge,
    out: Array<MarketSwap> | undefined
  ): void {
    this.ledger.bookFlow(t, bucket, volumeUsd, share)
    const usual = this.dailyUsdPerSecond[t]! * seconds
    const activity = usual > 0 ? Math.min(REPLAYED_ACTIVITY_MAX, volumeUsd / usual) : 0
    const before = this.intensity[t]!
    const after = before + this.swapsPerSecond[t]! * seconds * activity
    this.intensity[t] = after
    if (this.nextSwapAt[t]! <= after) this.arrive(t, before, after, seconds, share, windowStartMs, edge, out, false)
  }

  /** The swaps of token `t` whose marks the intensity passed from `before` to `after` in this window. */
  private arrive(
    t: number,
    before: number,
    after: number,
    seconds: number,
    share: number,
    windowStartMs: number,
    edge: WindowEdge,
    out: Array<MarketSwap> | undefined,
    bookVolume: boolean
  ): void {
    const prng = this.prngs[t]!
    const windowMs = seconds * SECOND_MS
    while (this.nextSwapAt[t]! <= after) {
      const fraction = (this.nextSwapAt[t]! - before) / (after - before)
      const at = edge === "closedRight"
        ? windowStartMs + Math.max(1, Math.ceil(fraction * windowMs))
        : windowStartMs + Math.min(windowMs - 1, Math.floor(fraction * windowMs))
      const swap = this.draw(t, at, share, prng, bookVolume)
      if (out !== undefined) out.push(swap)
      this.nextSwapAt[t] = this.nextSwapAt[t]! + prng.exponential(1)
    }
  }

  /** Draws one discrete background swap of token `t` (size, network, side) and books it. */
  private draw(t: number, at: number, share: number, prng: Prng, bookVolume: boolean): MarketSwap {
    const size = Math.exp(this.swapSizeLogMean[t]! + SWAP_SIZE_LOG_STD * prng.normal())
    const valueUsd = Math.max(0.01, Math.round(size * 100) / 100)
    const pairs = this.pairsOfToken[t]!
    const pairShare = this.pairShare
    let pick = prng.next()
    let pair = pairs[pairs.length - 1]!
    for (const candidate of pairs) {
      pick -= pairShare[candidate]!
      if (pick < 0) {
        pair = candidate
        break
      }
    }
    const buy = prng.next() < share
    if (bookVolume) this.ledger.book(t, pair, at, buy, valueUsd)
    else this.ledger.bookWhale(t, pair, at, buy ? valueUsd : -valueUsd)
    return {
      at,
      symbol: this.params[t]!.symbol,
      network: networks[this.pairNetwork[pair]!]!,
      side: buy ? "buy" : "sell",
      valueUsd
    }
  }
}
