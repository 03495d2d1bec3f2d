// Proves a market snapshot restores the market exactly (docs/simulator.md#snapshots): fast-check drives an
// engine through random ticks, price moves, swaps (some refused), trending recomputations and jumps of days,
// snapshots it at a random point, and restores it four ways: from the snapshot itself once the original has
// moved on (so the snapshot shares nothing with the live engine); from a structuredClone taken after that
// restored engine moved on (so a restore shares nothing with its snapshot); from the snapshot's v8.serialize
// bytes; and from those bytes again, with a second snapshot taken and restored partway through the further
// calls (a restart after a restart). Driven by the same further calls, the restored engines answer every read
// as the original: prices, stats of every scope, hourly volumes, pool depths, trending of every scope, FX, the
// swaps each tick returns, errors, and candles of every timeframe over the whole history. Three markets: the
// demo market (every token); a small one with 43 days of history that rolls minutes up into hours as it
// starts and again a week later, past the snapshot (restored the fourth way only: a week of ticks per engine
// is slow); and one whose SOL is replayed from a file of candles with a gap, ticked through the file, the gap
// and past its end. The snapshot is plain data (walked: no class instance, function or undefined), and a
// config the snapshot was not taken from is refused, naming what differs.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { currencies, type Network, networks, type Timeframe, timeframeMs } from "@swapdesk/core"
import { deserialize, serialize } from "node:v8"
import type { CandleSeries } from "../../src/market/CandleFile.ts"
import { type MarketConfig, MarketEngine, type MarketSnapshot } from "../../src/market/MarketEngine.ts"
import { defaultMarketParams, type TokenMarketParams } from "../../src/market/MarketParams.ts"
import { DAY_MS, HOUR_MS, MINUTE_MS, START_MS } from "./fixtures.ts"

const paramsOf = (symbol: string): TokenMarketParams => defaultMarketParams.find((p) => p.symbol === symbol)!

/** One call on the engine; times are relative to its `nowMs` so that any sequence is valid. */
type Command =
  | { readonly _tag: "tick"; readonly seconds: number }
  /** To a time, or not at all when the market is past it. */
  | { readonly _tag: "tickTo"; readonly atMs: number }
  | { readonly _tag: "setPrice"; readonly token: number; readonly factor: number; readonly offsetMs: number }
  | {
    readonly _tag: "applySwap"
    readonly token: number
    readonly network: Network
    readonly buy: boolean
    readonly valueUsd: number
    readonly offsetMs: number
  }
  | { readonly _tag: "recomputeTrending" }
  | { readonly _tag: "read" }

const commandArb = (tokenCount: number, maxTickSeconds: number): fc.Arbitrary<Command> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ _tag: fc.constant("tick"), seconds: fc.integer({ min: 0, max: 120 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({ _tag: fc.constant("tick"), seconds: fc.integer({ min: 0, max: maxTickSeconds }) })
    },
    {
      weight: 2,
      arbitrary: fc.record({
        _tag: fc.constant("setPrice"),
        token: fc.nat(tokenCount - 1),
        factor: fc.double({ min: 0.8, max: 1.25, noNaN: true }),
        offsetMs: fc.nat(999)
      })
    },
    {
      weight: 3,
      arbitrary: fc.record({
        _tag: fc.constant("applySwap"),
        token: fc.nat(tokenCount - 1),
        network: fc.constantFrom(...networks),
        buy: fc.boolean(),
        valueUsd: fc.oneof(fc.constant(0), fc.double({ min: 1, max: 2_000_000, noNaN: true })),
        offsetMs: fc.nat(999)
      })
    },
    { weight: 1, arbitrary: fc.constant({ _tag: "recomputeTrending" as const }) },
    { weight: 1, arbitrary: fc.constant({ _tag: "read" as const }) }
  )

/** What the engine answers to cheap reads: every token's price, stats and figures, every ranking, FX. */
const observe = (engine: MarketEngine, symbols: ReadonlyArray<string>) => ({
  nowMs: engine.nowMs,
  historyStartMs: engine.historyStartMs,
  minuteHistoryStartMs: engine.minuteHistoryStartMs,
  tokens: symbols.map((symbol) => ({
    symbol,
    replayed: engine.isReplayed(symbol),
    price: engine.priceUsd(symbol),
    stats: [engine.stats(symbol), ...networks.map((network) => engine.stats(symbol, network))],
    hourly: engine.hourlyVolumes(symbol),
    depth: networks.map((network) => engine.poolDepthUsd(symbol, network))
  })),
  trending: [engine.trending(), ...networks.map((network) => engine.trending(network))],
  fx: currencies.map((currency) => engine.fxRate(currency))
})

const timeframes = Object.keys(timeframeMs) as ReadonlyArray<Timeframe>

/**
 * Candles of every timeframe over the whole history, for every token on all its networks and on one,
 * as one column of numbers per list (months of one-minute candles compare fast that way).
 */
const allCandles = (engine: MarketEngine, symbols: ReadonlyArray<string>): ReadonlyArray<Float64Array> =>
  symbols.flatMap((symbol, i) =>
    timeframes.flatMap((timeframe) =>
      [undefined, networks[i % networks.length]].map((network) =>
        Float64Array.from(
          engine.candles(symbol, timeframe, 0, engine.nowMs + DAY_MS, network)
            .flatMap((c) => [c.openTime, c.open, c.high, c.low, c.close, c.volumeUsd])
        )
      )
    )
  )

/** Runs one command, answering what it returned or the error it threw, as text. */
const run = (engine: MarketEngine, symbols: ReadonlyArray<string>, command: Command): string => {
  try {
    switch (command._tag) {
      case "tick":
        return JSON.stringify(engine.tick(engine.nowMs + command.seconds * 1_000))
      case "tickTo":
        return JSON.stringify(engine.tick(Math.max(engine.nowMs, command.atMs)))
      case "setPrice": {
        const symbol = symbols[command.token]!
        engine.setPrice(symbol, engine.priceUsd(symbol) * command.factor, engine.nowMs + command.offsetMs)
        return "set"
      }
      case "applySwap":
        engine.applySwap({
          at: engine.nowMs + command.offsetMs,
          symbol: symbols[command.token]!,
          network: command.network,
          side: command.buy ? "buy" : "sell",
          valueUsd: command.valueUsd
        })
        return "swapped"
      case "recomputeTrending":
        engine.recomputeTrending(engine.nowMs)
        return "recomputed"
      case "read":
        return JSON.stringify(observe(engine, symbols))
    }
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

/** The answers of `commands`, each followed by the cheap reads, and then every candle. */
const drive = (engine: MarketEngine, symbols: ReadonlyArray<string>, commands: ReadonlyArray<Command>) => ({
  answers: commands.map((command) => run(engine, symbols, command) + JSON.stringify(observe(engine, symbols))),
  candles: allCandles(engine, symbols)
})

/** How a restored engine gets its snapshot (see the file's opening comment). */
/**
 * How a restored engine gets its snapshot: the snapshot itself, a structuredClone of it, its v8 bytes,
 * or "twice": from the v8 bytes, driven through the first half of the calls, then snapshotted again and
 * restored from a structuredClone of that for the rest (a restart after a restart).
 */
type Way = "snapshot" | "structuredClone" | "v8" | "twice"

/** The answers of `after` on an engine restored the way `way` says (`restore` checks it at the snapshot point). */
const driveRestored = (
  config: MarketConfig,
  way: Way,
  restore: (snapshot: MarketSnapshot) => MarketEngine,
  snapshot: MarketSnapshot,
  bytes: Buffer,
  symbols: ReadonlyArray<string>,
  after: ReadonlyArray<Command>
) => {
  if (way !== "twice") {
    const copy = way === "snapshot"
      ? snapshot
      : way === "structuredClone"
      ? structuredClone(snapshot)
      : deserialize(bytes)
    return drive(restore(copy), symbols, after)
  }
  const half = after.length >> 1
  const first = restore(deserialize(bytes))
  const firstAnswers = drive(first, symbols, after.slice(0, half)).answers
  const second = MarketEngine.restore(config, structuredClone(first.snapshot()))
  assert.strictEqual(JSON.stringify(observe(second, symbols)), JSON.stringify(observe(first, symbols)))
  const rest = drive(second, symbols, after.slice(half))
  return { answers: [...firstAnswers, ...rest.answers], candles: rest.candles }
}

/**
 * Drives a market through `before`, snapshots it, and checks that the engines restored from the
 * snapshot in each of `ways` answer `after` exactly as the original does. Answers the original's
 * reads at the snapshot point and at the end, for the callers' own checks.
 */
const checkRoundTrip = (
  config: MarketConfig,
  before: ReadonlyArray<Command>,
  after: ReadonlyArray<Command>,
  ways: ReadonlyArray<Way> = ["snapshot", "structuredClone", "v8", "twice"]
): { readonly atSnapshot: ReturnType<typeof observe>; readonly atEnd: ReturnType<typeof observe> } => {
  const symbols = (config.tokens ?? defaultMarketParams).map((p) => p.symbol)
  const original = new MarketEngine(config)
  for (const command of before) run(original, symbols, command)
  const snapshot = original.snapshot()
  const bytes = serialize(snapshot)
  const atSnapshot = observe(original, symbols)
  const expected = drive(original, symbols, after)
  const atEnd = observe(original, symbols)
  const restore = (copy: MarketSnapshot): MarketEngine => {
    const restored = MarketEngine.restore(config, copy)
    assert.strictEqual(JSON.stringify(observe(restored, symbols)), JSON.stringify(atSnapshot))
    return restored
  }

  // In this order: the snapshot itself once the original has moved on, then a clone of it once an
  // engine restored from it has moved on, then the bytes serialised before anything moved.
  for (const way of ways) {
    const driven = driveRestored(config, way, restore, snapshot, bytes, symbols, after)
    driven.answers.forEach((answer, i) => {
      if (answer !== expected.answers[i]) {
        assert.fail(`restored from ${way}: answer ${i} (${JSON.stringify(after[i])}) differs`)
      }
    })
    assert.strictEqual(driven.candles.length, expected.candles.length)
    driven.candles.forEach((candles, i) => {
      const same = Buffer.from(candles.buffer).equals(Buffer.from(expected.candles[i]!.buffer))
      if (!same) assert.fail(`restored from ${way}: candle list ${i} differs`)
    })
  }
  return { atSnapshot, atEnd }
}

/** SOL replayed from 5-minute candles around the start, with a gap of half an hour. */
const replayedSeries = (): CandleSeries => {
  const resolutionMs = 5 * MINUTE_MS
  const times: Array<number> = []
  for (let t = START_MS - 2 * HOUR_MS; t < START_MS + 3 * HOUR_MS; t += resolutionMs) {
    if (t < START_MS + HOUR_MS || t >= START_MS + HOUR_MS + 30 * MINUTE_MS) times.push(t)
  }
  const closes = times.map((_, i) => 150 * (1 + 0.01 * Math.sin(i / 3)))
  const opens = closes.map((_, i) => (i === 0 ? 150 : closes[i - 1]!))
  return {
    openTimeMs: Float64Array.from(times),
    open: Float64Array.from(opens),
    high: Float64Array.from(closes, (close, i) => Math.max(close, opens[i]!) * 1.004),
    low: Float64Array.from(closes, (close, i) => Math.min(close, opens[i]!) * 0.995),
    close: Float64Array.from(closes),
    volume: Float64Array.from(times, (_, i) => (i % 7 === 3 ? 0 : 2_000 + 100 * i)),
    resolutionMs
  }
}
const replayed: MarketConfig = {
  seed: 16,
  startMs: START_MS + 17_000,
  historyDays: 1,
  tokens: [paramsOf("SOL"), paramsOf("ETH"), paramsOf("USDC"), paramsOf("BONK")],
  history: { SOL: replayedSeries() }
}

describe("market snapshots", () => {
  const demo: MarketConfig = { seed: 7, startMs: START_MS, historyDays: 2 }

  test.prop([
    fc.array(commandArb(defaultMarketParams.length, 3 * 3_600), { maxLength: 12 }),
    fc.array(commandArb(defaultMarketParams.length, 3 * 3_600), { maxLength: 12 })
  ], { seed: 15_001, numRuns: 4 })(
    "the demo market restored from a snapshot at a random point answers every later call and read alike",
    (before, after) => {
      checkRoundTrip(demo, before, after)
    }
  )

  // 43 days of history: the minutes of the oldest 13 days are rolled up into hours as the market
  // starts, and the next week's once it has ticked 7 days.
  const small: MarketConfig = {
    seed: "retention",
    startMs: START_MS,
    historyDays: 43,
    tokens: [paramsOf("SOL"), paramsOf("ETH"), paramsOf("WETH"), paramsOf("USDC"), {
      ...paramsOf("ARB"),
      dailyVolumeUsd: 0
    }]
  }

  test.prop([
    fc.array(commandArb(5, 6 * 3_600), { maxLength: 8 }),
    fc.array(commandArb(5, 600), { maxLength: 6 }),
    fc.integer({ min: 0, max: 3_600 }),
    fc.array(commandArb(5, 600), { maxLength: 6 })
  ], { seed: 15_002, numRuns: 2 })(
    "a market restored between two roll-ups of minutes into hours rolls up alike and answers alike",
    (before, middle, pastRollUpSeconds, late) => {
      const toRollUp: Command = { _tag: "tickTo", atMs: START_MS + 7 * DAY_MS + pastRollUpSeconds * 1_000 }
      const { atEnd, atSnapshot } = checkRoundTrip(small, before, [...middle, toRollUp, ...late], ["twice"])
      assert.isAbove(atSnapshot.minuteHistoryStartMs, atSnapshot.historyStartMs)
      assert.isAbove(atEnd.minuteHistoryStartMs, atSnapshot.minuteHistoryStartMs)
    }
  )

  test.prop([
    fc.array(commandArb(4, 5_400), { maxLength: 12 }),
    fc.array(commandArb(4, 5_400), { maxLength: 12 })
  ], { seed: 15_003, numRuns: 6 })(
    "a market replaying a file of candles restored anywhere in the file, a gap or after it answers alike",
    (before, after) => {
      // Always end past the file, so the tail of the replay is compared too.
      checkRoundTrip(replayed, before, [...after, { _tag: "tick", seconds: 4 * 3_600 }])
    }
  )

  it("is plain data: typed arrays, numbers, strings, booleans, null, plain arrays and objects, nothing undefined", () => {
    const market = new MarketEngine(replayed)
    market.tick(replayed.startMs + HOUR_MS)
    const strays: Array<string> = []
    const walk = (value: unknown, path: string): void => {
      if (value === null || ["number", "string", "boolean", "bigint"].includes(typeof value)) return
      if (ArrayBuffer.isView(value)) return
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${path}[${i}]`))
      if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
        for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`)
        return
      }
      strays.push(`${path}: ${typeof value}`)
    }
    walk(market.snapshot(), "snapshot")
    assert.deepStrictEqual(strays, [])
  })

  it("restores a market snapshotted right at its start", () => {
    checkRoundTrip(replayed, [], [{ _tag: "tick", seconds: 90 }])
  })

  it("refuses a config the snapshot was not taken from, naming what differs", () => {
    const snapshot = new MarketEngine(replayed).snapshot()
    const refused = (config: MarketConfig, pattern: RegExp) =>
      assert.throws(() => MarketEngine.restore(config, snapshot), pattern)
    refused({ ...replayed, seed: 17 }, /another config: its seed is "16", the config's "17"/)
    refused({ ...replayed, startMs: replayed.startMs + 1_000 }, /its start is/)
    refused({ ...replayed, historyDays: 2 }, /its start of history is/)
    refused({ ...replayed, tokens: replayed.tokens!.slice(0, 3) }, /its token list is/)
    refused({ ...replayed, history: {} }, /its replayed files/)
    refused({
      ...replayed,
      tokens: [paramsOf("SOL"), paramsOf("ETH"), {
        ...paramsOf("USDC"),
        liquidityUsd: {
          ethereum: 1e7
        }
      }, paramsOf("BONK")]
    }, /its number of pools/)
    const calmerEth = { ...paramsOf("ETH"), annualVolatility: paramsOf("ETH").annualVolatility / 2 }
    refused(
      { ...replayed, tokens: [paramsOf("SOL"), calmerEth, paramsOf("USDC"), paramsOf("BONK")] },
      /its hash of the token params/
    )
    refused({ ...replayed, fxRates: { EUR: 0.5 } }, /its hash of the token params and FX rates/)
    // The same config, built anew, is accepted.
    assert.strictEqual(MarketEngine.restore({ ...replayed }, snapshot).nowMs, replayed.startMs)
  })
})
