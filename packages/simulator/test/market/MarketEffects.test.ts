// Proves what the rest of the simulator relies on: setPrice and applySwap show in the price, the current candle
// and the 24 h stats by the documented pool rule; stats are consistent (buy + sell == volume, market cap == price
// × supply, networks add up); whales and holders mean something; trending ranks by the documented score and
// filters by network; FX, pool depths and the default calibration match the registry. One shared engine (30 days
// of history, then two live hours); each test measures before and after its own calls.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { currencies, networks, priceRangeUsd, simulatorCatalog, simulatorTokens, trendingScore } from "@swapdesk/core"
import { MarketEngine } from "../../src/market/MarketEngine.ts"
import { defaultFxRates, defaultMarketParams } from "../../src/market/MarketParams.ts"
import { executionImpact, priceAfterSwap, swapToReach } from "../../src/market/PoolImpact.ts"
import { DAY_MS, HOUR_MS, START_MS } from "./fixtures.ts"

const engine = new MarketEngine({ seed: 21, startMs: START_MS })
const backgroundSwaps = engine.tick(START_MS + 2 * HOUR_MS)
const closeTo = (actual: number, expected: number, what: string) =>
  assert.isTrue(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} != ${expected}`
  )
const currentMinute = (symbol: string, network?: "solana" | "ethereum" | "base" | "arbitrum") =>
  engine.candles(symbol, "1m", engine.nowMs - 60_000, engine.nowMs + 1, network).at(-1)!

describe("setPrice", () => {
  it("moves the price exactly, as a swap on the primary pool that the candle and the stats see", () => {
    const before = engine.stats("SOL")
    const candleBefore = currentMinute("SOL")
    const from = engine.priceUsd("SOL")
    const to = from * 1.1
    engine.setPrice("SOL", to, engine.nowMs)
    const implied = engine.poolDepthUsd("SOL", "solana") * (Math.sqrt(1.1) - 1)
    const after = engine.stats("SOL")
    const candle = currentMinute("SOL")
    assert.strictEqual(engine.priceUsd("SOL"), to)
    assert.strictEqual(after.priceUsd.toNumber(), to)
    assert.strictEqual(candle.close, to)
    assert.isAtLeast(candle.high, to)
    closeTo(candle.volumeUsd, candleBefore.volumeUsd + implied, "candle volume")
    closeTo(after.volume24hUsd, before.volume24hUsd + implied, "24 h volume")
    closeTo(after.buyVolume24hUsd, before.buyVolume24hUsd + implied, "buy volume")
    assert.strictEqual(after.whaleActivity.transactions24h, before.whaleActivity.transactions24h + 1)
    closeTo(after.whaleActivity.netFlow24hUsd, before.whaleActivity.netFlow24hUsd + implied, "whale net flow")
    const then = from / (1 + before.change24hPercent / 100)
    closeTo(after.change24hPercent, (to / then - 1) * 100, "24 h change")
    // The walk continues from the new price: one second later it is a few basis points away, not back.
    engine.tick(engine.nowMs + 1_000)
    assert.isBelow(Math.abs(engine.priceUsd("SOL") / to - 1), 0.005)
  })

  it("moves a wrapper and its token together: setting WETH sets ETH", () => {
    engine.setPrice("WETH", 3_333.33, engine.nowMs + 999)
    assert.strictEqual(engine.priceUsd("ETH"), 3_333.33)
    assert.strictEqual(currentMinute("ETH").close, 3_333.33)
  })

  it("can push a stablecoin off its peg, from where it reverts into its band", () => {
    engine.setPrice("USDC", 0.97, engine.nowMs)
    assert.strictEqual(engine.priceUsd("USDC"), 0.97)
    assert.isAbove(engine.stats("USDC").sellVolume24hUsd, 0)
    engine.tick(engine.nowMs + 6 * HOUR_MS)
    assert.isBelow(Math.abs(engine.priceUsd("USDC") - 1), 0.004)
  })

  it("rejects a time outside the current second and a non-positive price", () => {
    assert.throws(() => engine.setPrice("SOL", 100, engine.nowMs - 1), RangeError)
    assert.throws(() => engine.setPrice("SOL", 100, engine.nowMs + 1_000), RangeError)
    assert.throws(() => engine.setPrice("SOL", 0, engine.nowMs), RangeError)
    assert.throws(() => engine.setPrice("NOPE", 1, engine.nowMs), RangeError)
  })
})

describe("applySwap", () => {
  it("moves the price by (1 + V/D)² on that network's pool and books volume, side and whale", () => {
    const value = 500_000
    const depth = engine.poolDepthUsd("BONK", "solana")
    const before = engine.stats("BONK")
    const candleBefore = currentMinute("BONK")
    const price = engine.priceUsd("BONK")
    engine.applySwap({ at: engine.nowMs + 500, symbol: "BONK", network: "solana", side: "buy", valueUsd: value })
    const after = engine.stats("BONK")
    closeTo(engine.priceUsd("BONK"), price * (1 + value / depth) ** 2, "price after the buy")
    closeTo(currentMinute("BONK").volumeUsd, candleBefore.volumeUsd + value, "candle volume")
    assert.strictEqual(currentMinute("BONK").close, engine.priceUsd("BONK"))
    closeTo(after.volume24hUsd, before.volume24hUsd + value, "24 h volume")
    closeTo(after.volume1hUsd, before.volume1hUsd + value, "1 h volume")
    closeTo(after.buyVolume24hUsd, before.buyVolume24hUsd + value, "buy volume")
    closeTo(after.sellVolume24hUsd, before.sellVolume24hUsd, "sell volume")
    assert.strictEqual(after.whaleActivity.transactions24h, before.whaleActivity.transactions24h + 1)
    closeTo(after.whaleActivity.netFlow24hUsd, before.whaleActivity.netFlow24hUsd + value, "whale net flow")
  })

  it("moves the price down by the same rule on a sell, and counts it on its network only", () => {
    const value = 80_000
    const depth = engine.poolDepthUsd("LINK", "arbitrum")
    const onEthereum = engine.stats("LINK", "ethereum")
    const onArbitrum = engine.stats("LINK", "arbitrum")
    const price = engine.priceUsd("LINK")
    engine.applySwap({ at: engine.nowMs, symbol: "LINK", network: "arbitrum", side: "sell", valueUsd: value })
    closeTo(engine.priceUsd("LINK"), price / (1 + value / depth) ** 2, "price after the sell")
    closeTo(engine.stats("LINK", "arbitrum").sellVolume24hUsd, onArbitrum.sellVolume24hUsd + value, "arbitrum sells")
    assert.strictEqual(engine.stats("LINK", "ethereum").volume24hUsd, onEthereum.volume24hUsd)
    assert.strictEqual(
      engine.stats("LINK", "arbitrum").whaleActivity.transactions24h,
      onArbitrum.whaleActivity.transactions24h
    )
  })

  it("keeps a stablecoin inside its band even under a huge swap", () => {
    engine.applySwap({ at: engine.nowMs, symbol: "USDT", network: "base", side: "sell", valueUsd: 200_000_000 })
    assert.isAtLeast(engine.priceUsd("USDT"), 0.996 - 1e-12)
  })

  it("rejects a network without a pool, a time outside the current second, and a negative value; ignores dust", () => {
    const swap = { at: engine.nowMs, symbol: "AERO", network: "base", side: "buy", valueUsd: 10 } as const
    assert.throws(() => engine.applySwap({ ...swap, network: "solana" }), RangeError)
    assert.throws(() => engine.applySwap({ ...swap, at: engine.nowMs + 1_000 }), RangeError)
    assert.throws(() => engine.applySwap({ ...swap, valueUsd: -1 }), RangeError)
    const price = engine.priceUsd("AERO")
    engine.applySwap({ ...swap, valueUsd: 0 })
    assert.strictEqual(engine.priceUsd("AERO"), price)
  })
})

describe("the quotable price range", () => {
  const edges = new MarketEngine({ seed: 22, startMs: START_MS, historyDays: 1 })
  edges.tick(START_MS + HOUR_MS)
  /** Every number in a stats record, a candle list or a ranking (Decimal prices as numbers). */
  const figures = (value: unknown): Array<number> =>
    typeof value === "number"
      ? [value]
      : value !== null && typeof value === "object"
      ? "toNumber" in value && typeof value.toNumber === "function"
        ? [value.toNumber() as number]
        : Object.values(value).flatMap(figures)
      : []

  it("setPrice takes prices in priceRangeUsd, bounds included, and rejects any other", () => {
    for (const price of [1e300, 1.01e12, 9e-13, 1e-300, Number.POSITIVE_INFINITY, Number.NaN]) {
      assert.throws(() => edges.setPrice("USDT", price, edges.nowMs), RangeError, undefined, String(price))
    }
    edges.setPrice("USDT", priceRangeUsd.max, edges.nowMs)
    edges.setPrice("USDT", priceRangeUsd.min, edges.nowMs)
    assert.strictEqual(edges.priceUsd("USDT"), priceRangeUsd.min)
  })

  it("keeps every figure finite and every swapped price in range, between the bounds and under swaps far beyond a pool", () => {
    for (let round = 0; round < 20; round++) {
      edges.setPrice("PYTH", priceRangeUsd.max, edges.nowMs)
      edges.setPrice("PYTH", priceRangeUsd.min, edges.nowMs)
      edges.setPrice("USDT", round % 2 === 0 ? priceRangeUsd.max : priceRangeUsd.min, edges.nowMs)
      const side = round % 2 === 0 ? "buy" : "sell"
      edges.applySwap({ at: edges.nowMs, symbol: "BONK", network: "solana", side, valueUsd: 1e150 })
      const bonk = edges.priceUsd("BONK")
      assert.isTrue(bonk >= priceRangeUsd.min && bonk <= priceRangeUsd.max, `BONK at ${bonk}`)
      edges.tick(edges.nowMs + 60_000)
    }
    edges.recomputeTrending(edges.nowMs)
    for (const symbol of ["PYTH", "USDT", "BONK"]) {
      for (const network of [undefined, ...networks]) {
        if (network !== undefined && !simulatorCatalog.isTradableOn(simulatorCatalog.tokenOf(symbol), network)) continue
        const numbers = [
          ...figures(edges.stats(symbol, network)),
          ...figures(edges.candles(symbol, "1m", edges.nowMs - DAY_MS, edges.nowMs, network))
        ]
        assert.isTrue(
          numbers.every(Number.isFinite),
          `${symbol} ${network}: ${numbers.filter((n) => !Number.isFinite(n))}`
        )
      }
    }
    assert.isTrue(figures(edges.trending()).every(Number.isFinite))
  })
})

describe("tick", () => {
  it("rejects a time before now or not on a whole second", () => {
    assert.throws(() => engine.tick(engine.nowMs - 1_000), RangeError)
    assert.throws(() => engine.tick(engine.nowMs + 1_500), RangeError)
    assert.deepStrictEqual(engine.tick(engine.nowMs), [])
  })

  it("emits heavy-tailed background swaps on every network in proportion to liquidity, whales among them", () => {
    const sizes = backgroundSwaps.map((s) => s.valueUsd).toSorted((a, b) => a - b)
    const median = sizes[Math.floor(sizes.length / 2)]!
    const whales = backgroundSwaps.filter((s) => s.valueUsd >= 100_000)
    console.log(
      `2 h of background: ${backgroundSwaps.length} swaps, median $${median.toFixed(0)}, largest $${
        sizes.at(-1)!.toFixed(0)
      }, ${whales.length} whales`
    )
    assert.isAbove(sizes.at(-1)! / median, 100)
    assert.isAbove(whales.length, 50)
    const usdcByNetwork = networks.map((n) =>
      backgroundSwaps.filter((s) => s.symbol === "USDC" && s.network === n).length
    )
    assert.isTrue(usdcByNetwork.every((count) => count > 0), String(usdcByNetwork))
    assert.isAbove(usdcByNetwork[1]!, usdcByNetwork[2]!) // ethereum's pool is three times base's
    for (const swap of backgroundSwaps) {
      assert.isTrue(simulatorCatalog.isTradableOn(simulatorCatalog.tokenOf(swap.symbol), swap.network))
    }
  })
})

describe("stats", () => {
  it("are consistent for every token, and per network add up to the whole", () => {
    for (const { symbol, circulatingSupply } of defaultMarketParams) {
      const s = engine.stats(symbol)
      const price = engine.priceUsd(symbol)
      assert.strictEqual(s.priceUsd.toNumber(), price, symbol)
      assert.isAbove(s.volume24hUsd, 0, symbol)
      closeTo(s.buyVolume24hUsd + s.sellVolume24hUsd, s.volume24hUsd, `${symbol} buy + sell`)
      assert.strictEqual(s.marketCapUsd, price * circulatingSupply, symbol)
      closeTo(Object.values(s.volumeByNetworkUsd).reduce((a, b) => a + b, 0), s.volume24hUsd, `${symbol} by network`)
      assert.isAbove(s.volume1hUsd, 0, symbol)
      assert.isAbove(s.averageHourlyVolume24hUsd, 0, symbol)
      assert.isAbove(s.holders.count, 0, symbol)
      assert.isTrue(s.holders.top10Percent > 0 && s.holders.top10Percent <= 100, symbol)
      assert.isAtLeast(s.whaleActivity.transactions24h, 0, symbol)
      const perNetwork = Object.keys(s.volumeByNetworkUsd).map((n) =>
        engine.stats(symbol, n as (typeof networks)[number])
      )
      closeTo(perNetwork.reduce((a, p) => a + p.volume24hUsd, 0), s.volume24hUsd, `${symbol} network stats`)
      assert.strictEqual(
        perNetwork.reduce((a, p) => a + p.whaleActivity.transactions24h, 0),
        s.whaleActivity.transactions24h,
        symbol
      )
      for (const p of perNetwork) assert.deepStrictEqual(Object.keys(p.volumeByNetworkUsd).length, 1)
    }
  })

  it("show realistic whale counts and drifting holder figures", () => {
    const sol = engine.stats("SOL")
    const degen = engine.stats("DEGEN")
    console.log(
      `whales in 24 h: SOL ${sol.whaleActivity.transactions24h}, DEGEN ${degen.whaleActivity.transactions24h}`
    )
    assert.isTrue(sol.whaleActivity.transactions24h > 300 && sol.whaleActivity.transactions24h < 5_000)
    assert.isBelow(degen.whaleActivity.transactions24h, 30)
    assert.notStrictEqual(sol.holders.count, 9_800_000)
    assert.isBelow(Math.abs(sol.holders.count / 9_800_000 - 1), 0.01)
  })

  it("compare with the price 24 h earlier", () => {
    const later = new MarketEngine({ seed: 3, startMs: START_MS, historyDays: 2 })
    const earlier = later.candles("AAVE", "1m", START_MS - DAY_MS, START_MS - DAY_MS + 1)[0]!.open
    closeTo(later.stats("AAVE").change24hPercent, (later.priceUsd("AAVE") / earlier - 1) * 100, "change")
  })
})

describe("trending", () => {
  it("ranks every token by score, best first, stamped with the recomputation time", () => {
    engine.recomputeTrending(engine.nowMs)
    const ranking = engine.trending()
    assert.strictEqual(ranking.updatedAt, engine.nowMs)
    assert.sameMembers(ranking.entries.map((e) => e.symbol), defaultMarketParams.map((p) => p.symbol))
    for (let i = 1; i < ranking.entries.length; i++) {
      assert.isAtMost(ranking.entries[i]!.score, ranking.entries[i - 1]!.score)
    }
    for (const entry of ranking.entries) {
      assert.strictEqual(entry.network, simulatorCatalog.tokenOf(entry.symbol).primaryNetwork)
    }
  })

  it("filters a network to the tokens tradable there, scored on that network's trading", () => {
    for (const network of networks) {
      const ranking = engine.trending(network)
      assert.sameMembers(
        ranking.entries.map((e) => e.symbol),
        simulatorTokens.filter((t) => simulatorCatalog.isTradableOn(t, network)).map((t) => t.symbol),
        network
      )
      for (const entry of ranking.entries) {
        assert.strictEqual(entry.network, network)
        closeTo(entry.volume24hUsd, engine.stats(entry.symbol, network).volume24hUsd, `${entry.symbol} on ${network}`)
      }
    }
  })

  it("puts a token that pumps on heavy buying on top", () => {
    const at = engine.nowMs
    engine.setPrice("GMX", engine.priceUsd("GMX") * 1.25, at)
    for (let i = 0; i < 3; i++) {
      engine.applySwap({ at: at + i, symbol: "GMX", network: "arbitrum", side: "buy", valueUsd: 300_000 })
    }
    engine.recomputeTrending(at)
    assert.strictEqual(engine.trending().entries[0]!.symbol, "GMX")
    assert.strictEqual(engine.trending("arbitrum").entries[0]!.symbol, "GMX")
  })

  it("scores by the documented formula", () => {
    const flat = {
      volume1hUsd: 100,
      buyVolume1hUsd: 50,
      averageHourlyVolume24hUsd: 100,
      change24hPercent: 0,
      pegged: false
    }
    assert.strictEqual(trendingScore(flat), 32.5)
    assert.strictEqual(trendingScore({ ...flat, volume1hUsd: 200, buyVolume1hUsd: 150, change24hPercent: -10 }), 87.12)
    assert.strictEqual(trendingScore({ ...flat, volume1hUsd: 25, buyVolume1hUsd: 0 }), 0)
    assert.strictEqual(trendingScore({ ...flat, pegged: true }), 0)
    assert.strictEqual(trendingScore({ ...flat, pegged: true, change24hPercent: 10 }), 63.21)
  })
})

describe("pools, FX and calibration", () => {
  test.prop([
    fc.double({ min: 1e-9, max: 1e6, noNaN: true }),
    fc.double({ min: 0.01, max: 100, noNaN: true }),
    fc.double({ min: 1e3, max: 1e10, noNaN: true })
  ], { seed: 7001, numRuns: 500 })("swapToReach is the inverse of priceAfterSwap", (price, ratio, depth) => {
    const swap = swapToReach(price, price * ratio, depth)
    const reached = priceAfterSwap(price, swap.side, swap.valueUsd, depth)
    assert.isBelow(Math.abs(reached / (price * ratio) - 1), 1e-9)
    assert.isBelow(executionImpact(swap.valueUsd, depth), 1)
  })

  it("reports pool depth from the params, 0 where the token does not trade", () => {
    assert.strictEqual(engine.poolDepthUsd("SOL", "solana"), 900_000_000)
    assert.strictEqual(engine.poolDepthUsd("SOL", "ethereum"), 0)
  })

  it("answers FX rates for every currency, with overrides", () => {
    for (const currency of currencies) assert.strictEqual(engine.fxRate(currency), defaultFxRates[currency])
    assert.strictEqual(engine.fxRate("USD"), 1)
    const custom = new MarketEngine({ seed: 1, startMs: START_MS, historyDays: 1, fxRates: { EUR: 0.9 } })
    assert.strictEqual(custom.fxRate("EUR"), 0.9)
    assert.strictEqual(custom.fxRate("JPY"), defaultFxRates.JPY)
  })

  it("calibrates every registry token once, with pools exactly where the registry has an address", () => {
    assert.isAtLeast(defaultMarketParams.length, 20)
    assert.deepStrictEqual(defaultMarketParams.map((p) => p.symbol), simulatorTokens.map((t) => t.symbol))
    for (const params of defaultMarketParams) {
      const token = simulatorCatalog.tokenOf(params.symbol)
      for (const network of networks) {
        assert.strictEqual(
          (params.liquidityUsd[network] ?? 0) > 0,
          simulatorCatalog.isTradableOn(token, network),
          `${params.symbol} ${network}`
        )
      }
      assert.strictEqual(params.peg !== undefined, token.stablecoin, params.symbol)
    }
  })

  it("rejects a calibration it cannot honour", () => {
    const sol = defaultMarketParams[0]!
    assert.throws(() => new MarketEngine({ seed: 1, startMs: START_MS + 1 }), RangeError)
    assert.throws(() => new MarketEngine({ seed: 1, startMs: START_MS, tokens: [{ ...sol, symbol: "NOPE" }] }))
    assert.throws(() => new MarketEngine({ seed: 1, startMs: START_MS, tokens: [sol, sol] }), RangeError)
    assert.throws(
      () => new MarketEngine({ seed: 1, startMs: START_MS, tokens: [{ ...sol, tracks: "ETH" }] }),
      RangeError
    )
    assert.throws(
      () => new MarketEngine({ seed: 1, startMs: START_MS, tokens: [{ ...sol, liquidityUsd: { base: 1 } }] }),
      RangeError
    )
  })
})
