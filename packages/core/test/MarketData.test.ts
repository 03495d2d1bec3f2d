// Proves that market data answers only finite numbers: a price feed that produces an infinite or NaN figure makes the
// request fail as a defect instead of answering a field JSON would write as null. Runs the use cases on a stub feed
// whose figures are finite but for the one under test. Then that a USD record is one object for as long as the feed
// hands out one stats object, and a new one once the figures move.
import { assert, describe, it } from "@effect/vitest"
import { Decimal } from "decimal.js"
import { Cause, Effect, Exit, Layer } from "effect"
import type { MarketStats, TrendingRanking, UsdCandle } from "../src/Market.ts"
import { MarketClock } from "../src/MarketClock.ts"
import { MarketData } from "../src/MarketData.ts"
import { PriceFeed } from "../src/PriceFeed.ts"
import { simulatorTokens } from "../src/SimulatorTokens.ts"
import { TokenRegistry } from "../src/TokenRegistry.ts"
import { T0 } from "./fixtures.ts"

const stats: MarketStats = {
  symbol: "SOL",
  priceUsd: new Decimal(140),
  change24hPercent: 1.5,
  volume24hUsd: 1_000_000,
  marketCapUsd: 70_000_000_000,
  volumeByNetworkUsd: { solana: 1_000_000 },
  buyVolume24hUsd: 600_000,
  sellVolume24hUsd: 400_000,
  holders: { count: 1000, top10Percent: 20 },
  whaleActivity: { transactions24h: 2, netFlow24hUsd: 50_000 },
  volume1hUsd: 40_000,
  averageHourlyVolume24hUsd: 41_000
}
const candle: UsdCandle = { openTime: T0, open: 140, high: 141, low: 139, close: 140.5, volumeUsd: 9_000 }
const ranking: TrendingRanking = {
  updatedAt: T0,
  entries: [{
    symbol: "SOL",
    priceUsd: 140,
    change24hPercent: 1.5,
    volume24hUsd: 1_000_000,
    network: "solana",
    score: 50
  }]
}

/** MarketData on a feed answering the figures above, with `change` applied to them. */
const marketData = (change: {
  readonly stats?: Partial<MarketStats>
  readonly candle?: Partial<UsdCandle>
  readonly trending?: Partial<TrendingRanking["entries"][number]>
}) =>
  MarketData.layer.pipe(
    Layer.provide(Layer.succeed(PriceFeed, {
      priceUsd: () => Effect.succeed(stats.priceUsd),
      stats: () => Effect.succeed({ ...stats, ...change.stats }),
      hourlyVolumes: () => Effect.succeed(stats),
      candles: () => Effect.succeed([{ ...candle, ...change.candle }]),
      trending: () => Effect.succeed({ ...ranking, entries: [{ ...ranking.entries[0]!, ...change.trending }] }),
      fxRate: (currency) => Effect.succeed(new Decimal(currency === "USD" ? 1 : 0.9))
    })),
    Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(T0 + 86_400_000) })),
    Layer.provide(TokenRegistry.layer(simulatorTokens))
  )

const isDefect = <A, E>(exit: Exit.Exit<A, E>) => Exit.isFailure(exit) && Cause.hasDies(exit.cause)

describe("market figures", () => {
  it.effect("a finite feed answers every figure", () =>
    Effect.gen(function*() {
      const market = yield* MarketData
      const snapshot = yield* market.snapshot({ token: "SOL", currency: "EUR" }, true)
      assert.strictEqual(snapshot.volume24h, 900_000)
      assert.strictEqual((yield* market.chart({ token: "SOL", timeframe: "1h" })).candles.length, 1)
      assert.strictEqual((yield* market.trending({})).tokens.length, 1)
    }).pipe(Effect.provide(marketData({}))))

  const broken: ReadonlyArray<
    [string, Parameters<typeof marketData>[0], (market: MarketData["Service"]) => Effect.Effect<unknown, unknown>]
  > = [
    ["an infinite 24 h volume", { stats: { volume24hUsd: Infinity } }, (m) => m.snapshot({ token: "SOL" }, false)],
    ["a NaN change", { stats: { change24hPercent: NaN } }, (m) => m.snapshot({ token: "SOL" }, false)],
    [
      "an infinite holder count",
      { stats: { holders: { count: Infinity, top10Percent: 20 } } },
      (m) => m.snapshot({ token: "SOL" }, true)
    ],
    [
      "an infinite price in another currency",
      { stats: { priceUsd: new Decimal(Infinity) } },
      (m) => m.snapshot({ token: "SOL", currency: "JPY" }, false)
    ],
    [
      "an infinite candle volume",
      { candle: { volumeUsd: Infinity } },
      (m) => m.chart({ token: "SOL", timeframe: "1h" })
    ],
    ["a NaN trending price", { trending: { priceUsd: NaN } }, (m) => m.trending({})]
  ]
  for (const [what, change, read] of broken) {
    it.effect(`${what} fails the request as a defect`, () =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(read(yield* MarketData))
        assert.isTrue(isDefect(exit), String(exit))
      }).pipe(Effect.provide(marketData(change))))
  }
})

describe("USD records between two ticks", () => {
  /** A feed that hands out `current` until the test replaces it, as a market standing still between ticks. */
  let current: MarketStats = stats
  const feed = MarketData.layer.pipe(
    Layer.provide(Layer.succeed(PriceFeed, {
      priceUsd: () => Effect.succeed(current.priceUsd),
      stats: () => Effect.succeed(current),
      hourlyVolumes: () => Effect.succeed(current),
      candles: () => Effect.succeed([candle]),
      trending: () => Effect.succeed(ranking),
      fxRate: (currency) => Effect.succeed(new Decimal(currency === "USD" ? 1 : 0.9))
    })),
    Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(T0) })),
    Layer.provide(TokenRegistry.layer(simulatorTokens))
  )

  it.effect("are one object per stats object and view, and new once the figures move", () =>
    Effect.gen(function*() {
      current = stats
      const market = yield* MarketData
      const basic = yield* market.snapshot({ token: "SOL" }, false)
      const extended = yield* market.snapshot({ token: "SOL" }, true)
      assert.strictEqual(yield* market.snapshot({ token: "SOL", currency: "USD" }, false), basic)
      assert.strictEqual(yield* market.snapshot({ token: "SOL" }, true), extended)
      assert.notStrictEqual(basic, extended)
      assert.isUndefined(basic.extended)
      assert.strictEqual(extended.extended?.buyVolume24h, 600_000)

      current = { ...stats, priceUsd: new Decimal(150) }
      const moved = yield* market.snapshot({ token: "SOL" }, false)
      assert.notStrictEqual(moved, basic)
      assert.strictEqual(moved.price, 150)
      assert.strictEqual(basic.price, 140)
    }).pipe(Effect.provide(feed)))

  it.effect("in another currency are built for each request", () =>
    Effect.gen(function*() {
      current = stats
      const market = yield* MarketData
      const first = yield* market.snapshot({ token: "SOL", currency: "EUR" }, false)
      const second = yield* market.snapshot({ token: "SOL", currency: "EUR" }, false)
      assert.notStrictEqual(first, second)
      assert.deepStrictEqual(first, second)
      assert.strictEqual(first.price, 126)
    }).pipe(Effect.provide(feed)))
})
