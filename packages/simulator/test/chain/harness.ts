/**
 * Test fixtures for the chain: a fake market with scripted prices and depths, a tiny event loop
 * that hands scheduled actions back to the engine in (time, sequence) order, and a world that wires them to a
 * `ChainEngine` and records everything it emits and logs.
 */
import { type Network, networks, swapOutcome, TradeEvent, tradeTransitions } from "@swapdesk/core"
import { type ChainAction, ChainEngine, type MarketAccess } from "../../src/chain/ChainEngine.ts"
import { defaultNetworkParams, type NetworkParams } from "../../src/chain/NetworkParams.ts"
import { WalletBook, type WalletSpec } from "../../src/chain/WalletBook.ts"
import { Scheduler } from "../../src/Scheduler.ts"

/** 2026-01-01T00:00:00Z, a multiple of every block time. */
export const START = Date.UTC(2026, 0, 1)

export const ONE_SOL = 1_000_000_000n
export const ONE_ETH = 10n ** 18n
export const ONE_USDC = 1_000_000n

export const defaultPrices: Readonly<Record<string, number>> = {
  SOL: 150,
  ETH: 3000,
  USDC: 1,
  BONK: 0.00002,
  JUP: 0.8,
  WBTC: 60_000,
  AERO: 1.2,
  ARB: 0.9
}

/** The tokens each test workload trades on each network. */
export const tokensOn: Readonly<Record<Network, ReadonlyArray<string>>> = {
  solana: ["SOL", "USDC", "BONK", "JUP"],
  ethereum: ["ETH", "USDC", "WBTC"],
  base: ["ETH", "USDC", "AERO"],
  arbitrum: ["ETH", "USDC", "ARB"]
}

export interface AppliedSwap {
  readonly at: number
  readonly symbol: string
  readonly network: Network
  readonly side: "buy" | "sell"
  readonly valueUsd: number
}

/**
 * Prices are scripted with `setPrice`; depths are one dollar figure per token (stablecoins deeper).
 * With `impact` on, an applied swap moves the price along the same constant-product curve the chain
 * prices with, so that trades see each other.
 */
export class FakeMarket implements MarketAccess {
  readonly prices = new Map<string, number>(Object.entries(defaultPrices))
  readonly swaps: Array<AppliedSwap> = []
  readonly depths = new Map<string, number>()
  impact = true
  defaultDepthUsd = 5_000_000

  priceUsd(symbol: string): number {
    const price = this.prices.get(symbol)
    if (price === undefined) throw new Error(`fake market has no price for ${symbol}`)
    return price
  }

  poolDepthUsd(symbol: string, _network: Network): number {
    return this.depths.get(symbol) ?? (symbol === "USDC" ? 500_000_000 : this.defaultDepthUsd)
  }

  setPrice(symbol: string, price: number): void {
    this.prices.set(symbol, price)
  }

  applySwap(swap: AppliedSwap): void {
    this.swaps.push({ ...swap })
    if (!this.impact) return
    const depth = this.poolDepthUsd(swap.symbol, swap.network)
    const factor = swap.side === "buy" ? (depth + swap.valueUsd) / depth : depth / (depth + swap.valueUsd)
    this.prices.set(swap.symbol, this.priceUsd(swap.symbol) * factor)
  }
}

/** A deterministic agenda: hands due actions to `run` in (time, sequence) order as time is advanced. */
export class Loop {
  now: number
  /** Runs a due action: the engine's `run`, once the engine is built. */
  run: (action: ChainAction) => void = () => {
    throw new Error("the loop runs no engine yet")
  }
  /** Called after every action, e.g. to check invariants at every step. */
  afterEach: (() => void) | undefined
  /** Wraps every action, e.g. to compare balances before and after it. */
  around: ((run: () => void) => void) | undefined
  private readonly agenda = new Scheduler<ChainAction>()

  constructor(now: number) {
    this.now = now
  }

  readonly schedule = (at: number, action: ChainAction): void => {
    if (at < this.now) throw new Error(`scheduled at ${at}, before now ${this.now}`)
    this.agenda.schedule(at, action)
  }

  advanceTo(to: number): void {
    for (;;) {
      const due = this.agenda.popDue(to)
      if (due === undefined) break
      this.now = due.at
      if (this.around === undefined) this.run(due.action)
      else this.around(() => this.run(due.action))
      this.afterEach?.()
    }
    this.now = Math.max(this.now, to)
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.now + ms)
  }

  /** Runs everything scheduled, however far ahead. */
  drain(): void {
    for (let next = this.agenda.peekTime(); next !== undefined; next = this.agenda.peekTime()) this.advanceTo(next)
  }

  get pending(): number {
    return this.agenda.size
  }
}

export interface Emitted {
  readonly tradeId: string
  readonly event: TradeEvent
}

export interface Logged {
  readonly at: number
  readonly type: string
  readonly data: Record<string, unknown>
}

export interface WorldOptions {
  readonly seed?: string | number
  readonly start?: number
  readonly wallets: ReadonlyArray<WalletSpec>
  readonly networks?: Partial<Record<Network, Partial<NetworkParams>>>
  readonly market?: FakeMarket
}

/** An engine on a fake market and a loop, recording every emitted event and log line. */
export interface World {
  readonly engine: ChainEngine
  readonly wallets: WalletBook
  readonly market: FakeMarket
  readonly loop: Loop
  readonly emitted: Array<Emitted>
  readonly logs: Array<Logged>
  readonly params: Readonly<Record<Network, NetworkParams>>
}

/** Calm networks (no random losses) unless a test asks otherwise. */
export const makeWorld = (options: WorldOptions): World => {
  const params = Object.fromEntries(
    networks.map((n) => [n, { ...defaultNetworkParams[n], failureRate: 0, ...options.networks?.[n] }])
  ) as Record<Network, NetworkParams>
  const wallets = new WalletBook(options.wallets)
  const market = options.market ?? new FakeMarket()
  const loop = new Loop(options.start ?? START)
  const emitted: Array<Emitted> = []
  const logs: Array<Logged> = []
  const engine = new ChainEngine({
    seed: options.seed ?? 1,
    networks: params,
    wallets,
    market,
    schedule: loop.schedule,
    emit: (tradeId, event) => {
      if (event.at !== loop.now) throw new Error(`event at ${event.at} emitted at ${loop.now}`)
      emitted.push({ tradeId, event })
    },
    log: (at, type, data) => {
      // The log must survive JSON: the simulator serves it over HTTP.
      JSON.stringify(data)
      logs.push({ at, type, data })
    }
  })
  loop.run = (action) => engine.run(action)
  return { engine, wallets, market, loop, emitted, logs, params }
}

export interface TradeArgs {
  readonly tradeId: string
  readonly accountId: string
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: bigint
  readonly slippage?: number
}

/**
 * What the core's use case does before the chain: quote, bound by slippage, reserve, submit.
 * Answers the submit's events, or undefined when the wallet lacks the funds (nothing submitted).
 */
export const startTrade = (world: World, args: TradeArgs): ReadonlyArray<TradeEvent> | undefined => {
  const wallet = world.wallets.wallet(args.accountId, args.network)
  if (wallet === undefined) throw new Error(`no wallet for ${args.accountId} on ${args.network}`)
  const quote = world.engine.quote(args, world.loop.now)
  const { minAmountOut } = swapOutcome(quote.grossOut, args.slippage ?? 0.5)
  const refused = world.wallets.reserve({
    holdId: args.tradeId,
    accountId: args.accountId,
    network: args.network,
    token: args.tokenIn,
    amount: args.amountIn
  })
  if (refused !== undefined) return undefined
  return world.engine.submit({
    tradeId: args.tradeId,
    accountId: args.accountId,
    walletAddress: wallet.address,
    network: args.network,
    tokenIn: args.tokenIn,
    tokenOut: args.tokenOut,
    amountIn: args.amountIn,
    minAmountOut,
    delegatedSigning: wallet.delegatedSigning
  }, world.loop.now)
}

/** Serialises bigints as strings, so runs can be compared as JSON. */
export const toJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))

export const logTypes = (world: World, tradeId?: string): Array<string> =>
  world.logs.filter((l) => tradeId === undefined || l.data["tradeId"] === tradeId).map((l) => l.type)

/** The event narrowed to the kind `tag`; anything else fails the test, naming what it was. */
export const expectEvent = <T extends keyof typeof tradeTransitions>(event: TradeEvent | undefined, tag: T) => {
  const is = TradeEvent.$is(tag)
  if (!is(event)) throw new Error(`expected ${tag}, got ${toJson(event)}`)
  return event
}

/** The kind of an event (its tag), for tables keyed by it. */
export const kindOf = (event: TradeEvent): keyof typeof tradeTransitions => {
  const kinds = Object.keys(tradeTransitions) as Array<keyof typeof tradeTransitions>
  return kinds.find((kind) => TradeEvent.$is(kind)(event))!
}
