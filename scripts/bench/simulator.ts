/**
 * The simulator benchmark: how long the demo world takes to build (30 days of one-minute history
 * for every token), how fast it advances 24 h of market time through the same event loop the
 * server uses (`SimulatorControl.advance`, every one-second tick through the core's
 * `MarketReactor` and alert monitor), and how that compares with the bare random walks measured
 * in the same run. Every figure is the median of `runs` runs after one warm-up; the engine and the
 * bare loop run interleaved, so that noise from the shared machine hits both sides of a ratio.
 *
 * Run alone with `node scripts/bench/simulator.ts`, or through `pnpm bench simulator`.
 */
import { Alerts, type CreateAlertBody } from "@swapdesk/core"
import { decodeScenario, demoScenario, layerSimulator, Simulation, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"
// Not part of the package's exports: the bare walks exist for this benchmark, so it reads them from
// their module.
import { defaultMarketParams } from "../../packages/simulator/src/market/MarketParams.ts"
import { bareRandomWalks } from "../../packages/simulator/src/market/PriceProcess.ts"
import {
  atLeast,
  atMost,
  type BenchResult,
  formatCount,
  formatMs,
  formatRatio,
  medianOf,
  printResult,
  reporter
} from "./Report.ts"

const DAY_MS = 86_400_000
const DAY_SECONDS = 86_400
const BENCHMARK = "simulator"

/** The demo world on a manual clock: nothing moves until the benchmark advances it. */
const manualDemo = decodeScenario({ ...demoScenario, clock: { mode: "manual", start: "2026-01-01T00:00:00Z" } })

/** Every token's price moves once per tick (a tracking token moves with its target). */
const tokenCount = defaultMarketParams.length

/**
 * Alerts that are evaluated at every tick (price, whale) or every minute (volume, portfolio) and
 * never fire, so that all five stay active for the whole day: the Free plan's maximum.
 */
const quietAlerts: ReadonlyArray<CreateAlertBody> = [
  { type: "price", token: "SOL", condition: "above", targetPrice: 1e9, channel: "email" },
  { type: "price", token: "ETH", condition: "below", targetPrice: 1e-6, channel: "telegram" },
  { type: "whale", token: "BONK", minValueUsd: 1e12, channel: "email" },
  { type: "volume", token: "SOL", multiplier: 1e6, channel: "email" },
  { type: "portfolio", changePercent: 1e6, channel: "telegram" }
]
const ALERT_ACCOUNT = "acct_demo_free"

const elapsed = (started: number) => performance.now() - started

const { measuredRuns, progress, row } = reporter(BENCHMARK)

const perSecond = (count: number, ms: number) => `${formatCount(count / (ms / 1_000))}/s`

/** Builds the demo simulation: the whole of its start-up cost. */
const timeStartUp = (): number => {
  const started = performance.now()
  void new Simulation(manualDemo)
  return elapsed(started)
}

const timeBareWalks = (): number => {
  const started = performance.now()
  // The checksum keeps the optimiser from dropping the loop.
  if (!Number.isFinite(bareRandomWalks(manualDemo.seed ?? 42, defaultMarketParams, DAY_SECONDS))) {
    throw new Error("bare random walks diverged")
  }
  return elapsed(started)
}

/** `Simulation.step` alone, no Effect: separates the market's own cost from the event loop's. */
const timeStepLoop = (): number => {
  const sim = new Simulation(manualDemo)
  const until = sim.now + DAY_MS
  const started = performance.now()
  let steps = 0
  while (sim.step(until) !== undefined) steps++
  const ms = elapsed(started)
  if (steps < DAY_SECONDS) throw new Error(`expected at least ${DAY_SECONDS} steps, ran ${steps}`)
  return ms
}

/** One day through `SimulatorControl.advance` on a fresh world; building the world is not timed. */
const timeAdvance = (withAlerts: boolean): Promise<number> =>
  Effect.runPromise(
    Effect.gen(function*() {
      if (withAlerts) {
        const alerts = yield* Alerts
        for (const body of quietAlerts) yield* Effect.orDie(alerts.create(ALERT_ACCOUNT, body))
      }
      const control = yield* SimulatorControl
      const started = performance.now()
      yield* Effect.orDie(control.advance(DAY_MS))
      const ms = elapsed(started)
      const fired = (yield* control.outbox(0, 1)).notifications.length
      if (fired > 0) throw new Error(`${fired} quiet alerts fired: the alert variant no longer measures what it says`)
      return ms
    }).pipe(Effect.provide(layerSimulator(manualDemo)))
  )

export interface SimulatorOptions {
  /** Measured runs of each figure, after one warm-up. */
  readonly runs: number
}

export const runSimulatorBench = async ({ runs }: SimulatorOptions): Promise<BenchResult> => {
  progress("cold start-up")
  const coldStartUpMs = timeStartUp()
  const measured = await measuredRuns(runs, async () => {
    const startUp = timeStartUp()
    const bare = timeBareWalks()
    const stepLoop = timeStepLoop()
    const advance = await timeAdvance(false)
    const advanceAlerts = await timeAdvance(true)
    return { startUp, bare, stepLoop, advance, advanceAlerts, ratio: bare / advance, ratioAlerts: bare / advanceAlerts }
  })

  const advanceMs = medianOf(measured, "advance")
  const advanceAlertsMs = medianOf(measured, "advanceAlerts")
  const bareMs = medianOf(measured, "bare")
  const startUpMs = medianOf(measured, "startUp")
  const ratio = medianOf(measured, "ratio")
  const ratioAlerts = medianOf(measured, "ratioAlerts")
  const rows = [
    row("start-up, first in process (demo, 30 d history)", formatMs(coldStartUpMs), {
      value: coldStartUpMs,
      target: atMost(2_000, "< 2 s")
    }),
    row("start-up, median", formatMs(startUpMs), { value: startUpMs, target: atMost(2_000, "< 2 s") }),
    row("advance 24 h (SimulatorControl.advance)", formatMs(advanceMs), {
      value: advanceMs,
      target: atMost(3_000, "< 3 s")
    }),
    row("  tick-steps", perSecond(DAY_SECONDS, advanceMs)),
    row(`  token-price updates (${tokenCount} tokens)`, perSecond(DAY_SECONDS * tokenCount, advanceMs)),
    row(`advance 24 h, ${quietAlerts.length} active alerts`, formatMs(advanceAlertsMs), {
      value: advanceAlertsMs,
      target: atMost(3_000, "< 3 s")
    }),
    row("  tick-steps", perSecond(DAY_SECONDS, advanceAlertsMs)),
    row("Simulation.step loop alone, no Effect (24 h)", formatMs(medianOf(measured, "stepLoop"))),
    row("bare random walks (24 h, same tokens)", formatMs(bareMs)),
    row("  tick-steps", perSecond(DAY_SECONDS, bareMs)),
    row("engine/bare speed", formatRatio(ratio), { value: ratio, target: atLeast(0.25, ">= 0.25x") }),
    row("engine/bare speed, with alerts", formatRatio(ratioAlerts), {
      value: ratioAlerts,
      target: atLeast(0.4, ">= 0.4x")
    })
  ]
  const notes = [
    `medians of ${runs} runs after one warm-up; the demo scenario on a manual clock, ${tokenCount} tokens, ` +
    "86,400 one-second ticks per day",
    "engine/bare speed = bare-walk time / advance time, taken within each run (both measured in this process)",
    `alerts: ${quietAlerts.length} alerts of ${ALERT_ACCOUNT} (price x2, whale, volume, portfolio) that stay active all day`
  ]
  return { rows, notes }
}

if (import.meta.main) printResult(await runSimulatorBench({ runs: 5 }))
