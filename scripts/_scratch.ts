import { Alerts } from "@swapdesk/core"
import { decodeScenario, demoScenario, layerSimulator, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"
const sc = decodeScenario({ ...demoScenario, clock: { mode: "manual", start: "2026-01-01T00:00:00Z" } })
const withAlerts = process.argv[2] === "alerts"
await Effect.runPromise(
  Effect.gen(function*() {
    if (withAlerts) {
      const alerts = yield* Alerts
      yield* Effect.orDie(
        alerts.create("acct_demo_free", {
          type: "price",
          token: "SOL",
          condition: "above",
          targetPrice: 1e9,
          channel: "email"
        })
      )
      yield* Effect.orDie(
        alerts.create("acct_demo_free", {
          type: "price",
          token: "ETH",
          condition: "below",
          targetPrice: 1e-6,
          channel: "email"
        })
      )
      yield* Effect.orDie(
        alerts.create("acct_demo_free", { type: "whale", token: "BONK", minValueUsd: 1e12, channel: "email" })
      )
      yield* Effect.orDie(
        alerts.create("acct_demo_free", { type: "volume", token: "SOL", multiplier: 1e6, channel: "email" })
      )
      yield* Effect.orDie(alerts.create("acct_demo_free", { type: "portfolio", changePercent: 1e6, channel: "email" }))
    }
    const control = yield* SimulatorControl
    const t = performance.now()
    yield* Effect.orDie(control.advance(86_400_000 * 2))
    console.log(performance.now() - t)
  }).pipe(Effect.provide(layerSimulator(sc)))
)
