// Proves the market replays from its seed: two engines with the same seed and the same calls give identical
// prices, candles, stats, trending and swaps; different seeds give different markets; ticking a span in one call
// or second by second is the same; and no source file of the market reads the wall clock or Math.random.
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { MarketEngine } from "../../src/market/MarketEngine.ts"
import { defaultMarketParams } from "../../src/market/MarketParams.ts"
import { bareRandomWalks } from "../../src/market/PriceProcess.ts"
import { HOUR_MS, MINUTE_MS, START_MS } from "./fixtures.ts"

const HISTORY_DAYS = 3

/** A fixed script of calls: ticks, a price move, a whale and a user's sell, then more ticks. */
const run = (seed: string | number) => {
  const engine = new MarketEngine({ seed, startMs: START_MS, historyDays: HISTORY_DAYS })
  const swaps = [...engine.tick(START_MS + HOUR_MS)]
  engine.setPrice("SOL", 151.25, engine.nowMs)
  engine.applySwap({ at: engine.nowMs + 400, symbol: "BONK", network: "solana", side: "buy", valueUsd: 750_000 })
  swaps.push(...engine.tick(START_MS + HOUR_MS + 90_000))
  engine.applySwap({ at: engine.nowMs, symbol: "ETH", network: "base", side: "sell", valueUsd: 42_000 })
  swaps.push(...engine.tick(START_MS + 2 * HOUR_MS))
  engine.recomputeTrending(engine.nowMs)
  return { engine, swaps }
}

/** Everything observable about a market, as plain data. */
const snapshot = (engine: MarketEngine) =>
  defaultMarketParams.map(({ symbol }) => ({
    price: engine.priceUsd(symbol),
    candles: engine.candles(symbol, "5m", engine.historyStartMs, engine.nowMs + 1),
    stats: { ...engine.stats(symbol), priceUsd: engine.stats(symbol).priceUsd.toString() },
    trending: engine.trending()
  }))

describe("determinism", () => {
  const first = run(42)
  const second = run(42)

  it("replays identically with the same seed and calls", () => {
    assert.deepStrictEqual(second.swaps, first.swaps)
    assert.deepStrictEqual(snapshot(second.engine), snapshot(first.engine))
    assert.isAbove(first.swaps.length, 100)
  })

  it("returns swaps in time order within the ticked span", () => {
    for (let i = 1; i < first.swaps.length; i++) assert.isAtLeast(first.swaps[i]!.at, first.swaps[i - 1]!.at)
    assert.isAbove(first.swaps[0]!.at, START_MS)
    assert.isAtMost(first.swaps.at(-1)!.at, START_MS + 2 * HOUR_MS)
  })

  it("gives a different market for a different seed", () => {
    const other = run(43)
    assert.notDeepEqual(other.swaps, first.swaps)
    for (const { symbol } of defaultMarketParams) {
      const a = first.engine.candles(symbol, "1h", first.engine.historyStartMs, START_MS)
      const b = other.engine.candles(symbol, "1h", other.engine.historyStartMs, START_MS)
      assert.notDeepEqual(a, b, symbol)
    }
  })

  it("is the same whether a span is ticked at once or second by second", () => {
    const whole = new MarketEngine({ seed: "split", startMs: START_MS, historyDays: 1 })
    const pieces = new MarketEngine({ seed: "split", startMs: START_MS, historyDays: 1 })
    const end = START_MS + 10 * MINUTE_MS
    const wholeSwaps = whole.tick(end)
    const pieceSwaps = []
    for (let t = START_MS + 1_000; t <= end; t += 1_000) pieceSwaps.push(...pieces.tick(t))
    assert.deepStrictEqual(pieceSwaps, wholeSwaps)
    assert.deepStrictEqual(snapshot(pieces), snapshot(whole))
  })

  it("answers the same checksum from the bare random walks for the same seed, another for another", () => {
    assert.strictEqual(bareRandomWalks(5, defaultMarketParams, 600), bareRandomWalks(5, defaultMarketParams, 600))
    assert.notStrictEqual(bareRandomWalks(5, defaultMarketParams, 600), bareRandomWalks(6, defaultMarketParams, 600))
  })

  it("never reads the wall clock or Math.random in the market's source", () => {
    const directory = join(import.meta.dirname, "../../src/market")
    const forbidden = /Date\.now\(|new Date\(\s*\)|performance\.now\(|Math\.random\(|setTimeout\(|setInterval\(/
    for (const file of readdirSync(directory)) {
      const source = readFileSync(join(directory, file), "utf8")
      assert.isNull(forbidden.exec(source), `${file} reads the wall clock or Math.random`)
    }
  })
})
