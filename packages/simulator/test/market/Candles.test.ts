// Proves the candle rules (docs/reference/http-api.md#market-data) for every timeframe, with
// fast-check over random ranges, timeframes and networks (pinned seeds): alignment to UTC
// multiples, exactly the periods whose open lies in [from, to) between the start of history and the
// current period, OHLC bounds, contiguity (open == previous close), flat zero-volume gap candles,
// and every candle equal to the aggregation of its one-minute candles. Gaps are exercised with a
// token that has no background trading and trades only when a swap is applied.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { type Network, type Timeframe, timeframeMs, timeframes } from "@swapdesk/core"
import { MarketEngine } from "../../src/market/MarketEngine.ts"
import { defaultMarketParams, type TokenMarketParams } from "../../src/market/MarketParams.ts"
import { assertCandleInvariants, DAY_MS, HOUR_MS, MINUTE_MS, START_MS } from "./fixtures.ts"

const paramsOf = (symbol: string): TokenMarketParams => defaultMarketParams.find((p) => p.symbol === symbol)!

/** A busy market: 30 days of history, then 3 h 17 min 23 s of live ticks with a price move and swaps. */
const busy = new MarketEngine({ seed: 11, startMs: START_MS })
busy.tick(START_MS + HOUR_MS)
busy.setPrice("WIF", 0.55, busy.nowMs)
busy.applySwap({ at: busy.nowMs + 250, symbol: "ETH", network: "arbitrum", side: "sell", valueUsd: 3_000_000 })
busy.tick(START_MS + 3 * HOUR_MS + 17 * MINUTE_MS + 23_000)

/** A quiet token: ARB with no background trading, traded only by three applied swaps. */
const quiet = new MarketEngine({
  seed: 12,
  startMs: START_MS,
  historyDays: 2,
  tokens: [paramsOf("SOL"), { ...paramsOf("ARB"), dailyVolumeUsd: 0 }]
})
const quietTrades: ReadonlyArray<
  { readonly minute: number; readonly network: Network; readonly side: "buy" | "sell" }
> = [
  { minute: 10, network: "arbitrum", side: "buy" },
  { minute: 20, network: "ethereum", side: "sell" },
  { minute: 95, network: "arbitrum", side: "sell" }
]
for (const trade of quietTrades) {
  quiet.tick(START_MS + trade.minute * MINUTE_MS + 30_000)
  quiet.applySwap({ at: quiet.nowMs + 10, symbol: "ARB", network: trade.network, side: trade.side, valueUsd: 50_000 })
}
quiet.tick(START_MS + 2 * HOUR_MS + 5_000)

interface Market {
  readonly engine: MarketEngine
  readonly symbol: string
  readonly network: Network | undefined
}

const markets: ReadonlyArray<Market> = [
  { engine: busy, symbol: "SOL", network: undefined },
  { engine: busy, symbol: "ETH", network: undefined },
  { engine: busy, symbol: "ETH", network: "arbitrum" },
  { engine: busy, symbol: "WIF", network: "solana" },
  { engine: busy, symbol: "USDC", network: "base" },
  { engine: busy, symbol: "DEGEN", network: undefined },
  { engine: quiet, symbol: "ARB", network: undefined },
  { engine: quiet, symbol: "ARB", network: "ethereum" },
  { engine: quiet, symbol: "ARB", network: "arbitrum" }
]

const market = fc.constantFrom(...markets)
const timeframe = fc.constantFrom(...timeframes)
/** Any instant from two days before history to two days after now, often aligned to a boundary. */
const instant = (engine: MarketEngine) =>
  fc.oneof(
    fc.integer({ min: engine.historyStartMs - 2 * DAY_MS, max: engine.nowMs + 2 * DAY_MS }),
    fc.integer({
      min: (engine.historyStartMs - 2 * DAY_MS) / MINUTE_MS,
      max: Math.floor((engine.nowMs + 2 * DAY_MS) / MINUTE_MS)
    })
      .map((minute) => minute * MINUTE_MS)
  )
const query = market.chain((m) =>
  fc.record({ market: fc.constant(m), timeframe, from: instant(m.engine), to: instant(m.engine) })
)

/** The open times the contract asks for, computed independently of the engine. */
const expectedOpens = (engine: MarketEngine, tf: Timeframe, from: number, to: number): Array<number> => {
  const period = timeframeMs[tf]
  const opens: Array<number> = []
  const currentOpen = Math.floor(engine.nowMs / period) * period
  for (
    let open = Math.ceil(Math.max(from, engine.historyStartMs) / period) * period;
    open < to && open <= currentOpen;
    open += period
  ) {
    opens.push(open)
  }
  return opens
}

describe("candles", () => {
  test.prop([query], { seed: 6001, numRuns: 300 })(
    "are exactly the aligned periods in [from, to) with data, contiguous, within OHLC bounds, gaps flat",
    ({ market: { engine, network, symbol }, timeframe: tf, from, to }) => {
      const candles = engine.candles(symbol, tf, from, to, network)
      assert.deepStrictEqual(candles.map((c) => c.openTime), expectedOpens(engine, tf, from, to))
      assertCandleInvariants(candles, timeframeMs[tf])
    }
  )

  test.prop([
    market,
    fc.constantFrom(...timeframes.filter((tf) => tf !== "1m")),
    fc.double({ min: 0, max: 1, noNaN: true })
  ], {
    seed: 6002,
    numRuns: 300
  })("equal the aggregation of their one-minute candles", ({ engine, network, symbol }, tf, position) => {
    const period = timeframeMs[tf]
    const first = Math.ceil(engine.historyStartMs / period)
    const last = Math.floor(engine.nowMs / period)
    const open = (first + Math.floor(position * (last - first + 1) * 0.999999)) * period
    const [candle] = engine.candles(symbol, tf, open, open + 1, network)
    const minutes = engine.candles(symbol, "1m", open, open + period, network)
    assert.isDefined(candle)
    assert.deepStrictEqual(candle, {
      openTime: open,
      open: minutes[0]!.open,
      high: Math.max(...minutes.map((m) => m.high)),
      low: Math.min(...minutes.map((m) => m.low)),
      close: minutes.at(-1)!.close,
      volumeUsd: minutes.reduce((sum, m) => sum + m.volumeUsd, 0)
    })
  })

  it("ends with the current, partial period, whose close is the current price", () => {
    for (const tf of timeframes) {
      const last = busy.candles("SOL", tf, busy.nowMs - DAY_MS, busy.nowMs + DAY_MS).at(-1)!
      assert.strictEqual(last.openTime, Math.floor(busy.nowMs / timeframeMs[tf]) * timeframeMs[tf], tf)
      assert.strictEqual(last.close, busy.priceUsd("SOL"), tf)
    }
  })

  it("cover at least 30 days of history at the start", () => {
    const fresh = new MarketEngine({ seed: 1, startMs: START_MS + 123_000 })
    const days = fresh.candles("SOL", "1d", 0, fresh.nowMs + 1)
    assert.isAtMost(fresh.historyStartMs, START_MS + 123_000 - 30 * DAY_MS)
    assert.isAtLeast(days.length, 30)
    assert.strictEqual(fresh.candles("SOL", "1m", 0, fresh.nowMs + 1)[0]!.openTime, fresh.historyStartMs)
  })

  it("print a period without trades flat at the previous close with volume 0, and a traded one moving", () => {
    const minutes = quiet.candles("ARB", "1m", START_MS, quiet.nowMs + 1)
    const traded = new Set(quietTrades.map((t) => t.minute))
    minutes.forEach((candle, i) => {
      if (traded.has(i)) assert.strictEqual(candle.volumeUsd, 50_000, `minute ${i}`)
      else {
        assert.strictEqual(candle.volumeUsd, 0, `minute ${i}`)
        assert.deepStrictEqual([candle.open, candle.high, candle.low], [candle.close, candle.close, candle.close])
      }
    })
    assert.notStrictEqual(minutes[10]!.close, minutes[10]!.open)
    assert.strictEqual(minutes.at(-1)!.close, minutes[95]!.close)
    // On one network, the other network's trade is a gap.
    const onEthereum = quiet.candles("ARB", "1m", START_MS, quiet.nowMs + 1, "ethereum")
    assert.deepStrictEqual(onEthereum.flatMap((c, i) => (c.volumeUsd > 0 ? [i] : [])), [20])
    assert.strictEqual(onEthereum[10]!.close, onEthereum[9]!.close)
    const hourly = quiet.candles("ARB", "1h", START_MS, quiet.nowMs + 1, "arbitrum")
    assert.deepStrictEqual(hourly.map((c) => c.volumeUsd), [50_000, 50_000, 0])
  })

  it("answer nothing for a range before history, after now, or empty", () => {
    assert.lengthOf(busy.candles("SOL", "1h", busy.historyStartMs - 10 * DAY_MS, busy.historyStartMs), 0)
    assert.lengthOf(busy.candles("SOL", "1m", busy.nowMs + MINUTE_MS, busy.nowMs + DAY_MS), 0)
    assert.lengthOf(busy.candles("SOL", "5m", START_MS, START_MS), 0)
    assert.lengthOf(busy.candles("SOL", "5m", START_MS + HOUR_MS, START_MS), 0)
  })
})
