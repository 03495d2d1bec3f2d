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
  simulatorCatalog,
  type TradeEvent,
  TRENDING_RECALCULATION_INTERVAL_MS
} from "@swapdesk/core"
import { type Effect, Result } from "effect"
import { type ChainAction, ChainEngine, type ChainSnapshot, type FaultKind } from "./chain/ChainEngine.ts"
import { defaultNetworkParams, type NetworkParams } from "./chain/NetworkParams.ts"
import { WalletBook, type WalletBookSnapshot, type WalletSpec } from "./chain/WalletBook.ts"
import { WalletKeys } from "./chain/WalletKeys.ts"
import { DEFAULT_LOG_MAX, EventLog, type LoggedEvent, RetainedLog, type RetainedLogSnapshot } from "./EventLog.ts"
import { type MarketConfig, MarketEngine, type MarketSnapshot } from "./market/MarketEngine.ts"
import { defaultMarketParams, type TokenMarketParams } from "./market/MarketParams.ts"
import { Prng, type PrngState } from "./Prng.ts"
import { scenarioDefaults, type ScenarioFile } from "./Scenario.ts"
import { Scheduler, type SchedulerSnapshot } from "./Scheduler.ts"

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

/**
 * What the agenda holds: the chain's actions, as data, and the deferred tasks of `defer`, which
 * are the domain's effects and cannot be data.
 */
type AgendaEntry = ChainAction | { readonly _tag: "Deferred"; readonly task: Effect.Effect<void> }

/** The snapshot format this build writes and reads. */
export const SIMULATION_SNAPSHOT_VERSION = 1

/**
 * A simulation's evolving state as plain data (docs/simulator.md#snapshots): `structuredClone` and
 * `node:v8` carry it unchanged. The scenario is not in it: `Simulation.restore` takes the same
 * scenario beside it, and refuses one whose seed, start or wallets differ from `scenario`'s.
 */
export interface SimulationSnapshot {
  readonly version: typeof SIMULATION_SNAPSHOT_VERSION
  /** What the snapshot assumes of its scenario. */
  readonly scenario: {
    readonly seed: string | number
    readonly startMs: number
    /** `accountId/network/address` of every scenario wallet, in order. */
    readonly wallets: ReadonlyArray<string>
  }
  readonly clockMs: number
  readonly nextTickMs: number
  readonly nextTrendingMs: number
  /** The id stream's state. */
  readonly ids: PrngState
  /** The chain's scheduled actions with the agenda's sequence counter. */
  readonly agenda: SchedulerSnapshot<ChainAction>
  readonly log: RetainedLogSnapshot<LoggedEvent>
  readonly outbox: RetainedLogSnapshot<SentNotification>
  readonly wallets: WalletBookSnapshot
  readonly chain: ChainSnapshot
  readonly market: MarketSnapshot
}

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
        const parsed = amount === "0"
          ? Result.succeed(0n)
          : parseAmount(amount, simulatorCatalog.tokenOf(symbol).decimals)
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

type Fingerprint = SimulationSnapshot["scenario"]

const fingerprintOf = (
  seed: string | number,
  startMs: number,
  wallets: ReadonlyArray<{ readonly accountId: string; readonly network: Network; readonly address: string }>
): Fingerprint => ({
  seed,
  startMs,
  wallets: wallets.map((w) => `${w.accountId}/${w.network}/${w.address}`)
})

/** Refuses a snapshot of another format, or of a simulation of another scenario. */
const checkFingerprint = (snapshot: SimulationSnapshot, scenario: Fingerprint): void => {
  if (snapshot.version !== SIMULATION_SNAPSHOT_VERSION) {
    throw new Error(
      `simulation snapshot version ${
        String(snapshot.version)
      } cannot be restored (this build reads version ${SIMULATION_SNAPSHOT_VERSION})`
    )
  }
  const taken = snapshot.scenario
  if (taken.seed !== scenario.seed) {
    throw new Error(
      `the snapshot is of a simulation with seed ${JSON.stringify(taken.seed)}, not the scenario's seed ${
        JSON.stringify(scenario.seed)
      }`
    )
  }
  if (taken.startMs !== scenario.startMs) {
    throw new Error(
      `the snapshot is of a simulation started at ${new Date(taken.startMs).toISOString()}, not the scenario's ${
        new Date(scenario.startMs).toISOString()
      }`
    )
  }
  if (taken.wallets.join("\n") !== scenario.wallets.join("\n")) {
    throw new Error(
      `the snapshot's wallets (${taken.wallets.join(", ")}) are not the scenario's (${scenario.wallets.join(", ")})`
    )
  }
}

/** A snapshot that cannot be restored on the scenario given, with what differs. */
export class SnapshotRefused extends Error {
  override readonly name = "SnapshotRefused"
}

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
  private readonly agenda: Scheduler<AgendaEntry>
  /** How many `Deferred` entries the agenda holds: a snapshot waits until none is left. */
  private deferredCount = 0
  private readonly emitted: Array<{ tradeId: string; event: TradeEvent }> = []
  private readonly due: Array<Effect.Effect<void>> = []
  private readonly idStream: Prng
  /** The market's live prices, handed to the domain with every observation. */
  private readonly prices: ObservedPrices = { priceUsd: (symbol) => this.market.priceUsd(symbol) }
  private clockMs: number
  private nextTickMs: number
  private nextTrendingMs: number

  /**
   * A fresh simulation of `scenario`, or (with `snapshot`, as `Simulation.restore` passes it) one
   * that goes on from a snapshot taken of a simulation of the same scenario.
   */
  constructor(scenario: ScenarioFile, options: SimulationOptions = {}, snapshot?: SimulationSnapshot) {
    const logMax = options.logMax ?? DEFAULT_LOG_MAX
    this.log = new EventLog(logMax)
    this.outbox = new RetainedLog(logMax)
    this.seed = scenario.seed ?? scenarioDefaults.seed
    const clock = scenario.clock ?? scenarioDefaults.clock
    this.mode = clock.mode
    this.speed = clock.speed ?? 1
    this.startMs = Date.parse(clock.start ?? scenarioDefaults.clock.start)
    this.keys = new WalletKeys(this.seed)
    const specs = walletSpecs(scenario, this.keys)
    const marketConfig: MarketConfig = {
      seed: this.seed,
      startMs: this.startMs,
      historyDays: scenario.historyDays ?? scenarioDefaults.historyDays,
      tokens: mergeTokenParams(scenario),
      history: Object.fromEntries(Object.entries(scenario.history ?? {}).map(([symbol, h]) => [symbol, h.candles]))
    }
    const chainConfig = (wallets: WalletBook, market: MarketEngine) => ({
      seed: this.seed,
      networks: mergeNetworkParams(scenario),
      wallets,
      market,
      schedule: (at: number, action: ChainAction) => void this.agenda.schedule(Math.max(at, this.clockMs), action),
      emit: (tradeId: string, event: TradeEvent) => void this.emitted.push({ tradeId, event }),
      log: (at: number, type: string, data: Record<string, unknown>) => this.log.append(at, type, data)
    })
    if (snapshot === undefined) {
      this.clockMs = this.startMs
      this.nextTickMs = this.startMs + TICK_MS
      this.idStream = Prng.stream(this.seed, "ids")
      this.agenda = new Scheduler()
      this.market = new MarketEngine(marketConfig)
      this.market.recomputeTrending(this.startMs)
      this.nextTrendingMs = this.startMs + TRENDING_RECALCULATION_INTERVAL_MS
      this.wallets = new WalletBook(specs)
      this.chain = new ChainEngine(chainConfig(this.wallets, this.market))
      this.log.append(this.startMs, "simulation.started", { seed: this.seed, mode: this.mode })
      return
    }
    checkFingerprint(snapshot, fingerprintOf(this.seed, this.startMs, specs))
    this.clockMs = snapshot.clockMs
    this.nextTickMs = snapshot.nextTickMs
    this.nextTrendingMs = snapshot.nextTrendingMs
    this.idStream = Prng.restore(snapshot.ids)
    this.agenda = Scheduler.restore<AgendaEntry>(snapshot.agenda)
    this.log.continueFrom(snapshot.log)
    this.outbox.continueFrom(snapshot.outbox)
    this.market = MarketEngine.restore(marketConfig, snapshot.market)
    this.wallets = WalletBook.restore(snapshot.wallets)
    this.chain = ChainEngine.restore(chainConfig(this.wallets, this.market), snapshot.chain)
  }

  /**
   * A simulation that goes on exactly as the one `snapshot` was taken from: driven by the same
   * calls, it logs, answers and draws the same, byte for byte. `scenario` must be the scenario the
   * snapshot's simulation was built from (it holds what never changes: parameters, history files);
   * one with another seed, start or wallets is refused with a {@link SnapshotRefused}, as is another
   * snapshot version or a market the scenario calibrates otherwise. Costs about the snapshot's size:
   * no market step is run again.
   */
  static restore(scenario: ScenarioFile, snapshot: SimulationSnapshot, options: SimulationOptions = {}): Simulation {
    try {
      return new Simulation(scenario, options, snapshot)
    } catch (error) {
      throw new SnapshotRefused(error instanceof Error ? error.message : String(error), { cause: error })
    }
  }

  /**
   * The simulation's state now, as plain data that shares nothing mutable with it (the log's and
   * outbox's entries are shared: they are never changed in place), for `Simulation.restore`.
   *
   * Answers `undefined` while a task handed to `defer` is still on the agenda (a webhook or
   * notification retry: an effect of the domain, which cannot be data), or while a step's events
   * or tasks have not been handed over; the caller tries again later, e.g. after the next `step`.
   */
  snapshot(): SimulationSnapshot | undefined {
    if (this.deferredCount > 0 || this.due.length > 0 || this.emitted.length > 0) return undefined
    // No `Deferred` entry is left, so every entry is a chain action.
    const agenda = this.agenda.snapshot() as SchedulerSnapshot<ChainAction>
    const wallets = this.wallets.snapshot()
    return {
      version: SIMULATION_SNAPSHOT_VERSION,
      scenario: fingerprintOf(this.seed, this.startMs, wallets.wallets),
      clockMs: this.clockMs,
      nextTickMs: this.nextTickMs,
      nextTrendingMs: this.nextTrendingMs,
      ids: this.idStream.state(),
      agenda,
      log: this.log.snapshot(),
      outbox: this.outbox.snapshot(),
      wallets,
      chain: this.chain.snapshot(),
      market: this.market.snapshot()
    }
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
      const { at, action } = this.agenda.popDue(actionAt)!
      this.clockMs = at
      if (action._tag === "Deferred") {
        this.deferredCount--
        this.due.push(action.task)
      } else {
        this.chain.run(action)
      }
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
    this.agenda.schedule(Math.max(atMs, this.clockMs), { _tag: "Deferred", task })
    this.deferredCount++
  }

  /** A fresh id of the kind, from the seed's id stream. */
  nextId(kind: IdKind): string {
    return idPrefixes[kind] + this.idStream.string(20, BASE62)
  }

  token(length: number): string {
    return this.idStream.string(length, BASE62)
  }
}
