// Proves the chain index against a real node (anvil with Uniswap V2): candles, 24 h figures,
// whales and holders equal what the pools' Swap logs and the tokens' balances say (OHLC, volume,
// the gap rule, a token priced through WETH), on SQLite and, when configured, PostgreSQL; a restart
// mid-index resumes with no swap missing or doubled; the market-data layer replaces the live ports'
// spot-only feed and reports the indexed block; a node that does not answer leaves the layer up
// with the failure recorded; each newly indexed swap is told to the domain once; a reorganisation deeper than `confirmations`
// is rolled back to the common ancestor, and a swap that replaced a told one at the same height is
// told while a transaction mined again is not told twice; an RPC that refuses large `eth_getLogs`
// ranges (a local proxy in front of anvil) is indexed completely through smaller ranges; and after a
// restart with the node down, the figures are measured on the last indexed block's time.
import {
  layerMemoryOrderRepository,
  layerMemoryTradeRepository,
  type MarketObservation,
  MarketReactor,
  MoneyDecimal,
  PriceFeed,
  type UsdCandle
} from "@swapdesk/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type Address, encodeFunctionData, erc20Abi, type Hex, parseAbi, parseAbiItem, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest"
import { uniswapV2RouterAbi } from "../../src/devnet/index.ts"
import {
  ChainIndex,
  type ChainIndexerOptions,
  layerChainIndex,
  layerLiveMarketData,
  layerLiveMarketObserver,
  makeIndexedPriceFeed
} from "../../src/indexer/index.ts"
import { layerLivePorts } from "../../src/live/index.ts"
import { makeLivePriceFeed } from "../../src/live/LivePriceFeed.ts"
import { makeLiveState } from "../../src/live/LiveState.ts"
import { liveTokensOf } from "../../src/live/LiveTokens.ts"
import type { LiveConfig } from "../../src/LiveConfig.ts"
import {
  databaseLayer,
  type Fixture,
  fixtureConfig,
  freshDatabase,
  mine,
  startFixture,
  storeKinds,
  swap,
  waitFor
} from "./IndexFixture.ts"

const swapEvent = parseAbiItem(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
)
const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])
const factoryAbi = parseAbi(["function getPair(address, address) view returns (address)"])

let f: Fixture
let config: LiveConfig
/** The first minute of the scripted history, in seconds (a multiple of 5 minutes). */
let t0: number
let link: Address
let usdc: Address
let weth: Address

const fast: ChainIndexerOptions = { pollIntervalMs: 50, retryBaseMs: 50, rpcTimeoutMs: 5_000 }

const indexLayer = (liveConfig: LiveConfig, url: string, options: ChainIndexerOptions = fast) =>
  Layer.effect(
    PriceFeed,
    Effect.gen(function*() {
      const index = yield* ChainIndex
      const spot = makeLivePriceFeed(makeLiveState(liveConfig, []), liveTokensOf(liveConfig))
      return yield* makeIndexedPriceFeed(liveConfig, index, spot, { trendingIntervalMs: 100 })
    })
  ).pipe(Layer.provideMerge(layerChainIndex(liveConfig, options)), Layer.provideMerge(databaseLayer(url)))

const startIndex = (liveConfig: LiveConfig, url: string, options: ChainIndexerOptions = fast) =>
  ManagedRuntime.make(indexLayer(liveConfig, url, options))
type IndexRuntime = ManagedRuntime.ManagedRuntime<ChainIndex | PriceFeed | SqlClient.SqlClient, never>

const indexOf = (runtime: IndexRuntime) =>
  runtime.runPromise(Effect.gen(function*() {
    return yield* ChainIndex
  }))

/** The node's head block, read now (viem's `getBlockNumber` answers from a cache for a few seconds). */
const headNumber = async () => BigInt(await f.owner.request({ method: "eth_blockNumber" as never }) as string)

/** Waits until the index holds every block with `confirmations` on top of the node's head. */
const caughtUp = async (runtime: IndexRuntime, confirmations = 2) => {
  const index = await indexOf(runtime)
  const safe = Number(await headNumber()) - confirmations + 1
  await waitFor(async () => {
    const [status] = await runtime.runPromise(index.networks)
    return status!.indexedBlock !== null && status!.indexedBlock >= safe
  })
}

const pairOf = (a: Address, b: Address) =>
  f.owner.readContract({ address: f.market.uniswap.factory, abi: factoryAbi, functionName: "getPair", args: [a, b] })

/** Every Swap log of the pair up to `toBlock`, as the token's trades: time (ms), side, amounts, block. */
const tradesOf = async (pair: Address, token: Address, toBlock: bigint) => {
  const token0 = await f.owner.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  const logs = await f.owner.getLogs({ address: pair, event: swapEvent, fromBlock: 0n, toBlock })
  const trades = []
  for (const log of logs) {
    const a = log.args
    const isToken0 = token0.toLowerCase() === token.toLowerCase()
    const [tIn, tOut, oIn, oOut] = isToken0
      ? [a.amount0In!, a.amount0Out!, a.amount1In!, a.amount1Out!]
      : [a.amount1In!, a.amount1Out!, a.amount0In!, a.amount0Out!]
    const block = await f.owner.getBlock({ blockNumber: log.blockNumber })
    trades.push({
      at: Number(block.timestamp) * 1000,
      block: log.blockNumber,
      buy: tOut > tIn,
      token: tOut > tIn ? tOut - tIn : tIn - tOut,
      other: oOut > oIn ? oOut - oIn : oIn - oOut
    })
  }
  return trades
}

const n = (d: MoneyDecimal) => Number(d.toFixed())

/** Candles of `[from, to)` computed directly from (time, price, value) trades with section 6's rules. */
const expectedCandles = (
  trades: ReadonlyArray<{ at: number; price: MoneyDecimal; value: MoneyDecimal }>,
  stepMs: number,
  fromMs: number,
  toMs: number
): Array<UsdCandle> => {
  const out: Array<UsdCandle> = []
  let previous: number | undefined
  for (let t = fromMs; t < toMs; t += stepMs) {
    const inside = trades.filter((x) => x.at >= t && x.at < t + stepMs)
    const before = trades.filter((x) => x.at < t)
    if (previous === undefined && before.length > 0) {
      previous = Number(before.at(-1)!.price.toSignificantDigits(40).toFixed())
    }
    if (inside.length === 0) {
      if (previous !== undefined) {
        out.push({ openTime: t, open: previous, high: previous, low: previous, close: previous, volumeUsd: 0 })
      }
      continue
    }
    const prices = inside.map((x) => x.price.toSignificantDigits(40))
    out.push({
      openTime: t,
      open: n(prices[0]!),
      high: n(MoneyDecimal.max(...prices)),
      low: n(MoneyDecimal.min(...prices)),
      close: n(prices.at(-1)!),
      volumeUsd: n(inside.reduce((s, x) => s.add(x.value.toSignificantDigits(40)), new MoneyDecimal(0)))
    })
    previous = n(prices.at(-1)!)
  }
  return out
}

beforeAll(async () => {
  f = await startFixture()
  link = f.market.tokens["LINK"]!.address
  usdc = f.market.tokens["USDC"]!.address
  weth = f.market.uniswap.weth
  config = fixtureConfig(f)
  const latest = Number((await f.owner.getBlock()).timestamp)
  t0 = Math.ceil((latest + 120) / 300) * 300
  // Minute 0: two buys and a sell; minute 1: a sell and WETH's and UNI's trades; minute 2 without
  // swaps (the gap); minute 3: a buy; minute 4: a whale buy.
  await swap(f, usdc, link, parseUnits("1000", 6), t0 + 5)
  await swap(f, link, usdc, parseUnits("50", 18), t0 + 20)
  await swap(f, weth, f.uni, parseUnits("1", 18), t0 + 30)
  await swap(f, usdc, link, parseUnits("300", 6), t0 + 40)
  await swap(f, link, usdc, parseUnits("20", 18), t0 + 70)
  await swap(f, usdc, weth, parseUnits("30000", 6), t0 + 80)
  await swap(f, f.uni, weth, parseUnits("2000", 18), t0 + 90)
  await swap(f, usdc, link, parseUnits("5000", 6), t0 + 200)
  await swap(f, usdc, link, parseUnits("200000", 6), t0 + 260)
  await f.owner.request({ method: "evm_setNextBlockTimestamp" as never, params: [t0 + 330] as never })
  await mine(f, 3)
}, 120_000)

afterAll(async () => {
  await f?.anvil.stop()
})

describe.each(storeKinds)("the index on %s", (kind) => {
  let runtime: IndexRuntime
  beforeAll(async () => {
    runtime = startIndex(config, await freshDatabase(kind))
    await caughtUp(runtime)
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("builds candles equal to the Swap logs: OHLC, USD volume, the gap repeating the close, nothing before the first swap", async () => {
    const head = await headNumber()
    const raw = await tradesOf(await pairOf(link, usdc), link, head)
    expect(raw.length).toBe(6)
    const trades = raw.map((x) => {
      const value = new MoneyDecimal(x.other.toString()).div(1e6)
      return { at: x.at, value, price: value.div(new MoneyDecimal(x.token.toString()).div(1e18)) }
    })
    const from = t0 * 1000 - 3 * 60_000
    const to = t0 * 1000 + 6 * 60_000
    const candles = await runtime.runPromise(PriceFeed.use((feed) => feed.candles("LINK", "1m", from, to)))
    const expected = expectedCandles(trades, 60_000, t0 * 1000, to)
    expect(candles).toEqual(expected)
    expect(candles[0]!.openTime).toBe(t0 * 1000) // the three minutes before the first swap are absent
    expect(candles[2]).toMatchObject({ volumeUsd: 0, open: candles[1]!.close, close: candles[1]!.close })
    const fiveMinutes = await runtime.runPromise(PriceFeed.use((feed) => feed.candles("LINK", "5m", from, to)))
    expect(fiveMinutes).toEqual(expectedCandles(trades, 300_000, t0 * 1000, to))
  })

  it("prices a token without a quote pool through WETH's USD price at its block", async () => {
    const head = await headNumber()
    const wethPair = await pairOf(weth, usdc)
    const wethIsToken0 = (await f.owner.readContract({ address: wethPair, abi: pairAbi, functionName: "token0" }))
      .toLowerCase() === weth.toLowerCase()
    const raw = await tradesOf(await pairOf(f.uni, weth), f.uni, head)
    expect(raw.length).toBe(2)
    const trades = []
    for (const x of raw) {
      const [r0, r1] = await f.owner.readContract({
        address: wethPair,
        abi: pairAbi,
        functionName: "getReserves",
        blockNumber: x.block
      })
      const [w, q] = wethIsToken0 ? [r0, r1] : [r1, r0]
      const wethUsd = new MoneyDecimal(q.toString()).div(1e6).div(new MoneyDecimal(w.toString()).div(1e18))
      const value = new MoneyDecimal(x.other.toString()).div(1e18).mul(wethUsd)
      trades.push({ at: x.at, value, price: value.div(new MoneyDecimal(x.token.toString()).div(1e18)) })
    }
    const candles = await runtime.runPromise(
      PriceFeed.use((feed) => feed.candles("UNI", "1m", t0 * 1000, t0 * 1000 + 2 * 60_000))
    )
    expect(candles).toEqual(expectedCandles(trades, 60_000, t0 * 1000, t0 * 1000 + 2 * 60_000))
  })

  it("gives the 24 h figures, the whale and the holders from the index and the chain", async () => {
    const head = await headNumber()
    const raw = await tradesOf(await pairOf(link, usdc), link, head)
    const value = (x: (typeof raw)[number]) => new MoneyDecimal(x.other.toString()).div(1e6)
    const stats = await runtime.runPromise(PriceFeed.use((feed) => feed.stats("LINK")))
    const total = raw.reduce((s, x) => s.add(value(x)), new MoneyDecimal(0))
    const buys = raw.filter((x) => x.buy).reduce((s, x) => s.add(value(x)), new MoneyDecimal(0))
    expect(stats.volume24hUsd).toBe(total.toNumber())
    expect(stats.buyVolume24hUsd).toBe(buys.toNumber())
    expect(stats.sellVolume24hUsd).toBe(total.sub(buys).toNumber())
    expect(stats.volumeByNetworkUsd).toEqual({ ethereum: total.toNumber() })
    expect(stats.whaleActivity).toEqual({ transactions24h: 1, netFlow24hUsd: 200_000 })
    // History shorter than 24 h: the change is against the first indexed swap.
    const first = value(raw[0]!).div(new MoneyDecimal(raw[0]!.token.toString()).div(1e18))
    expect(stats.change24hPercent).toBeCloseTo(stats.priceUsd.div(first).sub(1).mul(100).toNumber(), 9)
    const supply = await f.owner.readContract({ address: link, abi: erc20Abi, functionName: "totalSupply" })
    expect(stats.marketCapUsd).toBeCloseTo(stats.priceUsd.mul(supply.toString()).div(1e18).toNumber(), 3)
    // LINK is held by the owner and the pool only.
    expect(stats.holders.count).toBe(2)
    expect(stats.holders.top10Percent).toBe(100)
    // Trending is recalculated on its own schedule (100 ms here): the next ranking has the index's figures.
    const trending = () => runtime.runPromise(PriceFeed.use((feed) => feed.trending()))
    // A ranking made while the indexer has not read a head yet (its first step, or a retried one) is
    // stamped with the clock: wait for one made on the head.
    const headTime = Number((await f.owner.getBlock({ blockNumber: await headNumber() })).timestamp) * 1000
    await waitFor(async () => {
      const next = await trending()
      return next.updatedAt === headTime &&
        next.entries.find((e) => e.symbol === "LINK")?.volume24hUsd === total.toNumber()
    })
    const ranking = await trending()
    expect(ranking.entries.map((e) => e.symbol).sort()).toEqual(["ETH", "LINK", "UNI", "USDC", "WETH"])
    expect(ranking.updatedAt).toBe(headTime)
  })
})

/** Every indexed swap's (block hash, log index), in chain order. */
const storedSwaps = (runtime: IndexRuntime) =>
  runtime.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ block_hash: string; log_index: unknown }>`SELECT block_hash, log_index
      FROM swapdesk_index_swaps ORDER BY block_number, log_index`
      return rows.map((r) => `${r.block_hash}:${Number(r.log_index)}`)
    }).pipe(Effect.orDie)
  )

/** Every Swap log of the three pools up to the confirmed head, as (block hash, log index). */
const chainSwaps = async (confirmations = 2) => {
  const safe = (await headNumber()) - BigInt(confirmations) + 1n
  const pairs = [await pairOf(link, usdc), await pairOf(weth, usdc), await pairOf(f.uni, weth)]
  const logs = await f.owner.getLogs({ address: pairs, event: swapEvent, fromBlock: 0n, toBlock: safe })
  return logs.map((l) => `${l.blockHash}:${l.logIndex}`)
}

/** The blocks of the three pools' Swap logs, one entry per swap. */
const chainSwapBlocks = async () => {
  const pairs = [await pairOf(link, usdc), await pairOf(weth, usdc), await pairOf(f.uni, weth)]
  const logs = await f.owner.getLogs({ address: pairs, event: swapEvent, fromBlock: 0n, toBlock: await headNumber() })
  return logs.map((l) => Number(l.blockNumber))
}

/** A JSON-RPC proxy in front of anvil that refuses `eth_getLogs` over the ranges `refuse` names. */
const startProxy = async (refuse: (from: number, to: number) => boolean) => {
  let refused = 0
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (c: Buffer) => chunks.push(c))
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString()
      const call = JSON.parse(body)
      response.setHeader("content-type", "application/json")
      if (call.method === "eth_getLogs" && refuse(Number(call.params[0].fromBlock), Number(call.params[0].toBlock))) {
        refused++
        response.end(JSON.stringify({
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32005, message: "block range is too wide" }
        }))
        return
      }
      const answer = await fetch(f.anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body
      })
      response.end(await answer.text())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refused: () => refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe("a node that does not answer", () => {
  it("leaves the layer up and its reads answering, the failure recorded", async () => {
    const proxy = await startProxy(() => false)
    const url = proxy.url
    await proxy.close()
    // Nothing listens at `url` any more: every call fails.
    const runtime = startIndex(fixtureConfig(f, { rpcUrl: url }), await freshDatabase("sqlite"), {
      ...fast,
      rpcTimeoutMs: 500
    })
    try {
      const index = await indexOf(runtime)
      await waitFor(() => (index.stateOf("ethereum")?.lastError ?? null) !== null)
      expect(await runtime.runPromise(index.networks)).toEqual([
        { network: "ethereum", indexedBlock: null, headBlock: null, lagBlocks: null }
      ])
      const candles = await runtime.runPromise(PriceFeed.use((feed) => feed.candles("LINK", "1m", 0, 60_000)))
      expect(candles).toEqual([])
    } finally {
      await runtime.dispose()
    }
  }, 30_000)
})

describe("layerLiveMarketData", () => {
  it("replaces the live ports' spot-only PriceFeed and reports each network's indexed block and lag", async () => {
    const runtime = ManagedRuntime.make(
      layerLiveMarketData(config, { index: fast }).pipe(
        Layer.provideMerge(layerLivePorts({ config, signers: [] })),
        Layer.provideMerge(Layer.merge(layerMemoryTradeRepository, layerMemoryOrderRepository)),
        Layer.provideMerge(databaseLayer(await freshDatabase("sqlite")))
      )
    )
    try {
      const index = await runtime.runPromise(Effect.gen(function*() {
        return yield* ChainIndex
      }))
      const head = Number(await headNumber())
      await waitFor(async () => (await runtime.runPromise(index.networks))[0]!.indexedBlock === head - 1)
      const [status] = await runtime.runPromise(index.networks)
      expect(status).toEqual({ network: "ethereum", indexedBlock: head - 1, headBlock: head, lagBlocks: 1 })
      const candles = await runtime.runPromise(
        PriceFeed.use((feed) => feed.candles("LINK", "1m", t0 * 1000, t0 * 1000 + 60_000))
      )
      expect(candles).toHaveLength(1)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})

describe("layerLiveMarketObserver", () => {
  it("tells the domain each newly indexed swap once, with the tokens' current prices, at head block time", async () => {
    // The domain's side of the port, recording what it is told.
    const observations: Array<{ observation: MarketObservation; link: number }> = []
    const reactor = Layer.succeed(MarketReactor, {
      onTradeEvent: () => Effect.void,
      onMarket: (observation) =>
        Effect.sync(() => observations.push({ observation, link: observation.prices.priceUsd("LINK") }))
    })
    const url = await freshDatabase("sqlite")
    const first = startIndex(config, url)
    await caughtUp(first)
    await first.dispose()
    // Started on an index that has caught up: what it held before is not told again.
    const runtime = ManagedRuntime.make(
      layerLiveMarketObserver(config, { intervalMs: 50 }).pipe(
        Layer.provideMerge(indexLayer(config, url)),
        Layer.provide(reactor)
      )
    )
    try {
      await caughtUp(runtime)
      await swap(f, usdc, link, parseUnits("250000", 6))
      await mine(f, 2)
      await waitFor(() => observations.some((o) => o.observation.swaps.length > 0))
      const swaps = observations.flatMap((o) => o.observation.swaps)
      expect(swaps).toHaveLength(1)
      expect(swaps[0]).toMatchObject({ symbol: "LINK", network: "ethereum", side: "buy", valueUsd: 250_000 })
      const told = observations.find((o) => o.observation.swaps.length > 0)!
      const head = await f.owner.getBlock({ blockNumber: await headNumber() })
      expect(told.observation.at).toBeLessThanOrEqual(Number(head.timestamp) * 1000)
      expect(told.observation.at).toBeGreaterThanOrEqual(swaps[0]!.at)
      const spot = await runtime.runPromise(PriceFeed.use((feed) => feed.priceUsd("LINK")))
      expect(observations.at(-1)!.link).toBe(spot.toNumber())
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})

describe("resuming and correcting the index", () => {
  it("resumes after a restart mid-index without a missing or doubled swap", async () => {
    const url = await freshDatabase("sqlite")
    // The first run's node answers logs up to the block of the fifth swap only: it stops midway.
    const [, , , , fifth] = await chainSwapBlocks()
    const proxy = await startProxy((_, to) => to > fifth!)
    const first = startIndex(fixtureConfig(f, { rpcUrl: proxy.url }), url, { ...fast, initialRangeBlocks: 1 })
    const index = await indexOf(first)
    await waitFor(async () => (await first.runPromise(index.networks))[0]!.indexedBlock === fifth)
    const stopped = (await storedSwaps(first)).length
    await first.dispose()
    await proxy.close()
    expect(stopped).toBe(5)
    const second = startIndex(config, url)
    await caughtUp(second)
    expect(await storedSwaps(second)).toEqual(await chainSwaps())
    await second.dispose()
  }, 60_000)

  it("indexes completely through an RPC that refuses eth_getLogs ranges over 3 blocks", async () => {
    const proxy = await startProxy((from, to) => to - from + 1 > 3)
    const proxied = fixtureConfig(f, { rpcUrl: proxy.url })
    const runtime = startIndex(proxied, await freshDatabase("sqlite"), { ...fast, initialRangeBlocks: 64 })
    try {
      await caughtUp(runtime)
      expect(proxy.refused()).toBeGreaterThan(0)
      expect(await storedSwaps(runtime)).toEqual(await chainSwaps())
    } finally {
      await runtime.dispose()
      await proxy.close()
    }
  }, 60_000)

  describe.each(storeKinds)("on %s", (kind) => {
    it("rolls back a reorganisation deeper than confirmations to the common ancestor", async () => {
      const runtime = startIndex(config, await freshDatabase(kind))
      try {
        await caughtUp(runtime)
        const before = await storedSwaps(runtime)
        await swap(f, usdc, link, parseUnits("700", 6))
        await swap(f, link, usdc, parseUnits("10", 18))
        await mine(f, 3)
        await caughtUp(runtime)
        expect((await storedSwaps(runtime)).length).toBe(before.length + 2)
        const volumeWith = (await runtime.runPromise(PriceFeed.use((feed) => feed.stats("LINK")))).volume24hUsd
        // The last 5 blocks (both new swaps and the 3 empty blocks) are replaced by 5 empty ones.
        await f.owner.request({ method: "anvil_reorg" as never, params: [5, []] as never })
        await mine(f, 1)
        await waitFor(async () => (await storedSwaps(runtime)).length === before.length)
        await caughtUp(runtime)
        expect(await storedSwaps(runtime)).toEqual(await chainSwaps())
        const volumeAfter = (await runtime.runPromise(PriceFeed.use((feed) => feed.stats("LINK")))).volume24hUsd
        expect(volumeAfter).toBeLessThan(volumeWith)
      } finally {
        await runtime.dispose()
      }
    }, 60_000)
  })
})

/** A router transaction of the owner, signed with `nonce`, sent by nobody yet. */
const signed = async (data: Hex, nonce: number) =>
  f.owner.signTransaction(
    await f.owner.prepareTransactionRequest({ to: f.market.uniswap.router, data, nonce, gas: 300_000n }) as never
  )

/** The router call swapping `amountIn` of `from` into `to` for the owner. */
const swapData = (from: Address, to: Address, amountIn: bigint) =>
  encodeFunctionData({
    abi: uniswapV2RouterAbi,
    functionName: "swapExactTokensForTokens",
    args: [amountIn, 0n, [from, to], f.owner.account.address, 2n ** 40n]
  })

describe("what the index tells and measures after a reorganisation or a restart", () => {
  it("tells a swap that replaced a told one at the same height, and a transaction mined again once", async () => {
    const observations: Array<MarketObservation> = []
    const reactor = Layer.succeed(MarketReactor, {
      onTradeEvent: () => Effect.void,
      onMarket: (observation) => Effect.sync(() => void observations.push(observation))
    })
    const url = await freshDatabase("sqlite")
    const runtime = ManagedRuntime.make(
      layerLiveMarketObserver(config, { intervalMs: 500 }).pipe(
        Layer.provideMerge(indexLayer(config, url)),
        Layer.provide(reactor)
      )
    )
    const told = () => observations.flatMap((o) => o.swaps)
    try {
      await caughtUp(runtime)
      const nonce = await f.owner.getTransactionCount({ address: f.owner.account.address, blockTag: "pending" })
      const buy = await signed(swapData(usdc, link, parseUnits("300000", 6)), nonce)
      const sell = await signed(swapData(link, usdc, parseUnits("40", 18)), nonce + 1)
      const buyHash = await f.owner.sendRawTransaction({ serializedTransaction: buy })
      // The buy's own block, from its receipt: anvil may answer the send before it has mined the block.
      const height = (await f.owner.waitForTransactionReceipt({ hash: buyHash, pollingInterval: 50 })).blockNumber
      await mine(f, 2)
      await waitFor(() => told().length === 1)
      assert.deepInclude(told()[0]!, { symbol: "LINK", side: "buy", valueUsd: 300_000 })
      // The buy's block and the two on it are replaced by three whose first holds the same buy,
      // mined again, and a sell: the index rolls back and is at the same height again by its next step.
      await f.owner.request({ method: "anvil_reorg" as never, params: [3, [[buy, 0], [sell, 0]]] as never })
      assert.strictEqual(await headNumber(), height + 2n)
      const onChain = await f.owner.getLogs({ address: await pairOf(link, usdc), event: swapEvent, fromBlock: height })
      assert.deepStrictEqual(onChain.map((log) => log.blockNumber), [height, height])
      await waitFor(() => told().length === 2)
      // Another look or two: nothing is told again.
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      assert.deepStrictEqual(told().map((s) => [s.symbol, s.side]), [["LINK", "buy"], ["LINK", "sell"]])
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("measures the figures on the last indexed block's time while the node's head is unknown", async () => {
    const url = await freshDatabase("sqlite")
    // A swap three days ahead of the server's clock: its hour is not the clock's.
    const ahead = Math.max(Number((await f.owner.getBlock()).timestamp), Math.floor(Date.now() / 1000)) + 3 * 86_400
    await swap(f, usdc, link, parseUnits("1000", 6), ahead)
    await mine(f, 2)
    const first = startIndex(config, url)
    await caughtUp(first)
    const volumes = await first.runPromise(PriceFeed.use((feed) => feed.hourlyVolumes("LINK")))
    await first.dispose()
    assert.strictEqual(volumes.volume1hUsd, 1_000)
    // Restarted with the node down: no head read, the index's last block gives "now".
    const proxy = await startProxy(() => false)
    await proxy.close()
    const second = startIndex(fixtureConfig(f, { rpcUrl: proxy.url }), url, { ...fast, rpcTimeoutMs: 500 })
    try {
      const index = await indexOf(second)
      assert.isNull(index.stateOf("ethereum")!.headTime)
      const restarted = await second.runPromise(PriceFeed.use((feed) => feed.hourlyVolumes("LINK")))
      assert.deepStrictEqual(restarted, volumes)
    } finally {
      await second.dispose()
    }
  }, 60_000)
})
