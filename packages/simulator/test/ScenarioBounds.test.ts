// Proves that every numeric scenario setting without a natural range has one (`scenarioLimits`, docs/simulator.md):
// a value is accepted exactly when it lies in its range, and one outside is refused with an issue naming the field's
// path and the value (fast-check, pinned seed, values from just past a bound to the largest double); the built-in
// calibration lies inside the ranges; and two worlds with every setting at a bound (one at the upper bounds, one at
// the lower ones, prices at theirs too) run a day of market time, take the largest price swings and whales the
// control routes allow and confirm trades, with every market figure the API serves a finite number. Each world is
// also shown to be refused one step past any of its bounds, so the bounds it runs at are the documented ones.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import {
  currencies,
  MarketData,
  type Network,
  networks,
  simulatorCatalog,
  simulatorTokens,
  type Timeframe,
  toIso,
  Trades
} from "@swapdesk/core"
import { Effect } from "effect"
import { defaultMarketParams } from "../src/market/MarketParams.ts"
import { decodeScenario, InvalidScenario, type ScenarioIssue, scenarioLimits } from "../src/Scenario.ts"
import { SimulationState } from "../src/SimulationState.ts"
import { layerSimulator } from "../src/Simulator.ts"
import { SimulatorControl } from "../src/SimulatorControl.ts"

const DAY_MS = 86_400_000
const START = "2026-01-01T00:00:00Z"
const ACCOUNT = "acct_bounds"

/** A bounded setting: where it lives, its range, and a scenario with `value` there and nothing else. */
interface Bounded {
  readonly path: string
  readonly minimum: number
  readonly maximum: number
  /** The minimum itself is refused (the speed must be greater than 0). */
  readonly exclusiveMinimum?: boolean
  readonly whole?: boolean
  readonly message: RegExp
  readonly scenario: (value: number) => Record<string, unknown>
}

const { annualVolatility, blockTimeMs, rateLimitPerMinute, speed, usd } = scenarioLimits

const bounded: ReadonlyArray<Bounded> = [
  {
    path: "clock.speed",
    minimum: 0,
    maximum: speed.max,
    exclusiveMinimum: true,
    message: /greater than 0 and at most 3600/,
    scenario: (value) => ({ clock: { mode: "realtime", speed: value } })
  },
  ...(["free", "pro", "unauthenticated"] as const).map((plan): Bounded => ({
    path: `rateLimits.${plan}`,
    minimum: rateLimitPerMinute.min,
    maximum: rateLimitPerMinute.max,
    whole: true,
    message: /between 1 and 1000000000 /,
    scenario: (value) => ({ rateLimits: { [plan]: value } })
  })),
  {
    path: "networks.base.blockTimeMs",
    minimum: blockTimeMs.min,
    maximum: blockTimeMs.max,
    whole: true,
    message: /between 1 and 3600000/,
    scenario: (value) => ({ networks: { base: { blockTimeMs: value } } })
  },
  {
    path: "tokens.0.annualVolatility",
    minimum: annualVolatility.min,
    maximum: annualVolatility.max,
    message: /between 0\.0001 and 10/,
    scenario: (value) => ({ tokens: [{ symbol: "SOL", annualVolatility: value }] })
  },
  {
    path: "tokens.0.dailyVolumeUsd",
    minimum: usd.min,
    maximum: usd.max,
    message: /between 1 and 1e12 \(USD\)/,
    scenario: (value) => ({ tokens: [{ symbol: "BONK", dailyVolumeUsd: value }] })
  },
  {
    path: "tokens.0.liquidityUsd.arbitrum",
    minimum: usd.min,
    maximum: usd.max,
    message: /between 1 and 1e12 \(USD\)/,
    scenario: (value) => ({ tokens: [{ symbol: "ETH", liquidityUsd: { arbitrum: value } }] })
  }
]

/** The setting of `bounded` at `path`. */
const settingAt = (path: string): Bounded => bounded.find((setting) => setting.path === path)!

/** Whether `value` lies between the setting's bounds (whole or not). */
const betweenBounds = (setting: Bounded, value: number): boolean =>
  (setting.exclusiveMinimum === true ? value > setting.minimum : value >= setting.minimum) && value <= setting.maximum

/** The issues a scenario is refused with, or undefined when it is accepted. */
const issuesOf = (input: unknown): ReadonlyArray<ScenarioIssue> | undefined => {
  try {
    decodeScenario(input)
    return undefined
  } catch (error) {
    assert.instanceOf(error, InvalidScenario)
    return (error as InvalidScenario).issues
  }
}

/** Asserts the scenario is refused with one issue, at `path`, carrying `value`, shown in the error's message. */
const assertRefused = (input: unknown, path: string, value: number, message?: RegExp) => {
  const issues = issuesOf(input)
  assert.isDefined(issues, `accepted ${path} = ${value}`)
  assert.deepStrictEqual(issues!.map((i) => ({ path: i.path, value: i.value })), [{ path, value }])
  if (message !== undefined) assert.match(issues![0]!.message, message)
  assert.include(new InvalidScenario(issues!).message, `${path}: `)
  assert.include(new InvalidScenario(issues!).message, `(found ${JSON.stringify(value)})`)
}

/** The double next to `x` (> 0) towards +∞ (`direction` 1) or 0 (−1). */
const nextDouble = (x: number, direction: 1 | -1): number => {
  const bits = new BigInt64Array(new Float64Array([x]).buffer)
  bits[0] = bits[0]! + BigInt(direction)
  return new Float64Array(bits.buffer)[0]!
}

/** The nearest values past each bound: one step for a real setting, a whole one for a whole setting. */
const justPast = (setting: Bounded): readonly [number, number] => [
  setting.exclusiveMinimum === true ? setting.minimum : setting.whole === true
    ? setting.minimum - 1
    : nextDouble(setting.minimum, -1),
  setting.whole === true ? setting.maximum + 1 : nextDouble(setting.maximum, 1)
]

/** A finite double for a setting: any at all, near its range, at and just past its bounds, small whole numbers. */
const valueFor = (setting: Bounded) =>
  fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.double({ min: setting.minimum / 2, max: setting.maximum * 2, noNaN: true }),
    fc.constantFrom(...justPast(setting), setting.minimum, setting.maximum, 1e300, -1e300, Number.MIN_VALUE),
    fc.integer({ min: Math.floor(setting.minimum) - 10, max: Math.floor(setting.minimum) + 10 })
  )

const settingAndValue = fc.constantFrom(...bounded).chain((setting) =>
  fc.tuple(fc.constant(setting), valueFor(setting))
)

describe("every numeric scenario setting is bounded", () => {
  test.prop([settingAndValue], { seed: 6001, numRuns: 2000 })(
    "a value is accepted exactly when it lies in its range; one outside is refused naming field and value",
    ([setting, value]) => {
      const scenario = setting.scenario(value)
      if (!betweenBounds(setting, value)) assertRefused(scenario, setting.path, value, setting.message)
      else if (setting.whole === true && !Number.isInteger(value)) {
        assertRefused(scenario, setting.path, value, /whole number/)
      } else assert.isUndefined(issuesOf(scenario), `${setting.path} = ${value} was refused`)
    }
  )

  it("each range lies between the built-in calibration and one step past either bound, which is refused", () => {
    for (const params of defaultMarketParams) {
      const inside = (value: number, setting: Bounded) => assert.isTrue(betweenBounds(setting, value), params.symbol)
      inside(params.annualVolatility, settingAt("tokens.0.annualVolatility"))
      inside(params.dailyVolumeUsd, settingAt("tokens.0.dailyVolumeUsd"))
      for (const depth of Object.values(params.liquidityUsd)) inside(depth, settingAt("tokens.0.liquidityUsd.arbitrum"))
    }
    for (const setting of bounded) {
      for (const past of justPast(setting)) assertRefused(setting.scenario(past), setting.path, past, setting.message)
    }
  })
})

/**
 * Every token at one calibration, with a pool of `poolUsd` on each network it exists on. Stablecoins keep their
 * peg (their price cannot be set), and WETH follows ETH (neither its price nor its volatility can be).
 */
const everyToken = (priceUsd: number, volatility: number, volumeUsd: number, poolUsd: number) =>
  simulatorTokens.map((token) => {
    const calibration = defaultMarketParams.find((p) => p.symbol === token.symbol)
    return {
      symbol: token.symbol,
      ...(calibration?.peg === undefined && calibration?.tracks === undefined ? { priceUsd } : {}),
      ...(calibration?.tracks === undefined ? { annualVolatility: volatility } : {}),
      dailyVolumeUsd: volumeUsd,
      liquidityUsd: Object.fromEntries(
        networks.filter((n) => simulatorCatalog.isTradableOn(token, n)).map((n) => [n, poolUsd])
      )
    }
  })

/**
 * A realtime world (driven through `advanceTo`, as the server's driver does) with every bounded setting at one
 * of its bounds, solana confirming 1000 blocks of 1 ms and ethereum making a block an hour.
 */
const world = (edge: "upper" | "lower") => {
  const upper = edge === "upper"
  return {
    seed: upper ? 11 : 12,
    historyDays: upper ? 90 : 1,
    clock: { mode: "realtime", start: START, speed: upper ? speed.max : Number.MIN_VALUE },
    rateLimits: Object.fromEntries(
      ["free", "pro", "unauthenticated"].map((plan) => [plan, upper ? rateLimitPerMinute.max : rateLimitPerMinute.min])
    ),
    networks: {
      solana: { blockTimeMs: blockTimeMs.min, confirmations: 1000, failureRate: 0 },
      ethereum: { blockTimeMs: blockTimeMs.max, confirmations: 0, failureRate: 0 }
    },
    tokens: upper
      ? everyToken(1e12, annualVolatility.max, usd.max, usd.max)
      : everyToken(1e-12, annualVolatility.min, usd.min, usd.min),
    accounts: [{
      id: ACCOUNT,
      wallets: [
        { network: "solana", address: "BoundsSol", delegatedSigning: true, balances: { SOL: "100", JUP: "100" } },
        { network: "ethereum", address: "0xbounds", delegatedSigning: true, balances: { ETH: "100", LINK: "100" } }
      ]
    }]
  }
}

/** The world with one of its bounded values taken one step further out, for each bound it sits on. */
const pastEdges = (edge: "upper" | "lower") => {
  const past = (path: string) => justPast(settingAt(path))[edge === "upper" ? 1 : 0]
  const network = edge === "upper" ? "ethereum" : "solana"
  const edits: ReadonlyArray<[string, number, (scenario: any, value: number) => void]> = [
    ["clock.speed", past("clock.speed"), (s, v) => (s.clock.speed = v)],
    [`rateLimits.pro`, past("rateLimits.pro"), (s, v) => (s.rateLimits.pro = v)],
    [
      `networks.${network}.blockTimeMs`,
      past("networks.base.blockTimeMs"),
      (s, v) => (s.networks[network].blockTimeMs = v)
    ],
    ["tokens.7.annualVolatility", past("tokens.0.annualVolatility"), (s, v) => (s.tokens[7].annualVolatility = v)],
    ["tokens.0.dailyVolumeUsd", past("tokens.0.dailyVolumeUsd"), (s, v) => (s.tokens[0].dailyVolumeUsd = v)],
    [
      "tokens.3.liquidityUsd.base",
      past("tokens.0.liquidityUsd.arbitrum"),
      (s, v) => (s.tokens[3].liquidityUsd.base = v)
    ]
  ]
  return edits.map(([path, value, edit]) => {
    const scenario = world(edge)
    edit(scenario, value)
    return { path, value, scenario }
  })
}

/** Every number in a value, with where it was found. */
const numbersIn = (value: unknown, path: string, into: Array<[string, number]>): Array<[string, number]> => {
  if (typeof value === "number") into.push([path, value])
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) numbersIn(inner, `${path}.${key}`, into)
  }
  return into
}

/** Reads every market figure the API serves (every token in every currency, candles, trending) and checks it. */
const readEverything = (label: string) =>
  Effect.gen(function*() {
    const market = yield* MarketData
    const sim = yield* SimulationState
    const figures: Array<[string, number]> = []
    const historyStart = toIso(sim.market.historyStartMs)
    for (const token of simulatorTokens) {
      for (const currency of currencies) {
        numbersIn(
          yield* market.snapshot({ token: token.symbol, currency }, true),
          `${token.symbol} ${currency}`,
          figures
        )
      }
      for (const network of networks.filter((n) => simulatorCatalog.isTradableOn(token, n))) {
        numbersIn(yield* market.snapshot({ token: token.symbol, network }, true), `${token.symbol}/${network}`, figures)
      }
      const charts: ReadonlyArray<[Timeframe, string | undefined]> = [["1m", undefined], ["1d", historyStart]]
      for (const [timeframe, from] of charts) {
        const chart = yield* market.chart({
          token: token.symbol,
          timeframe,
          currency: "JPY",
          ...(from === undefined ? {} : { from })
        })
        assert.isAbove(chart.candles.length, 0)
        numbersIn(chart, `${token.symbol} ${timeframe} chart`, figures)
      }
    }
    for (const network of [undefined, ...networks]) {
      const trending = yield* market.trending(network === undefined ? {} : { network })
      numbersIn(trending, `trending ${network ?? "all"}`, figures)
    }
    const notFinite = figures.filter(([, figure]) => !Number.isFinite(figure))
    assert.deepStrictEqual(notFinite, [], `${label}: every market figure is a finite number`)
    assert.isAbove(figures.length, 10_000)
  })

/** Builds the world, runs a day of market time with trades, price swings and whales, and reads everything. */
const runDay = (edge: "upper" | "lower") =>
  Effect.gen(function*() {
    const trades = yield* Trades
    const control = yield* SimulatorControl
    const start = Date.parse(START)
    yield* readEverything(`${edge}: at the start`)
    const solana = yield* trades.create(ACCOUNT, {
      tokenIn: "SOL",
      tokenOut: "JUP",
      amountIn: "0.001",
      network: "solana",
      slippage: 50
    })
    const ethereum = yield* trades.create(ACCOUNT, {
      tokenIn: "ETH",
      tokenOut: "LINK",
      amountIn: "0.001",
      network: "ethereum",
      slippage: 50
    })
    assert.strictEqual(yield* control.advanceTo(start + DAY_MS), start + DAY_MS)
    for (const trade of [solana, ethereum]) {
      const done = yield* trades.get(ACCOUNT, trade.id)
      assert.strictEqual(done.stage, "confirmed", `${trade.network}: ${done.failureReason}`)
      assert.isAbove(Number(done.amountOut), 0)
    }
    yield* readEverything(`${edge}: after a day`)
    // The largest moves the control routes allow: price swings between the price bounds, a 1e12 USD whale.
    for (const symbol of ["SOL", "USDC", "WETH"]) {
      yield* control.setPrice(symbol, 1e-12)
      yield* control.setPrice(symbol, 1e12)
    }
    for (const network of ["solana", "ethereum", "base", "arbitrum"] as ReadonlyArray<Network>) {
      yield* control.whale("USDC", network, 1e12)
    }
    yield* control.whale("BONK", "solana", 1e12)
    yield* readEverything(`${edge}: after the swings`)
    assert.strictEqual(yield* control.advanceTo(start + DAY_MS + 3_600_000), start + DAY_MS + 3_600_000)
    yield* readEverything(`${edge}: an hour after the swings`)
  }).pipe(Effect.provide(layerSimulator(decodeScenario(world(edge)))))

describe("at the bounds, a world runs a day with every market figure finite", () => {
  for (const edge of ["upper", "lower"] as const) {
    it.effect(`every setting at its ${edge} bound`, () =>
      Effect.gen(function*() {
        for (const { path, scenario, value } of pastEdges(edge)) assertRefused(scenario, path, value)
        yield* runDay(edge)
      }), 60_000)
  }
})
