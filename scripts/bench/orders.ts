/**
 * The limit order watcher benchmark: 100,000 open orders over 50 pairs, none of which the market
 * fills, and how many price ticks a second the watcher keeps up with, against a naive scan of every
 * open order measured on the same ticks in the same run.
 *
 * The orders are stored before the `Orders` use case starts, which indexes them as it would after a
 * restart. Each tick, the market moves (`Simulation.step`, not timed), then the indexed watcher
 * (`Orders.observe`) and the naive scan run on the same prices, each timed. The naive scan is the
 * obvious implementation the index replaces, made as cheap as it can be without an index: it reads
 * the open orders (`OrderRepository.open`), computes each pair's spot rate once per tick, and
 * compares every order's limit price with it.
 *
 * Run alone with `node scripts/bench/orders.ts`, or through `pnpm bench orders`.
 */
import {
  ChannelTransport,
  layerMemoryRepositories,
  limitPriceOf,
  type Network,
  OrderIndex,
  type OrderRecord,
  OrderRepository,
  Orders,
  PriceFeed,
  simulatorCatalog,
  TradeRepository,
  Trades
} from "@swapdesk/core"
import { decodeScenario, layerPorts, SimulationState } from "@swapdesk/simulator"
import { Effect, Layer } from "effect"
import { atLeast, type BenchResult, formatCount, formatRatio, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "orders"
const ORDERS = 100_000
const PAIRS = 50
const ACCOUNT = "acct_bench"

const scenario = decodeScenario({
  seed: 3,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  historyDays: 1,
  accounts: [{ id: ACCOUNT }]
})

/** 50 ordered pairs of distinct tokens on solana and ethereum, in a fixed order. */
const pairs: ReadonlyArray<{ network: Network; tokenIn: string; tokenOut: string }> = (() => {
  const out: Array<{ network: Network; tokenIn: string; tokenOut: string }> = []
  const lists: ReadonlyArray<[Network, ReadonlyArray<string>]> = [
    ["solana", ["SOL", "USDC", "USDT", "BONK", "JUP", "WIF", "RAY"]],
    ["ethereum", ["ETH", "USDC", "WBTC", "LINK", "UNI"]]
  ]
  for (const [network, symbols] of lists) {
    for (const tokenIn of symbols) {
      for (const tokenOut of symbols) {
        if (tokenIn !== tokenOut && out.length < PAIRS) out.push({ network, tokenIn, tokenOut })
      }
    }
  }
  return out
})()

/** Open orders asking 1.5x to 3x the spot rate: the market never reaches them in the benchmark's minutes. */
const Prefill = Layer.effectDiscard(Effect.gen(function*() {
  const repository = yield* OrderRepository
  const feed = yield* PriceFeed
  const sim = yield* SimulationState
  for (let i = 0; i < ORDERS; i++) {
    const pair = pairs[i % pairs.length]!
    const decimalsIn = simulatorCatalog.tokenOf(pair.tokenIn).decimals
    const decimalsOut = simulatorCatalog.tokenOf(pair.tokenOut).decimals
    const spot = (yield* feed.priceUsd(pair.tokenIn)).div(yield* feed.priceUsd(pair.tokenOut))
    const amountIn = 10n ** BigInt(decimalsIn)
    const factor = 1.5 + (i % 1000) / 666
    const minAmountOut = BigInt(spot.mul(factor).mul(10 ** decimalsOut).floor().toFixed(0)) + 1n
    const order: OrderRecord = {
      id: `ord_bench${String(i).padStart(6, "0")}`,
      accountId: ACCOUNT,
      status: "pending",
      ...pair,
      amountIn,
      minAmountOut,
      walletAddress: "bench",
      signer: "bench",
      signature: "bench",
      createdAt: sim.startMs,
      expiresAt: null,
      tradeId: null,
      closedAt: null
    }
    yield* repository.insert(order)
  }
}))

const world = () => {
  const base = Layer.mergeAll(layerPorts, layerMemoryRepositories).pipe(
    Layer.provideMerge(SimulationState.layer(scenario)),
    Layer.provideMerge(ChannelTransport.layerNone)
  )
  return Orders.layer.pipe(
    Layer.provide(OrderIndex.layer),
    Layer.provideMerge(Trades.layer),
    Layer.provideMerge(Prefill.pipe(Layer.provideMerge(base)))
  )
}

interface Pass {
  readonly indexedMs: number
  readonly naiveMs: number
}

/** Builds a world, then times `ticks` watcher passes both ways. */
const measure = (ticks: number): Promise<Pass> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const orders = yield* Orders
      const repository = yield* OrderRepository
      const feed = yield* PriceFeed
      const sim = yield* SimulationState
      const trades = yield* TradeRepository

      /** The scan the index replaces: every open order against its pair's spot rate. */
      const naivePass = Effect.gen(function*() {
        const spot = new Map<string, number>()
        let reachable = 0
        for (const order of yield* repository.open) {
          const key = `${order.network}:${order.tokenIn}:${order.tokenOut}`
          let rate = spot.get(key)
          if (rate === undefined) {
            rate = (yield* feed.priceUsd(order.tokenIn)).div(yield* feed.priceUsd(order.tokenOut)).toNumber()
            spot.set(key, rate)
          }
          if (limitPriceOf(order, simulatorCatalog) <= rate) reachable++
        }
        return reachable
      })

      let indexedMs = 0
      let naiveMs = 0
      for (let tick = 0; tick < ticks; tick++) {
        const until = sim.now + 1_000
        while (sim.step(until) !== undefined) {
          // The market's own second: not timed.
        }
        sim.settle(until)
        let t0 = performance.now()
        yield* orders.observe(sim.now)
        indexedMs += performance.now() - t0
        t0 = performance.now()
        const reachable = yield* naivePass
        naiveMs += performance.now() - t0
        if (reachable !== 0) {
          throw new Error(`${reachable} orders became fillable: the benchmark no longer measures a quiet market`)
        }
      }
      const fills = (yield* trades.history(ACCOUNT)).length
      if (fills !== 0 || (yield* repository.open).length !== ORDERS) throw new Error("an order filled or closed")
      return { indexedMs, naiveMs }
    }).pipe(Effect.provide(world()))
  )

export interface OrdersOptions {
  /** Measured runs after one warm-up. */
  readonly runs: number
  /** Ticks per run. */
  readonly ticks: number
}

const { measuredRuns, row } = reporter(BENCHMARK)

export const runOrdersBench = async ({ runs, ticks }: OrdersOptions): Promise<BenchResult> => {
  const passes = await measuredRuns(
    runs,
    (warmUp) => measure(warmUp ? Math.min(ticks, 20) : ticks),
    `${formatCount(ORDERS)} orders, ${ticks} ticks`
  )
  const indexed = passes.map((pass) => ticks / (pass.indexedMs / 1_000))
  const naive = passes.map((pass) => ticks / (pass.naiveMs / 1_000))
  const ratio = passes.map((pass) => pass.naiveMs / pass.indexedMs)
  const rows = [
    row(
      `watcher passes/s, ${formatCount(ORDERS)} open orders, ${PAIRS} pairs, none filling`,
      `${formatCount(median(indexed))}/s`
    ),
    row("naive scan passes/s (same ticks, same run)", `${formatCount(median(naive))}/s`),
    row("indexed/naive speed", formatRatio(median(ratio)), { value: median(ratio), target: atLeast(100, ">= 100x") })
  ]
  const notes = [
    `orders: medians of ${runs} runs of ${ticks} one-second ticks after a warm-up; each tick the market steps (not ` +
    "timed), then Orders.observe and the naive scan run on the same prices",
    "naive scan = every open order from OrderRepository.open compared with its pair's spot rate, computed once per pair per tick"
  ]
  return { rows, notes }
}

if (import.meta.main) printResult(await runOrdersBench({ runs: 3, ticks: 200 }))
