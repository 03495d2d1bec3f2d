// Proves the price model shows the stylized facts of real crypto returns, measured on the 30-day history a
// market builds at one-minute resolution (seed pinned): no linear autocorrelation of returns, fat tails,
// volatility clustering (absolute returns autocorrelated from 1 to 60 minutes), realised volatility within 20%
// of each token's configured figure, stablecoins within 0.5% of their peg at every minute, WETH equal to ETH;
// and that a day of live one-second ticks looks like the generated history (variance, wicks, volume).
// Prints the measured table so it can be reported.
import { assert, describe, it } from "@effect/vitest"
import { MarketEngine } from "../../src/market/MarketEngine.ts"
import { defaultMarketParams } from "../../src/market/MarketParams.ts"
import { autocorrelation, DAY_MS, excessKurtosis, logReturns, mean, MINUTE_MS, START_MS } from "./fixtures.ts"

const engine = new MarketEngine({ seed: 7, startMs: START_MS })
const history = (symbol: string) => engine.candles(symbol, "1m", engine.historyStartMs, START_MS)
const walking = defaultMarketParams.filter((p) => p.peg === undefined && p.tracks === undefined)
const pegged = defaultMarketParams.filter((p) => p.peg !== undefined)
const MINUTES_PER_YEAR = 365 * 1_440
const CLUSTER_LAGS = [1, 5, 10, 30, 60]

interface Facts {
  readonly symbol: string
  readonly minutes: number
  readonly lag1: number
  readonly excessKurtosis: number
  readonly realisedOverConfigured: number
  readonly absoluteLags: ReadonlyArray<number>
  readonly absoluteMean1to60: number
}

const facts: ReadonlyArray<Facts> = walking.map((params) => {
  const returns = logReturns(history(params.symbol))
  const absolute = returns.map(Math.abs)
  const m = mean(returns)
  const variance = mean(returns.map((r) => (r - m) ** 2))
  let absoluteMean = 0
  for (let lag = 1; lag <= 60; lag++) absoluteMean += autocorrelation(absolute, lag) / 60
  return {
    symbol: params.symbol,
    minutes: returns.length,
    lag1: autocorrelation(returns, 1),
    excessKurtosis: excessKurtosis(returns),
    realisedOverConfigured: Math.sqrt(variance * MINUTES_PER_YEAR) / params.annualVolatility,
    absoluteLags: CLUSTER_LAGS.map((lag) => autocorrelation(absolute, lag)),
    absoluteMean1to60: absoluteMean
  }
})

console.log(
  [
    "token   minutes  lag1 acf  ex.kurt  vol/cfg  |r| acf at 1, 5, 10, 30, 60 min     mean 1-60",
    ...facts.map((f) =>
      [
        f.symbol.padEnd(6),
        String(f.minutes).padStart(8),
        f.lag1.toFixed(4).padStart(9),
        f.excessKurtosis.toFixed(1).padStart(8),
        f.realisedOverConfigured.toFixed(3).padStart(8),
        "  " + f.absoluteLags.map((a) => a.toFixed(3)).join("  "),
        f.absoluteMean1to60.toFixed(3).padStart(9)
      ].join(" ")
    )
  ].join("\n")
)

describe("stylized facts of the 30-day one-minute history", () => {
  it("covers at least 30 days for every token", () => {
    for (const f of facts) assert.isAtLeast(f.minutes, 30 * 1_440, f.symbol)
  })

  it("has no linear autocorrelation: lag-1 autocorrelation of log returns within ±0.05", () => {
    for (const f of facts) assert.isBelow(Math.abs(f.lag1), 0.05, f.symbol)
  })

  it("has fat tails: excess kurtosis above 1", () => {
    for (const f of facts) assert.isAbove(f.excessKurtosis, 1, f.symbol)
  })

  it("clusters volatility: absolute returns positively autocorrelated at lags 1, 5, 10, 30, 60 and on average over 1-60", () => {
    for (const f of facts) {
      f.absoluteLags.forEach((a, i) => assert.isAbove(a, 0, `${f.symbol} at lag ${CLUSTER_LAGS[i]}`))
      assert.isAbove(f.absoluteMean1to60, 0, f.symbol)
    }
  })

  it("realises each token's configured volatility within 20%", () => {
    for (const f of facts) {
      assert.isTrue(Math.abs(f.realisedOverConfigured - 1) < 0.2, `${f.symbol}: ${f.realisedOverConfigured}`)
    }
  })

  it("keeps stablecoins within 0.5% of their peg at every minute (close, high and low)", () => {
    for (const params of pegged) {
      let worst = 0
      for (const candle of history(params.symbol)) {
        for (const price of [candle.close, candle.high, candle.low]) {
          worst = Math.max(worst, Math.abs(price / params.peg! - 1))
        }
      }
      console.log(`${params.symbol}: largest deviation from the peg over 30 days ${(worst * 100).toFixed(4)}%`)
      assert.isAtMost(worst, 0.005, params.symbol)
    }
  })

  it("prices WETH exactly as ETH", () => {
    assert.deepStrictEqual(
      history("WETH").map((c) => [c.open, c.high, c.low, c.close]),
      history("ETH").map((c) => [c.open, c.high, c.low, c.close])
    )
  })

  it("ends history exactly at each token's configured starting price", () => {
    for (const params of defaultMarketParams.filter((p) => p.peg === undefined)) {
      assert.strictEqual(engine.priceUsd(params.symbol), params.priceUsd, params.symbol)
      assert.strictEqual(history(params.symbol).at(-1)!.close, params.priceUsd, params.symbol)
    }
  })

  it("trades each token's configured daily volume on average (30-day mean within 15%)", () => {
    for (const params of defaultMarketParams) {
      const days = engine.candles(params.symbol, "1d", engine.historyStartMs, START_MS)
      const ratio = mean(days.map((d) => d.volumeUsd)) / params.dailyVolumeUsd
      assert.isTrue(Math.abs(ratio - 1) < 0.15, `${params.symbol}: ${ratio}`)
    }
  })
})

describe("a day of live ticks looks like the history", () => {
  const live = new MarketEngine({ seed: 7, startMs: START_MS })
  live.tick(START_MS + DAY_MS)
  /** Per-minute variance in units of the configured one, and mean log range in units of the configured σ. */
  const shape = (symbol: string, fromMs: number, toMs: number) => {
    const params = walking.find((p) => p.symbol === symbol)!
    const sigma = params.annualVolatility / Math.sqrt(MINUTES_PER_YEAR)
    const candles = live.candles(symbol, "1m", fromMs, toMs)
    return {
      variance: mean(logReturns(candles).map((r) => r * r)) / sigma ** 2,
      range: mean(candles.map((c) => Math.log(c.high / c.low))) / sigma
    }
  }
  const historyShapes = walking.map((p) => shape(p.symbol, live.historyStartMs, START_MS))
  const liveShapes = walking.map((p) => shape(p.symbol, START_MS, START_MS + DAY_MS))
  const varianceRatio = mean(liveShapes.map((s) => s.variance)) / mean(historyShapes.map((s) => s.variance))
  const rangeRatio = mean(liveShapes.map((s) => s.range)) / mean(historyShapes.map((s) => s.range))
  console.log(
    `live / history, averaged over tokens: variance ${varianceRatio.toFixed(3)}, high-low range ${
      rangeRatio.toFixed(3)
    }`
  )

  it("has the same per-minute variance (average over tokens within 20%)", () => {
    assert.isTrue(Math.abs(varianceRatio - 1) < 0.2, String(varianceRatio))
  })

  it("has the same candle wicks (mean log high/low range within 15%)", () => {
    assert.isTrue(Math.abs(rangeRatio - 1) < 0.15, String(rangeRatio))
  })

  it("keeps live returns free of autocorrelation and stablecoins on their peg", () => {
    const lag1 = mean(
      walking.map((p) => autocorrelation(logReturns(live.candles(p.symbol, "1m", START_MS, START_MS + DAY_MS)), 1))
    )
    assert.isBelow(Math.abs(lag1), 0.05)
    for (const params of pegged) {
      const candles = live.candles(params.symbol, "1m", START_MS, START_MS + DAY_MS)
      const worst = Math.max(
        ...candles.map((c) => Math.max(Math.abs(c.high / params.peg! - 1), Math.abs(c.low / params.peg! - 1)))
      )
      assert.isAtMost(worst, 0.005, params.symbol)
    }
  })

  it("books a day's volume close to the configured one across the market (within 20%)", () => {
    const ratio = mean(defaultMarketParams.map((p) => live.stats(p.symbol).volume24hUsd / p.dailyVolumeUsd))
    assert.isTrue(Math.abs(ratio - 1) < 0.2, String(ratio))
    assert.strictEqual(live.candles("SOL", "1m", START_MS, START_MS + DAY_MS).length, DAY_MS / MINUTE_MS)
  })
})
