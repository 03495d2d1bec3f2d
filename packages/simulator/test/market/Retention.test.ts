// Proves the market's history retention (docs/simulator.md#retention): once a week of whole days
// lies before the 30-day minute window, those days are rolled up into hours and leave the minute
// store, at a time market time alone decides; every candle of an hour or more over the rolled-up
// days reads the same afterwards as before (OHLC exactly, volumes up to the rounding of their sums),
// for a busy market (all networks and one network) and for a token with no trading at all (flat
// candles); candles shorter than an hour are not built before the window; and the whale log keeps
// about two days. Engines built with 36 days of history, so one day of ticking crosses the line.
import { assert, describe, it } from "@effect/vitest"
import { type Network, type Timeframe, timeframeMs } from "@swapdesk/core"
import { MarketEngine } from "../../src/market/MarketEngine.ts"
import { defaultMarketParams, type TokenMarketParams } from "../../src/market/MarketParams.ts"
import { WhaleLog } from "../../src/market/WhaleLog.ts"
import { assertCandleInvariants, DAY_MS, HOUR_MS, MINUTE_MS, START_MS } from "./fixtures.ts"

const paramsOf = (symbol: string): TokenMarketParams => defaultMarketParams.find((p) => p.symbol === symbol)!

const build = () =>
  new MarketEngine({
    seed: 21,
    startMs: START_MS,
    historyDays: 36,
    tokens: [paramsOf("SOL"), paramsOf("ETH"), paramsOf("WETH"), paramsOf("USDC"), {
      ...paramsOf("ARB"),
      dailyVolumeUsd: 0
    }]
  })

const scopes: ReadonlyArray<{ readonly symbol: string; readonly network: Network | undefined }> = [
  { symbol: "SOL", network: undefined },
  { symbol: "ETH", network: undefined },
  { symbol: "ETH", network: "arbitrum" },
  { symbol: "USDC", network: "base" },
  { symbol: "ARB", network: undefined },
  { symbol: "ARB", network: "arbitrum" }
]

const longTimeframes: ReadonlyArray<Timeframe> = ["1h", "4h", "1d"]

describe("history retention", () => {
  const engine = build()
  const historyStart = engine.historyStartMs
  // 1500 candles at most per request, as the API allows: 1h over the first 60 days in two halves.
  const read = (symbol: string, network: Network | undefined, timeframe: Timeframe) => [
    ...engine.candles(symbol, timeframe, historyStart, historyStart + 30 * DAY_MS, network),
    ...engine.candles(symbol, timeframe, historyStart + 30 * DAY_MS, START_MS, network)
  ]
  const before = new Map(
    scopes.flatMap(({ network, symbol }) =>
      longTimeframes.map((timeframe) => [`${symbol}/${network}/${timeframe}`, read(symbol, network, timeframe)])
    )
  )
  const windowAtStart = engine.minuteHistoryStartMs
  const oneMinuteAtStart = engine.candles("SOL", "1m", historyStart, historyStart + HOUR_MS)
  // Ticked a day and a minute: the window's start passes a week after the start of history.
  engine.tick(START_MS + DAY_MS + MINUTE_MS)

  it("keeps every minute until a week of whole days lies before the window, then rolls those days up", () => {
    assert.strictEqual(windowAtStart, historyStart)
    assert.strictEqual(oneMinuteAtStart.length, 60)
    const windowNow = engine.minuteHistoryStartMs
    assert.isAbove(windowNow, historyStart)
    assert.strictEqual(windowNow % DAY_MS, 0)
    assert.isAtMost(windowNow, engine.nowMs - 30 * DAY_MS)
    assert.isAbove(windowNow, engine.nowMs - 31 * DAY_MS)
  })

  it("answers the same candles of an hour or more over the rolled-up days", () => {
    for (const { network, symbol } of scopes) {
      for (const timeframe of longTimeframes) {
        const was = before.get(`${symbol}/${network}/${timeframe}`)!
        const now = read(symbol, network, timeframe)
        const label = `${symbol}/${network ?? "all"} ${timeframe}`
        assert.strictEqual(now.length, was.length, label)
        assert.isAbove(now.length, 0, label)
        for (let i = 0; i < was.length; i++) {
          const a = was[i]!, b = now[i]!
          assert.deepStrictEqual(
            [b.openTime, b.open, b.high, b.low, b.close],
            [a.openTime, a.open, a.high, a.low, a.close],
            `${label} at ${new Date(a.openTime).toISOString()}`
          )
          assert.closeTo(b.volumeUsd, a.volumeUsd, Math.abs(a.volumeUsd) * 1e-12, label)
        }
        assertCandleInvariants(now, timeframeMs[timeframe])
      }
    }
    // ARB has no trading at all: its candles are flat at the price before history, with no volume.
    const arb = read("ARB", undefined, "1d")
    assert.isTrue(arb.every((c) => c.volumeUsd === 0 && c.open === c.close && c.high === c.low))
  })

  it("builds no candle shorter than an hour before the window, and every one after it", () => {
    const windowNow = engine.minuteHistoryStartMs
    for (const timeframe of ["1m", "5m", "15m"] as const) {
      assert.deepStrictEqual(engine.candles("SOL", timeframe, historyStart, windowNow), [], timeframe)
      const after = engine.candles("SOL", timeframe, windowNow - HOUR_MS, windowNow + HOUR_MS)
      assert.strictEqual(after.length, HOUR_MS / timeframeMs[timeframe], timeframe)
      assert.strictEqual(after[0]!.openTime, windowNow, timeframe)
    }
    // An hour candle across the line reads hours, then minutes, contiguously.
    const across = engine.candles("SOL", "1h", windowNow - 3 * HOUR_MS, windowNow + 3 * HOUR_MS)
    assert.strictEqual(across.length, 6)
    assertCandleInvariants(across, HOUR_MS)
  })

  it("rolls up at the same market time and to the same figures on a second engine with the same calls", () => {
    const twin = build()
    twin.tick(START_MS + DAY_MS + MINUTE_MS)
    assert.strictEqual(twin.minuteHistoryStartMs, engine.minuteHistoryStartMs)
    assert.deepStrictEqual(
      twin.candles("ETH", "4h", historyStart, START_MS, "arbitrum"),
      engine.candles("ETH", "4h", historyStart, START_MS, "arbitrum")
    )
    assert.deepStrictEqual(twin.stats("SOL"), engine.stats("SOL"))
  })
})

describe("whale log", () => {
  it("keeps about two days of whales however long it runs, and counts the last 24 h exactly", () => {
    const log = new WhaleLog()
    const summary = { transactions: 0, netFlowUsd: 0 }
    // One whale a minute for 30 days.
    for (let minute = 0; minute < 30 * 1_440; minute++) log.add(minute * MINUTE_MS, 0, minute % 2 === 0 ? 1e5 : -2e5)
    assert.isAtMost(log.length, 4 * 1_440)
    const now = (30 * 1_440 - 1) * MINUTE_MS
    log.summarise(now - DAY_MS, now, -1, summary)
    assert.strictEqual(summary.transactions, 1_440)
    assert.strictEqual(summary.netFlowUsd, 720 * 1e5 - 720 * 2e5)
  })
})
