// Proves the history example (examples/history/) as a user runs it: the committed candle files are
// exactly what `generate.ts` writes (the example makes its own data, the same bytes every run);
// the scenario, decoded with its own directory as `pnpm start` does, serves the SOL file's
// one-minute candles through the core's `MarketData` use case before and after the start, with the
// missing quarter of an hour priced by the model; a price alert between ETH's price before its drop
// and the drop's low fires in the five minutes the file drops in; and a SOL swap confirms, paying
// impact without moving the replayed price.
import { assert, describe, it } from "@effect/vitest"
import { Alerts, MarketData, Trades } from "@swapdesk/core"
import { decodeScenario, layerSimulator, SimulationState, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { candleFiles, START_MS } from "../history/generate.ts"

const directory = fileURLToPath(new URL("../history/", import.meta.url))
const MINUTE_MS = 60_000
const ACCOUNT = "acct_history"

const scenario = decodeScenario(JSON.parse(readFileSync(`${directory}scenario.json`, "utf8")), { directory })

const csvRows = (text: string) => text.trim().split("\n").slice(1).map((line) => line.split(",").map(Number))

describe("examples/history", () => {
  it("the committed candle files are what generate.ts writes", () => {
    for (const [name, text] of Object.entries(candleFiles())) {
      assert.strictEqual(readFileSync(`${directory}${name}`, "utf8"), text, `${name}: run examples/history/generate.ts`)
    }
  })

  it.effect("replays the files: the chart is SOL's file, an alert fires in ETH's drop, a swap leaves the path", () =>
    Effect.gen(function*() {
      const sol = csvRows(candleFiles()["sol-usdt-1m.csv"]!)
      const eth = JSON.parse(candleFiles()["eth-usdt-5m.json"]!) as Array<Array<number>>
      const dropAt = START_MS + 60 * MINUTE_MS
      const drop = eth.find((c) => c[0] === dropAt)!
      const before = eth.find((c) => c[0] === dropAt - 5 * MINUTE_MS)!
      const target = (drop[3]! + Math.min(before[3]!, drop[1]!)) / 2
      const alerts = yield* Alerts
      const alert = yield* alerts.create(ACCOUNT, {
        type: "price",
        token: "ETH",
        condition: "below",
        targetPrice: target,
        channel: "email"
      })

      const control = yield* SimulatorControl
      const sim = yield* SimulationState
      const trades = yield* Trades
      const priceBefore = sim.market.priceUsd("SOL")
      const trade = yield* trades.create(ACCOUNT, {
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "5",
        network: "solana"
      })
      assert.strictEqual(sim.market.priceUsd("SOL"), priceBefore, "a swap does not move a replayed price")
      yield* control.advance(3 * 60 * MINUTE_MS)
      assert.strictEqual((yield* trades.get(ACCOUNT, trade.id)).stage, "confirmed")

      const fired = (yield* control.outbox(0, 10_000)).notifications.filter((n) => n.alertId === alert.id)
      assert.strictEqual(fired.length, 1)
      const sentAt = Date.parse(fired[0]!.sentAt)
      assert.isTrue(sentAt >= dropAt && sentAt < dropAt + 5 * MINUTE_MS, `fired at ${fired[0]!.sentAt}`)

      const market = yield* MarketData
      const chart = yield* market.chart({
        token: "SOL",
        timeframe: "1m",
        from: new Date(START_MS - 60 * MINUTE_MS).toISOString(),
        to: new Date(START_MS + 180 * MINUTE_MS).toISOString()
      })
      assert.strictEqual(chart.candles.length, 240)
      const served = new Map(chart.candles.map((c) => [Date.parse(c.timestamp), [c.open, c.high, c.low, c.close]]))
      const covered = sol.filter((r) => r[0]! >= START_MS - 60 * MINUTE_MS && r[0]! < START_MS + 180 * MINUTE_MS)
      assert.strictEqual(covered.length, 240 - 15, "the file misses a quarter of an hour")
      for (const row of covered) assert.deepStrictEqual(served.get(row[0]!), row.slice(1, 5))
    }).pipe(Effect.provide(layerSimulator(scenario))))
})
