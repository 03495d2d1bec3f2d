/**
 * The simulated chains: quoting against each network's liquidity, the wallet's approval, broadcast,
 * the mempool, inclusion in a block, confirmations, and every way a swap can fail, all in market
 * time. Plain synchronous code driven by the simulation's scheduler: the engine never reads a clock
 * and draws randomness only from streams of the seed, so one seed and one sequence of calls give
 * one history.
 *
 * A trade's life, from `submit` at time `t`:
 *
 * 1. Approval. With delegated signing the wallet signs at once; otherwise the trade waits up to
 *    `APPROVAL_TIMEOUT_MS` for `decide`, and times out (hold released) if none comes.
 * 2. Broadcast at `b`: the transaction gets its hash and enters the mempool. Whether it is lost
 *    (`failureRate`, or an `outage` at `b`) and how many blocks it waits are drawn now.
 * 3. Inclusion at a block boundary after `b` (the next one, plus 0-2 missed blocks, plus 5-25 more
 *    under `congestion`). The swap executes here, at the prices of that instant: a lost
 *    transaction or an `outage` now fails with `NETWORK_ERROR` (no gas); a wallet whose free
 *    native balance cannot pay gas fails with `INSUFFICIENT_GAS` (no gas); otherwise gas is paid,
 *    and an output under `minAmountOut` reverts with `SLIPPAGE_EXCEEDED` (gas kept, as a reverted
 *    transaction's is). A successful swap moves the market (its sell and its buy) at once.
 * 4. Confirmation `confirmations` blocks after inclusion: the hold is consumed and the output
 *    credited, and the trade is `confirmed`.
 *
 * Gas is paid at inclusion, as on a real chain, rather than at confirmation: checking the balance
 * and taking the gas in one step means no other trade can reserve the gas in between.
 *
 * Events caused by a call are answered by it (`submit`, `decide`); everything later is emitted from
 * scheduled actions, strictly after the call, so the domain always records a broadcast before the
 * failure or confirmation that follows it.
 */
import {
  APPROVAL_TIMEOUT_MS,
  formatAmount,
  nativeTokenOf,
  type Network,
  networks,
  settle,
  simulatorCatalog,
  type SwapIntent,
  type SwapQuote,
  type SwapRequest,
  TradeEvent
} from "@swapdesk/core"
import { Prng, type PrngState } from "../Prng.ts"
import { type Fault, FaultBook, type FaultKind } from "./Faults.ts"
import { assertNetworkParams, type NetworkParams } from "./NetworkParams.ts"
import { type PoolView, priceSwap } from "./SwapMath.ts"
import { transactionHash } from "./TxHash.ts"
import type { WalletBook } from "./WalletBook.ts"

export type { FaultKind } from "./Faults.ts"

/** Blocks a transaction may miss in a calm mempool (drawn uniformly from 0 to this). */
export const MEMPOOL_EXTRA_BLOCKS_MAX = 2

/** Extra blocks a transaction waits when broadcast into a congested network (drawn uniformly). */
export const CONGESTION_EXTRA_BLOCKS_MIN = 5
export const CONGESTION_EXTRA_BLOCKS_MAX = 25

/**
 * The longest a trade can stay pending on a network, from `submit` to its terminal event:
 * approval (at most the timeout), the wait for the next block, the most blocks the mempool and
 * congestion can add, and the confirmations.
 */
export const tradeCompletionBoundMs = (params: NetworkParams): number =>
  APPROVAL_TIMEOUT_MS
  + (1 + MEMPOOL_EXTRA_BLOCKS_MAX + CONGESTION_EXTRA_BLOCKS_MAX + params.confirmations) * params.blockTimeMs

/** The market as the chain sees it: prices and depth to execute against, and the user's swaps that move it. */
export interface MarketAccess extends PoolView {
  priceUsd(symbol: string): number
  poolDepthUsd(symbol: string, network: Network): number
  /** An executed user swap, so that large swaps move the price. */
  applySwap(swap: { at: number; symbol: string; network: Network; side: "buy" | "sell"; valueUsd: number }): void
}

/**
 * Something the engine asked to run later, as data: the simulation keeps these on its agenda and
 * hands each back to `ChainEngine.run` when it is due, and a snapshot carries them as they are.
 */
export type ChainAction =
  /** A trade's approval deadline: it times out if still awaiting approval. */
  | { readonly _tag: "ApprovalDeadline"; readonly tradeId: string; readonly at: number }
  /** The block that takes a broadcast trade; `lost` was drawn at broadcast. */
  | { readonly _tag: "Include"; readonly tradeId: string; readonly at: number; readonly lost: boolean }
  /** An included trade's confirmation, with what its execution settled. */
  | {
    readonly _tag: "Confirm"
    readonly tradeId: string
    readonly at: number
    readonly amountOut: bigint
    readonly fee: bigint
    readonly gasFee: bigint
  }
  /** A fault's end, to be logged. */
  | { readonly _tag: "FaultEnd"; readonly network: Network; readonly kind: FaultKind; readonly at: number }

/** A trade in progress, as data. */
export interface PendingTradeSnapshot {
  readonly intent: SwapIntent
  readonly submittedAt: number
  readonly prng: PrngState
  readonly stage: "awaiting_approval" | "broadcast" | "included"
  readonly txHash: string | null
}

/** The engine's evolving state as data (docs/simulator.md#snapshots); its scheduled actions live on the agenda. */
export interface ChainSnapshot {
  /** The trades in progress, in the order they were submitted. */
  readonly pending: ReadonlyArray<PendingTradeSnapshot>
  /** The ids of the trades that ended confirmed, and of those that ended failed. */
  readonly confirmed: ReadonlyArray<string>
  readonly failed: ReadonlyArray<string>
  /** Every fault injected, in order. */
  readonly faults: ReadonlyArray<Fault>
}

/** Everything the engine is wired to. */
export interface ChainConfig {
  readonly seed: string | number
  readonly networks: Readonly<Record<Network, NetworkParams>>
  readonly wallets: WalletBook
  readonly market: MarketAccess
  /**
   * Asks the simulation to hand `action` back to `run` at market time `at` (never earlier than
   * now); due actions run in (time, sequence) order.
   */
  readonly schedule: (at: number, action: ChainAction) => void
  /** A trade event happened at its `at`: deliver it to the domain. */
  readonly emit: (tradeId: string, event: TradeEvent) => void
  /** Appends to the simulator's event log; data is JSON-safe (amounts as decimal strings). */
  readonly log: (at: number, type: string, data: Record<string, unknown>) => void
}

/** Where the engine holds a trade; `included` is still `broadcast` to the domain, until confirmed. */
export type ChainStage = "awaiting_approval" | "broadcast" | "included" | "confirmed" | "failed"

/** A network's conditions at one instant. */
export interface NetworkStatus {
  readonly gasPrice: bigint
  readonly outage: boolean
  readonly congestion: boolean
  readonly gasSpike: boolean
}

interface TradeState {
  readonly intent: SwapIntent
  readonly submittedAt: number
  /** The trade's own stream: its draws never shift another trade's. */
  readonly prng: Prng
  stage: ChainStage
  txHash: string | undefined
}

type ExecutionFailure = "SLIPPAGE_EXCEEDED" | "INSUFFICIENT_GAS" | "NETWORK_ERROR"

const defect = (message: string): never => {
  throw new Error(`ChainEngine: ${message}`)
}

/** Block boundaries fall on multiples of the block time; the first one strictly after `at`. */
const nextBlockAfter = (at: number, blockTimeMs: number): number => (Math.floor(at / blockTimeMs) + 1) * blockTimeMs

/** The four simulated networks and the trades on them. */
export class ChainEngine {
  private readonly config: ChainConfig
  private faults = new FaultBook()
  /** The trades still in progress. */
  private readonly trades = new Map<string, TradeState>()
  /**
   * How each ended trade ended: all the engine keeps of it, so a long run holds a few bytes per
   * trade here rather than its intent and stream (docs/performance.md#memory).
   */
  private readonly ended = new Map<string, "confirmed" | "failed">()

  constructor(config: ChainConfig) {
    for (const network of networks) assertNetworkParams(network, config.networks[network])
    this.config = config
  }

  /**
   * An engine that goes on exactly as the one `snapshot` was taken from, wired to `config` (whose
   * wallets and agenda are restored beside it). The intents are copied, not shared.
   */
  static restore(config: ChainConfig, snapshot: ChainSnapshot): ChainEngine {
    const engine = new ChainEngine(config)
    engine.faults = FaultBook.restore(snapshot.faults)
    for (const trade of snapshot.pending) {
      engine.trades.set(trade.intent.tradeId, {
        intent: { ...trade.intent },
        submittedAt: trade.submittedAt,
        prng: Prng.restore(trade.prng),
        stage: trade.stage,
        txHash: trade.txHash ?? undefined
      })
    }
    for (const id of snapshot.confirmed) engine.ended.set(id, "confirmed")
    for (const id of snapshot.failed) engine.ended.set(id, "failed")
    return engine
  }

  /** The engine's state now, as data that shares nothing mutable with it. */
  snapshot(): ChainSnapshot {
    const pending: Array<PendingTradeSnapshot> = []
    for (const trade of this.trades.values()) {
      // A trade leaves `trades` as it ends, so only the in-progress stages are here.
      const stage = trade.stage as PendingTradeSnapshot["stage"]
      pending.push({
        intent: { ...trade.intent },
        submittedAt: trade.submittedAt,
        prng: trade.prng.state(),
        stage,
        txHash: trade.txHash ?? null
      })
    }
    const confirmed: Array<string> = [], failed: Array<string> = []
    for (const [id, stage] of this.ended) (stage === "confirmed" ? confirmed : failed).push(id)
    return { pending, confirmed, failed, faults: this.faults.snapshot() }
  }

  /** Runs an action the engine scheduled, now that it is due. */
  run(action: ChainAction): void {
    switch (action._tag) {
      case "ApprovalDeadline": {
        const trade = this.trades.get(action.tradeId)
        // Decided (or rejected) in time: nothing to do.
        if (trade?.stage === "awaiting_approval") this.config.emit(action.tradeId, this.timeOut(trade, action.at))
        return
      }
      case "Include":
        return this.include(this.pendingTrade(action.tradeId), action.at, action.lost)
      case "Confirm":
        return this.confirm(this.pendingTrade(action.tradeId), action.at, action.amountOut, action.fee, action.gasFee)
      case "FaultEnd":
        return this.config.log(action.at, "fault.ended", { network: action.network, kind: action.kind })
    }
  }

  private pendingTrade(tradeId: string): TradeState {
    return this.trades.get(tradeId) ?? defect(`scheduled action for trade ${tradeId}, which is not in progress`)
  }

  /** What the network's liquidity pays for the request now, its price impact and the gas it would cost now. */
  quote(request: SwapRequest, at: number): SwapQuote {
    const pricing = priceSwap(request, this.config.market)
    return {
      grossOut: pricing.grossOut,
      priceImpactPercent: pricing.priceImpactPercent,
      gasFee: this.gasFee(request.network, at)
    }
  }

  /**
   * Starts a trade whose input is already held under `intent.tradeId`. With delegated signing it
   * is broadcast at once (answers the `Broadcast`); otherwise it waits for `decide` (answers
   * nothing) and times out after `APPROVAL_TIMEOUT_MS`.
   */
  submit(intent: SwapIntent, at: number): ReadonlyArray<TradeEvent> {
    if (this.trades.has(intent.tradeId) || this.ended.has(intent.tradeId)) {
      defect(`trade ${intent.tradeId} was already submitted`)
    }
    const hold = this.config.wallets.hold(intent.tradeId)
    if (
      hold === undefined || hold.accountId !== intent.accountId || hold.network !== intent.network
      || hold.token !== intent.tokenIn || hold.amount !== intent.amountIn
    ) {
      defect(`trade ${intent.tradeId} has no hold of exactly its amountIn`)
    }
    const wallet = this.config.wallets.wallet(intent.accountId, intent.network)
    if (wallet?.address !== intent.walletAddress) {
      defect(`trade ${intent.tradeId} names a wallet that is not the account's on ${intent.network}`)
    }
    const trade: TradeState = {
      intent,
      submittedAt: at,
      prng: Prng.stream(this.config.seed, `chain/trade/${intent.tradeId}`),
      stage: "awaiting_approval",
      txHash: undefined
    }
    this.trades.set(intent.tradeId, trade)
    if (intent.delegatedSigning) return [this.broadcast(trade, at)]
    this.config.log(at, "trade.awaiting_approval", { tradeId: intent.tradeId, network: intent.network })
    const deadline = at + APPROVAL_TIMEOUT_MS
    this.config.schedule(deadline, { _tag: "ApprovalDeadline", tradeId: intent.tradeId, at: deadline })
    return []
  }

  /**
   * The wallet's decision on a trade awaiting approval: `Broadcast` or `Rejected` (hold released).
   * A decision at or after the deadline is too late: the trade times out instead, and the answer
   * is `ApprovalTimedOut` (the scheduled timeout then finds nothing to do). A defect if the trade
   * is not awaiting approval: the caller checks first.
   */
  decide(tradeId: string, approve: boolean, at: number): TradeEvent {
    const trade = this.trades.get(tradeId)
    if (trade?.stage !== "awaiting_approval") return defect(`trade ${tradeId} is not awaiting approval`)
    const deadline = trade.submittedAt + APPROVAL_TIMEOUT_MS
    if (at >= deadline) return this.timeOut(trade, deadline)
    if (approve) return this.broadcast(trade, at)
    this.config.wallets.release(tradeId)
    this.end(trade, "failed")
    this.config.log(at, "trade.rejected", { tradeId, network: trade.intent.network })
    return TradeEvent.Rejected({ at })
  }

  /** Starts a fault on the network for `durationMs` from `at`; its start and end are logged. */
  injectFault(network: Network, kind: FaultKind, durationMs: number, at: number): void {
    if (!(Number.isFinite(durationMs) && durationMs > 0)) defect(`fault duration ${durationMs} is not positive`)
    const endAt = at + durationMs
    this.faults.add({ network, kind, startAt: at, endAt })
    this.config.log(at, "fault.started", { network, kind, durationMs })
    this.config.schedule(endAt, { _tag: "FaultEnd", network, kind, at: endAt })
  }

  /** Native base units per gas unit on the network at `at`, faults included. */
  gasPrice(network: Network, at: number): bigint {
    return this.config.networks[network].baseGasPrice * this.faults.gasMultiplier(network, at)
  }

  /** The network's gas price and active faults at `at`. */
  status(network: Network, at: number): NetworkStatus {
    return {
      gasPrice: this.gasPrice(network, at),
      outage: this.faults.isActive(network, "outage", at),
      congestion: this.faults.isActive(network, "congestion", at),
      gasSpike: this.faults.isActive(network, "gas_spike", at)
    }
  }

  /** Where the engine holds a trade, or undefined if it never saw it. */
  stageOf(tradeId: string): ChainStage | undefined {
    return this.trades.get(tradeId)?.stage ?? this.ended.get(tradeId)
  }

  /** The trade ends at `stage`: it leaves the trades in progress. */
  private end(trade: TradeState, stage: "confirmed" | "failed"): void {
    trade.stage = stage
    this.trades.delete(trade.intent.tradeId)
    this.ended.set(trade.intent.tradeId, stage)
  }

  /** The longest a trade on this network stays pending (see `tradeCompletionBoundMs`). */
  completionBoundMs(network: Network): number {
    return tradeCompletionBoundMs(this.config.networks[network])
  }

  private gasFee(network: Network, at: number): bigint {
    return BigInt(this.config.networks[network].gasUnitsPerSwap) * this.gasPrice(network, at)
  }

  private timeOut(trade: TradeState, at: number): TradeEvent {
    this.config.wallets.release(trade.intent.tradeId)
    this.end(trade, "failed")
    this.config.log(at, "trade.approval_timeout", { tradeId: trade.intent.tradeId, network: trade.intent.network })
    return TradeEvent.ApprovalTimedOut({ at })
  }

  /** Signs and sends: draws the hash and the mempool's verdict now, and schedules the inclusion. */
  private broadcast(trade: TradeState, at: number): TradeEvent {
    const { intent, prng } = trade
    const params = this.config.networks[intent.network]
    // Always the same draws in the same order, whatever the conditions: a trade's history then
    // depends on conditions only through the branches taken, not through shifted numbers.
    const txHash = transactionHash(intent.network, prng)
    const lostDraw = prng.next()
    const missedBlocks = prng.int(0, MEMPOOL_EXTRA_BLOCKS_MAX)
    const congestionBlocks = prng.int(CONGESTION_EXTRA_BLOCKS_MIN, CONGESTION_EXTRA_BLOCKS_MAX)
    const lost = lostDraw < params.failureRate || this.faults.isActive(intent.network, "outage", at)
    const waitBlocks = missedBlocks + (this.faults.isActive(intent.network, "congestion", at) ? congestionBlocks : 0)
    const includeAt = nextBlockAfter(at, params.blockTimeMs) + waitBlocks * params.blockTimeMs
    trade.stage = "broadcast"
    trade.txHash = txHash
    this.config.log(at, "trade.broadcast", { tradeId: intent.tradeId, network: intent.network, txHash })
    this.config.schedule(includeAt, { _tag: "Include", tradeId: intent.tradeId, at: includeAt, lost })
    return TradeEvent.Broadcast({ at, txHash })
  }

  /** The block that takes the transaction: the swap executes, reverts, or the transaction never lands. */
  private include(trade: TradeState, at: number, lost: boolean): void {
    const { intent } = trade
    const { market, wallets } = this.config
    const params = this.config.networks[intent.network]
    // A lost transaction is noticed when it should have landed: the wallet waits for it, then gives up.
    if (lost || this.faults.isActive(intent.network, "outage", at)) return this.fail(trade, at, "NETWORK_ERROR", 0n)
    const native = nativeTokenOf(intent.network)
    const gasFee = this.gasFee(intent.network, at)
    // Free balance only: when tokenIn is the native token, its held input cannot pay the gas.
    if (wallets.free(intent.accountId, intent.network, native) < gasFee) {
      return this.fail(trade, at, "INSUFFICIENT_GAS", 0n)
    }
    const pricing = priceSwap(intent, market)
    const { amountOut, fee } = settle(pricing.grossOut)
    wallets.burnGas(intent.accountId, intent.network, native, gasFee)
    this.config.log(at, "gas.burned", {
      tradeId: intent.tradeId,
      accountId: intent.accountId,
      network: intent.network,
      token: native,
      amount: formatAmount(gasFee, simulatorCatalog.tokenOf(native).decimals)
    })
    if (amountOut < intent.minAmountOut) return this.fail(trade, at, "SLIPPAGE_EXCEEDED", gasFee)
    market.applySwap({
      at,
      symbol: intent.tokenIn,
      network: intent.network,
      side: "sell",
      valueUsd: pricing.sellValueUsd.toNumber()
    })
    market.applySwap({
      at,
      symbol: intent.tokenOut,
      network: intent.network,
      side: "buy",
      valueUsd: pricing.buyValueUsd.toNumber()
    })
    trade.stage = "included"
    const decimalsOut = simulatorCatalog.tokenOf(intent.tokenOut).decimals
    this.config.log(at, "trade.included", {
      tradeId: intent.tradeId,
      network: intent.network,
      txHash: trade.txHash,
      block: Math.round(at / params.blockTimeMs),
      amountOut: formatAmount(amountOut, decimalsOut),
      fee: formatAmount(fee, decimalsOut),
      priceImpactPercent: pricing.priceImpactPercent
    })
    const confirmAt = at + params.confirmations * params.blockTimeMs
    this.config.schedule(confirmAt, {
      _tag: "Confirm",
      tradeId: intent.tradeId,
      at: confirmAt,
      amountOut,
      fee,
      gasFee
    })
  }

  private confirm(trade: TradeState, at: number, amountOut: bigint, fee: bigint, gasFee: bigint): void {
    const { intent } = trade
    this.config.wallets.settleSwap(intent.tradeId, intent.tokenOut, amountOut)
    this.end(trade, "confirmed")
    const decimalsOut = simulatorCatalog.tokenOf(intent.tokenOut).decimals
    this.config.log(at, "trade.confirmed", {
      tradeId: intent.tradeId,
      network: intent.network,
      txHash: trade.txHash,
      amountIn: formatAmount(intent.amountIn, simulatorCatalog.tokenOf(intent.tokenIn).decimals),
      amountOut: formatAmount(amountOut, decimalsOut),
      fee: formatAmount(fee, decimalsOut),
      gasFee: formatAmount(gasFee, simulatorCatalog.tokenOf(nativeTokenOf(intent.network)).decimals)
    })
    this.config.emit(intent.tradeId, TradeEvent.Confirmed({ at, amountOut, fee, gasFee }))
  }

  /** Ends a broadcast trade as failed: its whole input goes back to free balance. */
  private fail(trade: TradeState, at: number, reason: ExecutionFailure, gasFee: bigint): void {
    const { intent } = trade
    if (!this.config.wallets.release(intent.tradeId)) defect(`failed trade ${intent.tradeId} had no open hold`)
    this.end(trade, "failed")
    this.config.log(at, "trade.failed", {
      tradeId: intent.tradeId,
      network: intent.network,
      txHash: trade.txHash,
      reason,
      gasFee: formatAmount(gasFee, simulatorCatalog.tokenOf(nativeTokenOf(intent.network)).decimals)
    })
    this.config.emit(intent.tradeId, TradeEvent.Failed({ at, reason, gasFee }))
  }
}
