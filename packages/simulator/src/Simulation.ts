/**
 * One simulated world: the market, the four chains, the wallets, and the agenda that moves them,
 * built from a scenario. It is plain synchronous code driven by `step`, which runs the next due
 * thing (a scheduled chain action or a one-second market tick) in (time, sequence) order and says
 * what the domain must hear about it. Nothing here reads the wall clock or an unseeded random
 * source, so one scenario and one sequence of calls give one event log, byte for byte.
 */
import {
  BASE62,
  type IdKind,
  idPrefixes,
  type MarketObservation,
  type MarketSwap,
  type Network,
  networks,
  type Notification,
  type ObservedPrices,
  parseAmount,
  tokenOf,
  type TradeEvent,
  TRENDING_RECALCULATION_INTERVAL_MS
} from "@swapdesk/core"
import { type Effect, Result } from "effect"
import { ChainEngine, type FaultKind } from "./chain/ChainEngine.ts"
import { defaultNetworkParams, type NetworkParams } from "./chain/NetworkParams.ts"
import { WalletBook, type WalletSpec } from "./chain/WalletBook.ts"
import { WalletKeys } from "./chain/WalletKeys.ts"
import { DEFAULT_LOG_MAX, EventLog, RetainedLog } from "./EventLog.ts"
import { MarketEngine } from "./market/MarketEngine.ts"
import { defaultMarketParams, type TokenMarketParams } from "./market/MarketParams.ts"
import { Prng } from "./Prng.ts"
import { scenarioDefaults, type ScenarioFile } from "./Scenario.ts"
import { Scheduler } from "./Scheduler.ts"

const TICK_MS = 1_000

/**
 * Where a notification stands: `recorded` when no real channel is configured for it, `pending`
 * while a real channel's attempts go on, then `sent`, or `failed` after the last attempt.
 */
export type NotificationStatus = "recorded" | "pending" | "sent" | "failed"

/** A notification as the outbox records it, numbered like the event log's entries. */
export interface SentNotification extends Notification {
  readonly seq: number
  readonly sentAt: string
  readonly status: NotificationStatus
  /** Attempts made on the real channel (0 when recorded only). */
  readonly attempts: number
}

/** How a simulation is run, beside its scenario. */
export interface SimulationOptions {
  /** How many entries the event log and the outbox each keep (`DEFAULT_LOG_MAX` unless given). */
  readonly logMax?: number | undefined
}

/** What the domain must hear after one step. */
export type StepReport =
  | { readonly _tag: "Market"; readonly observation: MarketObservation }
  | {
    readonly _tag: "Trades"
    readonly events: ReadonlyArray<{ readonly tradeId: string; readonly event: TradeEvent }>
  }
  | { readonly _tag: "Due"; readonly tasks: ReadonlyArray<Effect.Effect<void>> }

const mergeTokenParams = (scenario: ScenarioFile): ReadonlyArray<TokenMarketParams> =>
  defaultMarketParams.map((params) => {
    const override = scenario.tokens?.find((t) => t.symbol.toUpperCase() === params.symbol)
    if (override === undefined) return params
    // The scenario was decoded and cross-checked, which refuses settings the market would not use:
    // one here is a defect.
    if (params.peg !== undefined && override.priceUsd !== undefined) {
      throw new Error(`${params.symbol} is pegged: its priceUsd ${override.priceUsd} would be ignored`)
    }
    if (params.tracks !== undefined && (override.priceUsd ?? override.annualVolatility) !== undefined) {
      throw new Error(`${params.symbol} tracks ${params.tracks}: its price and volatility would be ignored`)
    }
    return {
      ...params,
      ...(override.priceUsd === undefined ? {} : { priceUsd: override.priceUsd }),
      ...(override.annualVolatility === undefined ? {} : { annualVolatility: override.annualVolatility }),
      ...(override.dailyVolumeUsd === undefined ? {} : { dailyVolumeUsd: override.dailyVolumeUsd }),
      ...(override.liquidityUsd === undefined
        ? {}
        : { liquidityUsd: { ...params.liquidityUsd, ...override.liquidityUsd } })
    }
  })

const mergeNetworkParams = (scenario: ScenarioFile): Record<Network, NetworkParams> => {
  const merged = { ...defaultNetworkParams }
  for (const network of networks) {
    const override = scenario.networks?.[network]
    if (override !== undefined) merged[network] = { ...merged[network], ...override }
  }
  return merged
}

const walletSpecs = (scenario: ScenarioFile, keys: WalletKeys): Array<WalletSpec> =>
  (scenario.accounts ?? []).flatMap((account) =>
    (account.wallets ?? []).map((wallet) => {
      const balances: Record<string, bigint> = {}
      for (const [symbol, amount] of Object.entries(wallet.balances ?? {})) {
        const parsed = amount === "0" ? Result.succeed(0n) : parseAmount(amount, tokenOf(symbol).decimals)
        // The scenario was decoded and cross-checked: a bad balance here is a defect.
        if (Result.isFailure(parsed)) throw new Error(`balance ${symbol} ${amount}: ${parsed.failure}`)
        balances[symbol] = parsed.success
      }
      return {
        accountId: account.id,
        network: wallet.network,
        address: wallet.address ?? keys.signerOf(account.id, wallet.network),
        delegatedSigning: wallet.delegatedSigning ?? false,
        balances
      }
    })
  )

export class Simulation {
  readonly seed: string | number
  readonly mode: "manual" | "realtime"
  /** Market milliseconds per wall-clock millisecond (realtime mode). */
  readonly speed: number
  readonly startMs: number
  readonly market: MarketEngine
  readonly wallets: WalletBook
  /** Each account's signing keys, derived from the seed. */
  readonly keys: WalletKeys
  readonly chain: ChainEngine
  readonly log: EventLog
  readonly outbox: RetainedLog<SentNotification>
  private readonly agenda = new Scheduler<() => void>()
  private readonly emitted: Array<{ tradeId: string; event: TradeEvent }> = []
  private readonly due: Array<Effect.Effect<void>> = []
  private readonly idStream: Prng
  /** The market's live prices, handed to the domain with every observation. */
  private readonly prices: ObservedPrices = { priceUsd: (symbol) => this.market.priceUsd(symbol) }
  private clockMs: number
  private nextTickMs: number
  private nextTrendingMs: number

  constructor(scenario: ScenarioFile, options: SimulationOptions = {}) {
    this.log = new EventLog(options.logMax ?? DEFAULT_LOG_MAX)
    this.outbox = new RetainedLog(options.logMax ?? DEFAULT_LOG_MAX)
    this.seed = scenario.seed ?? scenarioDefaults.seed
    const clock = scenario.clock ?? scenarioDefaults.clock
    this.mode = clock.mode
    this.speed = clock.speed ?? 1
    this.startMs = Date.parse(clock.start ?? scenarioDefaults.clock.start)
    this.clockMs = this.startMs
    this.nextTickMs = this.startMs + TICK_MS
    this.idStream = Prng.stream(this.seed, "ids")
    this.market = new MarketEngine({
      seed: this.seed,
      startMs: this.startMs,
      historyDays: scenario.historyDays ?? scenarioDefaults.historyDays,
      tokens: mergeTokenParams(scenario),
      history: Object.fromEntries(Object.entries(scenario.history ?? {}).map(([symbol, h]) => [symbol, h.candles]))
    })
    this.market.recomputeTrending(this.startMs)
    this.nextTrendingMs = this.startMs + TRENDING_RECALCULATION_INTERVAL_MS
    this.keys = new WalletKeys(this.seed)
    this.wallets = new WalletBook(walletSpecs(scenario, this.keys))
    this.chain = new ChainEngine({
      seed: this.seed,
      networks: mergeNetworkParams(scenario),
      wallets: this.wallets,
      market: this.market,
      schedule: (at, run) => void this.agenda.schedule(Math.max(at, this.clockMs), run),
      emit: (tradeId, event) => void this.emitted.push({ tradeId, event }),
      log: (at, type, data) => this.log.append(at, type, data)
    })
    this.log.append(this.startMs, "simulation.started", { seed: this.seed, mode: this.mode })
  }

  /** The market clock, in milliseconds. */
  get now(): number {
    return this.clockMs
  }

  /**
   * Runs the next thing due at or before `until`. The market tick of an instant comes before the
   * chain actions of the same instant, so a swap executing at a block boundary sees the price of
   * that second. Answers what the domain must hear, or undefined when nothing more is due.
   */
  step(until: number): StepReport | undefined {
    const actionAt = this.agenda.peekTime()
    if (actionAt !== undefined && actionAt <= until && actionAt < this.nextTickMs) {
      const due = this.agenda.popDue(actionAt)!
      this.clockMs = due.at
      due.action()
      return this.due.length > 0
        ? { _tag: "Due", tasks: this.due.splice(0) }
        : { _tag: "Trades", events: this.emitted.splice(0) }
    }
    if (this.nextTickMs > until) return undefined
    const at = this.nextTickMs
    this.clockMs = at
    this.nextTickMs += TICK_MS
    const swaps = this.market.tick(at)
    if (at >= this.nextTrendingMs) {
      this.market.recomputeTrending(at)
      this.nextTrendingMs += TRENDING_RECALCULATION_INTERVAL_MS
    }
    return { _tag: "Market", observation: { at, swaps, prices: this.prices } }
  }

  /** Moves the clock to `until` once every step due by then has run. */
  settle(until: number): void {
    if (until > this.clockMs) this.clockMs = until
  }

  /** Sets a token's USD price as market activity. */
  setPrice(symbol: string, priceUsd: number): MarketObservation {
    this.market.setPrice(symbol, priceUsd, this.clockMs)
    this.log.append(this.clockMs, "price.set", { token: symbol, price: priceUsd })
    return { at: this.clockMs, swaps: [], prices: this.prices }
  }

  /** A whale swap of `valueUsd` (a buy) happens now. */
  whale(symbol: string, network: Network, valueUsd: number): MarketObservation {
    const swap: MarketSwap = { at: this.clockMs, symbol, network, side: "buy", valueUsd }
    this.market.applySwap(swap)
    this.log.append(this.clockMs, "whale.swap", { token: symbol, network, valueUsd })
    return { at: this.clockMs, swaps: [swap], prices: this.prices }
  }

  injectFault(network: Network, kind: FaultKind, durationMs: number): void {
    this.chain.injectFault(network, kind, durationMs, this.clockMs)
  }

  /** Records a notification in the outbox; answers its `seq` there, for `updateNotification`. */
  notify(notification: Notification, status: "recorded" | "pending"): number {
    const sentAt = new Date(this.clockMs).toISOString()
    this.outbox.push((seq) => ({ seq, ...notification, sentAt, status, attempts: 0 }))
    this.log.append(this.clockMs, "notification.sent", { ...notification })
    return this.outbox.length
  }

  /** A real channel's attempt ended: the outbox item says how many were made and where it stands. */
  updateNotification(seq: number, status: NotificationStatus, attempts: number): void {
    this.outbox.update(seq, (item) => ({ ...item, status, attempts }))
  }

  /** Runs `task` once market time reaches `atMs`: `step` hands it over as a `Due` report. */
  defer(atMs: number, task: Effect.Effect<void>): void {
    this.agenda.schedule(Math.max(atMs, this.clockMs), () => void this.due.push(task))
  }

  /** A fresh id of the kind, from the seed's id stream. */
  nextId(kind: IdKind): string {
    return idPrefixes[kind] + this.idStream.string(20, BASE62)
  }

  token(length: number): string {
    return this.idStream.string(length, BASE62)
  }
}
