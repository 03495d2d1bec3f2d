// Proves the replay of real candles (the scenario key `history`) by fast-check (pinned seeds) over
// generated candle files, JSON and CSV, of 1-, 5- and 60-minute candles with gaps, starting the
// market somewhere inside each: every 1m chart candle over a 1-minute file equals its source, before
// and after the start; in a gap and after the file's end the price goes on from the last close; the
// path never leaves a candle's [low, high] at any second, opens at `open`
// and closes at `close`; a coarser file's candles are the aggregation of the market's 1m candles;
// every chart candle of every timeframe obeys the OHLC bounds; one seed replays byte for byte; a
// file with one fault (high below the body, low above it, a non-positive price, a timestamp out of
// order) is refused naming the file, the line or index, and the fault; and a price alert set
// between two historical prices fires in the minute where the path first crosses it.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Alerts } from "@swapdesk/core"
import { Effect } from "effect"
import { decodeScenario, InvalidScenario } from "../../src/Scenario.ts"
import { Simulation } from "../../src/Simulation.ts"
import { SimulationState } from "../../src/SimulationState.ts"
import { layerSimulator } from "../../src/Simulator.ts"
import { SimulatorControl } from "../../src/SimulatorControl.ts"

const MINUTE_MS = 60_000
/** 2026-01-01T00:00:00Z. */
const T0 = 1_767_225_600_000

type Row = [number, number, number, number, number, number]

/** A candle file: rows of one resolution with gaps, a start inside them, and its layout. */
interface File {
  readonly rows: ReadonlyArray<Row>
  readonly resolutionMinutes: number
  /** Index of the candle the market starts in, and the whole seconds into it. */
  readonly startRow: number
  readonly startOffsetSeconds: number
  readonly layout: "json" | "csv"
  readonly seed: number
}

const candleArb = fc.record({
  move: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
  up: fc.double({ min: 0, max: 0.01, noNaN: true }),
  down: fc.double({ min: 0, max: 0.01, noNaN: true }),
  gap: fc.oneof(fc.constant(0), fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 5 })),
  volume: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5_000, noNaN: true }))
})

const fileArb: fc.Arbitrary<File> = fc.record({
  candles: fc.array(candleArb, { minLength: 2, maxLength: 40 }),
  resolutionMinutes: fc.constantFrom(1, 1, 5, 60),
  startFraction: fc.double({ min: 0, max: 0.999, noNaN: true }),
  startOffset: fc.nat(59),
  price: fc.double({ min: 0.001, max: 50_000, noNaN: true }),
  layout: fc.constantFrom<"json" | "csv">("json", "csv"),
  seed: fc.nat(1_000)
}).map(({ candles, layout, price, resolutionMinutes, seed, startFraction, startOffset }) => {
  const rows: Array<Row> = []
  let time = T0 - 10 * resolutionMinutes * MINUTE_MS
  let close = price
  for (const c of candles) {
    time += c.gap * resolutionMinutes * MINUTE_MS
    const open = close * (1 + c.move / 4)
    close = open * (1 + c.move)
    const high = Math.max(open, close) * (1 + c.up)
    const low = Math.min(open, close) * (1 - c.down)
    rows.push([time, open, high, low, close, c.volume])
    time += resolutionMinutes * MINUTE_MS
  }
  const startRow = Math.floor(startFraction * rows.length)
  return {
    rows,
    resolutionMinutes,
    startRow,
    startOffsetSeconds: resolutionMinutes === 1 ? 0 : startOffset,
    layout,
    seed
  }
})

const text = (rows: ReadonlyArray<Row>, layout: "json" | "csv"): string =>
  layout === "json"
    ? JSON.stringify(rows)
    : ["timestamp,open,high,low,close,volume", ...rows.map((r) => r.join(","))].join("\n") + "\n"

const FILE_NAME = "sol-candles"

/** A scenario replaying SOL from `body`, read through an injected reader from a virtual directory. */
const scenarioOf = (body: string, layout: "json" | "csv", startMs: number, seed: number, extra = {}) =>
  decodeScenario(
    {
      seed,
      historyDays: 1,
      clock: { mode: "manual", start: new Date(startMs).toISOString() },
      history: { SOL: { file: `./${FILE_NAME}.${layout}` } },
      ...extra
    },
    {
      directory: "/virtual/scenarios",
      readFile: (path) => {
        assert.strictEqual(path, `/virtual/scenarios/${FILE_NAME}.${layout}`)
        return body
      }
    }
  )

const startOf = (f: File) => f.rows[f.startRow]![0] + f.startOffsetSeconds * 1_000

/** The simulation of a generated file, advanced to the end of its last candle. */
const replayed = (f: File) => {
  const sim = new Simulation(scenarioOf(text(f.rows, f.layout), f.layout, startOf(f), f.seed))
  const endMs = f.rows[f.rows.length - 1]![0] + f.resolutionMinutes * MINUTE_MS
  return { sim, endMs }
}

const ohlcBounds = (c: { open: number; high: number; low: number; close: number }) =>
  c.low <= Math.min(c.open, c.close) && Math.max(c.open, c.close) <= c.high && c.low > 0

describe("replaying a candle file", () => {
  test.prop([fileArb], { seed: 16_001, numRuns: 25 })(
    "1m chart candles equal a 1-minute file; a coarser file is the aggregation of them; gaps and the end go on from the last close; all obey OHLC bounds",
    (f) => {
      const { endMs, sim } = replayed(f)
      sim.market.tick(endMs + 2 * MINUTE_MS)
      const first = f.rows[0]![0]
      const minutes = sim.market.candles("SOL", "1m", first, endMs + 2 * MINUTE_MS)
      const byTime = new Map(minutes.map((c) => [c.openTime, c]))
      for (const [time, open, high, low, close] of f.rows) {
        if (f.resolutionMinutes === 1) {
          const c = byTime.get(time)
          assert.isDefined(c, `no 1m candle at ${time}`)
          assert.deepStrictEqual([c!.open, c!.high, c!.low, c!.close], [open, high, low, close])
          continue
        }
        // The file's candle is the aggregation of the market's minutes inside it.
        const inside = minutes.filter((c) => c.openTime >= time && c.openTime < time + f.resolutionMinutes * MINUTE_MS)
        assert.strictEqual(inside.length, f.resolutionMinutes)
        assert.strictEqual(inside[0]!.open, open)
        assert.strictEqual(inside[inside.length - 1]!.close, close)
        assert.strictEqual(Math.max(...inside.map((c) => c.high)), high)
        assert.strictEqual(Math.min(...inside.map((c) => c.low)), low)
      }
      // Where the file stops (a gap, or its end), the next minute opens at the last close: the model goes on from it.
      const resolutionMs = f.resolutionMinutes * MINUTE_MS
      f.rows.forEach(([time, , , , close], i) => {
        const next = f.rows[i + 1]
        if (next !== undefined && next[0] === time + resolutionMs) return
        assert.strictEqual(byTime.get(time + resolutionMs)?.open, close, `after the candle at ${time}`)
      })
      for (const timeframe of ["1m", "5m", "15m", "1h", "4h", "1d"] as const) {
        for (const c of sim.market.candles("SOL", timeframe, 0, endMs + 1)) {
          assert.isTrue(ohlcBounds(c), `${timeframe} candle at ${c.openTime} breaks the OHLC bounds`)
        }
      }
    }
  )

  test.prop([fileArb], { seed: 16_002, numRuns: 25 })(
    "the price never leaves a candle's [low, high], and opens and closes on the file's figures",
    (f) => {
      const { endMs, sim } = replayed(f)
      const resolutionMs = f.resolutionMinutes * MINUTE_MS
      let row = f.startRow
      for (let at = startOf(f); at < endMs; at += 1_000) {
        if (at > sim.market.nowMs) sim.market.tick(at)
        while (row + 1 < f.rows.length && f.rows[row + 1]![0] <= at) row++
        const [time, open, high, low, close] = f.rows[row]!
        if (at >= time + resolutionMs) continue // a gap: the model's
        const price = sim.market.priceUsd("SOL")
        assert.isTrue(price >= low && price <= high, `${price} outside [${low}, ${high}] at ${at}`)
        if (at === time) assert.strictEqual(price, open)
        if (at === time + resolutionMs - 1_000) assert.strictEqual(price, close)
      }
    }
  )

  test.prop([fileArb], { seed: 16_003, numRuns: 8 })("one seed replays byte for byte", (f) => {
    const run = () => {
      const { endMs, sim } = replayed(f)
      const swaps = sim.market.tick(endMs)
      return JSON.stringify([swaps, sim.market.candles("SOL", "1m", 0, endMs + 1), sim.market.stats("SOL")])
    }
    assert.strictEqual(run(), run())
  })
})

type Fault = "high" | "low" | "price" | "order"

const faultArb = fc.record({
  file: fileArb,
  row: fc.nat(),
  fault: fc.constantFrom<Fault>("high", "low", "price", "order")
})

const expected: Record<Fault, RegExp> = {
  high: /high \S+ is below max\(open, close\)/,
  low: /low \S+ is above min\(open, close\)/,
  price: /open -?\S+ is not a positive price/,
  order: /is not after the previous candle's .* \(timestamps out of order\)/
}

describe("a bad candle file", () => {
  test.prop([faultArb], { seed: 16_004, numRuns: 60 })(
    "is refused naming the file, the line or index, and the fault",
    ({ fault, file, row }) => {
      const rows = file.rows.map((r) => [...r] as Row)
      const k = fault === "order" ? 1 + (row % (rows.length - 1)) : row % rows.length
      const r = rows[k]!
      if (fault === "high") r[2] = Math.max(r[1], r[4]) * 0.99
      if (fault === "low") r[3] = Math.min(r[1], r[4]) * 1.01
      if (fault === "price") r[1] = -r[1]
      if (fault === "order") r[0] = rows[k - 1]![0]
      const error = (() => {
        try {
          scenarioOf(text(rows, file.layout), file.layout, startOf(file), 1)
        } catch (e) {
          return e
        }
        return undefined
      })()
      assert.instanceOf(error, InvalidScenario)
      const issue = (error as InvalidScenario).issues[0]!
      assert.strictEqual(issue.path, "history.SOL.file")
      // JSON rows are indexed from 0; CSV lines count the header as line 1.
      const where = file.layout === "json" ? `index ${k}` : `line ${k + 2}`
      assert.include(issue.message, `/virtual/scenarios/${FILE_NAME}.${file.layout}: ${where}: `)
      assert.match(issue.message, expected[fault])
    }
  )

  it("a start outside the file's range is refused naming the file and its range", () => {
    const rows: Array<Row> = [[T0, 10, 11, 9, 10, 1], [T0 + MINUTE_MS, 10, 11, 9, 10, 1]]
    assert.throws(
      () => scenarioOf(text(rows, "json"), "json", T0 + 2 * MINUTE_MS, 1),
      /history\.SOL\.file: \/virtual\/scenarios\/sol-candles\.json covers 2026-01-01T00:00:00\.000Z to 2026-01-01T00:02:00\.000Z: the clock's start 2026-01-01T00:02:00\.000Z is outside it/
    )
  })

  it("a file that cannot be read, or a CSV with another header, is refused naming it", () => {
    assert.throws(
      () =>
        decodeScenario({ history: { SOL: { file: "missing.csv" } } }, {
          directory: "/nowhere",
          readFile: () => {
            throw new Error("ENOENT: no such file")
          }
        }),
      /history\.SOL\.file: \/nowhere\/missing\.csv cannot be read \(ENOENT: no such file\)/
    )
    assert.throws(
      () => scenarioOf("time,o,h,l,c,v\n", "csv", T0, 1),
      /sol-candles\.csv: line 1: header "time,o,h,l,c,v" is not "timestamp,open,high,low,close,volume"/
    )
  })

  it("WETH cannot be replayed, and a replayed token's price cannot also be configured", () => {
    assert.throws(
      () => decodeScenario({ history: { WETH: { file: "w.json" } } }),
      /history\.WETH: cannot replay WETH: it tracks ETH's price exactly/
    )
    const rows: Array<Row> = [[T0, 10, 11, 9, 10, 1]]
    assert.throws(
      () => scenarioOf(text(rows, "json"), "json", T0, 1, { tokens: [{ symbol: "SOL", priceUsd: 3 }] }),
      /tokens\.0\.priceUsd: cannot be set on SOL: its price comes from history\.SOL\.file/
    )
  })
})

describe("a history token in the world", () => {
  const ACCOUNT = "acct_history"
  /** One-minute candles from T0, rising 1% a minute with 0.2% wicks. */
  const rising: Array<Row> = Array.from({ length: 30 }, (_, i) => {
    const open = 100 * 1.01 ** i
    const close = open * 1.01
    return [T0 + i * MINUTE_MS, open, close * 1.002, open * 0.998, close, 50]
  })
  const world = (rows: ReadonlyArray<Row>) =>
    layerSimulator(scenarioOf(text(rows, "csv"), "csv", T0, 9, {
      accounts: [{ id: ACCOUNT, notifications: { email: "h@example.com" } }]
    }))

  it.effect("a price alert set between two historical prices fires once, in the minute the path first crosses it", () =>
    Effect.gen(function*() {
      const target = 112 // between candle 11's close (~112.7) and candle 10's high (~111.8)
      const alerts = yield* Alerts
      const created = yield* alerts.create(ACCOUNT, {
        type: "price",
        token: "SOL",
        condition: "above",
        targetPrice: target,
        channel: "email"
      })
      const control = yield* SimulatorControl
      yield* control.advance(29 * MINUTE_MS)
      const fired = (yield* control.outbox(0, 10_000)).notifications.filter((n) => n.alertId === created.id)
      assert.strictEqual(fired.length, 1)
      const crossing = rising.find((r) => r[2] >= target)!
      const sentAt = Date.parse(fired[0]!.sentAt)
      assert.isTrue(
        sentAt >= crossing[0] && sentAt < crossing[0] + MINUTE_MS,
        `fired at ${fired[0]!.sentAt}, the path crosses ${target} in the minute from ${
          new Date(crossing[0]).toISOString()
        }`
      )
    }).pipe(Effect.provide(world(rising))))

  it.effect("PUT of its price is refused with PRICE_FROM_HISTORY; a whale is booked but does not move the path", () =>
    Effect.gen(function*() {
      const control = yield* SimulatorControl
      const refused = yield* Effect.flip(control.setPrice("SOL", 5))
      assert.strictEqual(refused._tag, "PriceFromHistory")
      assert.strictEqual(refused.code, "PRICE_FROM_HISTORY")
      // A token named in any case resolves to the replayed one.
      const lowerCase = yield* Effect.flip(control.setPrice("sol", 5))
      assert.strictEqual(lowerCase._tag, "PriceFromHistory")
      yield* control.advance(10_000)
      const sim = yield* SimulationState
      const before = sim.market.priceUsd("SOL")
      const volumeBefore = sim.market.stats("SOL").volume24hUsd
      yield* control.whale("SOL", "solana", 5_000_000)
      assert.strictEqual(sim.market.priceUsd("SOL"), before)
      assert.isAbove(sim.market.stats("SOL").volume24hUsd, volumeBefore + 4_999_999)
      assert.isAtLeast(sim.market.stats("SOL").whaleActivity.transactions24h, 1)
    }).pipe(Effect.provide(world(rising))))
})
