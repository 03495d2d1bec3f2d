/**
 * The market snapshot benchmark: the demo market (the demo scenario's seed, start, tokens and 30 days
 * of history) advanced 30 simulated days by one-second ticks, then its snapshot taken, serialised with
 * `node:v8`, deserialised and restored, `runs` times after one warm-up. Reports the serialised size
 * and the median of each step; the target is what a restart pays (deserialise + restore). The
 * restored market is checked against the original on the next minute of ticks, so a fast restore of
 * the wrong state cannot pass.
 *
 * Run alone with `node scripts/bench/snapshot.ts`, or through `pnpm bench snapshot`.
 */
import { demoScenario } from "@swapdesk/simulator"
import { deserialize, serialize } from "node:v8"
// Not part of the package's exports: the benchmark drives the market directly.
import { type MarketConfig, MarketEngine } from "../../packages/simulator/src/market/MarketEngine.ts"
import { atMost, type BenchResult, formatMs, medianOf, printResult, reporter, type Row } from "./Report.ts"

const BENCHMARK = "snapshot"
const DAYS = 30
const DAY_MS = 86_400_000

export interface SnapshotOptions {
  readonly runs: number
}

const timed = <A>(work: () => A): { readonly ms: number; readonly value: A } => {
  const started = performance.now()
  const value = work()
  return { ms: performance.now() - started, value }
}

const { measuredRuns, progress, row } = reporter(BENCHMARK)

export const runSnapshotBench = async ({ runs }: SnapshotOptions): Promise<BenchResult> => {
  const config: MarketConfig = {
    seed: demoScenario.seed!,
    startMs: Date.parse(demoScenario.clock!.start!),
    historyDays: 30
  }
  progress("building the demo market")
  const market = new MarketEngine(config)
  progress(`advancing it ${DAYS} days`)
  const advance = timed(() => market.tick(config.startMs + DAYS * DAY_MS))
  const measured = await measuredRuns(runs, (warmUp) => {
    const snapshot = timed(() => market.snapshot())
    const serialised = timed(() => serialize(snapshot.value))
    const deserialised = timed(() => deserialize(serialised.value) as ReturnType<MarketEngine["snapshot"]>)
    const restored = timed(() => MarketEngine.restore(config, deserialised.value))
    if (warmUp) {
      // The restored market goes on exactly as the original: the same swaps and prices over a minute.
      const at = market.nowMs + 60_000
      const fromRestored = JSON.stringify([restored.value.tick(at), restored.value.priceUsd("SOL")])
      const fromOriginal = JSON.stringify([market.tick(at), market.priceUsd("SOL")])
      if (fromRestored !== fromOriginal) throw new Error("the restored market does not go on as the original")
    }
    return {
      take: snapshot.ms,
      write: serialised.ms,
      read: deserialised.ms,
      restore: restored.ms,
      restart: deserialised.ms + restored.ms,
      bytes: serialised.value.length
    }
  })
  const restart = medianOf(measured, "restart")
  const mb = (measured.at(-1)?.bytes ?? 0) / 1_000_000
  const rows: Array<Row> = [
    row(`advance the demo market ${DAYS} days (1 s ticks)`, formatMs(advance.ms)),
    row("snapshot size (v8.serialize)", `${mb.toFixed(1)} MB`, { value: mb, target: atMost(50, "<= 50 MB") }),
    row("take the snapshot", formatMs(medianOf(measured, "take"))),
    row("serialise (v8)", formatMs(medianOf(measured, "write"))),
    row("deserialise (v8)", formatMs(medianOf(measured, "read"))),
    row("restore the market", formatMs(medianOf(measured, "restore"))),
    row("deserialise + restore", formatMs(restart), { value: restart, target: atMost(2_000, "< 2 s") })
  ]
  const notes = [
    `snapshot: medians of ${runs} runs after one warm-up, on the demo market after ${DAYS} days of one-second ticks ` +
    "(the advance is one run); deserialise + restore is what a restart pays for the market"
  ]
  return { rows, notes }
}

if (import.meta.main) printResult(await runSnapshotBench({ runs: 5 }))
