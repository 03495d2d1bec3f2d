/**
 * The history benchmark: a year of one-minute candles for one token (525 600 rows, generated here
 * from a seeded walk) loaded from CSV and from JSON, the memory the loaded series holds, and what
 * replaying a token costs against modelling it. The cost is taken on a one-token market (SOL alone,
 * so the figure is the token's and not the other 22's) and on the demo world with SOL replayed,
 * each as 24 h of one-second ticks, the replayed and modelled runs interleaved so that noise from
 * the shared machine hits both sides of a ratio. Every figure is the median of `runs` runs after
 * one warm-up.
 *
 * Run alone with `node scripts/bench/history.ts`, or through `pnpm bench history`.
 */
import { decodeScenario, demoScenario, Prng, Simulation } from "@swapdesk/simulator"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
// Not part of the package's exports: the benchmark drives the market and the parser directly.
import { type CandleSeries, parseCandleFile } from "../../packages/simulator/src/market/CandleFile.ts"
import { MarketEngine } from "../../packages/simulator/src/market/MarketEngine.ts"
import { defaultMarketParams } from "../../packages/simulator/src/market/MarketParams.ts"
import { atMost, type BenchResult, formatMs, formatRatio, medianOf, printResult, reporter } from "./Report.ts"

const BENCHMARK = "history"
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
const ROWS = 525_600
const START_MS = Date.parse("2026-01-01T00:00:00Z")
/** The file starts half a year before the start, so the day advanced and 30 days of history lie inside it. */
const FILE_START_MS = START_MS - (ROWS / 2) * MINUTE_MS

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

/** A year of SOL candles: a seeded random walk at 70% a year, six significant digits like an exchange's. */
const yearOfCandles = (): { readonly csv: string; readonly json: string } => {
  const prng = Prng.stream(1, "bench/history")
  const sigma = 0.7 / Math.sqrt(365 * 1_440)
  const lines = ["timestamp,open,high,low,close,volume"]
  const rows: Array<string> = []
  let close = 140
  for (let i = 0; i < ROWS; i++) {
    const open = Number(close.toPrecision(6))
    const next = Number((open * Math.exp(sigma * prng.normal())).toPrecision(6))
    const high = Number((Math.max(open, next) * (1 + Math.abs(sigma * prng.normal()))).toPrecision(6))
    const low = Number((Math.min(open, next) * (1 - Math.abs(sigma * prng.normal()))).toPrecision(6))
    const volume = Number((12_000 * Math.exp(0.5 * prng.normal())).toFixed(3))
    const time = FILE_START_MS + i * MINUTE_MS
    lines.push(`${time},${open},${high},${low},${next},${volume}`)
    rows.push(`[${time},${open},${high},${low},${next},${volume}]`)
    close = next
  }
  return { csv: lines.join("\n") + "\n", json: `[${rows.join(",")}]` }
}

const elapsed = (started: number) => performance.now() - started

const timeLoad = (text: string): { readonly ms: number; readonly series: CandleSeries } => {
  const started = performance.now()
  const series = parseCandleFile(text)
  return { ms: elapsed(started), series }
}

/**
 * What a loaded series keeps: the bytes of the buffers behind its columns (a column that were a
 * view of a larger buffer would count the whole buffer), and, as a check, how much the process's
 * array-buffer memory grew across the load, after full collections on both sides.
 */
const heldBytes = (text: string): { readonly buffers: number; readonly growth: number } => {
  gc()
  const before = process.memoryUsage().arrayBuffers
  const series = parseCandleFile(text)
  gc()
  const growth = process.memoryUsage().arrayBuffers - before
  if (series.openTimeMs.length !== ROWS) throw new Error(`loaded ${series.openTimeMs.length} rows`)
  const columns = [series.openTimeMs, series.open, series.high, series.low, series.close, series.volume]
  return { buffers: columns.reduce((sum, column) => sum + column.buffer.byteLength, 0), growth }
}

const solParams = defaultMarketParams.filter((p) => p.symbol === "SOL")

/** 24 h of one-second ticks of a SOL-only market, replayed or modelled; building it is not timed. */
const timeOneToken = (history: CandleSeries | undefined): number => {
  const market = new MarketEngine({
    seed: 42,
    startMs: START_MS,
    tokens: solParams,
    ...(history === undefined ? {} : { history: { SOL: history } })
  })
  const started = performance.now()
  for (let at = START_MS + MINUTE_MS; at <= START_MS + DAY_MS; at += MINUTE_MS) market.tick(at)
  return elapsed(started)
}

const manualDemo = { ...demoScenario, clock: { mode: "manual" as const, start: new Date(START_MS).toISOString() } }

/** 24 h of the demo world through `Simulation.step`, SOL replayed or modelled. */
const timeDemo = (history: CandleSeries | undefined): number => {
  const scenario = decodeScenario(manualDemo)
  const sim = new Simulation(
    history === undefined ? scenario : { ...scenario, history: { SOL: { file: "bench", candles: history } } }
  )
  const until = sim.now + DAY_MS
  const started = performance.now()
  while (sim.step(until) !== undefined);
  return elapsed(started)
}

const mb = (bytes: number) => bytes / 1_000_000

const { measuredRuns, progress, row } = reporter(BENCHMARK)

export interface HistoryOptions {
  /** Measured runs of each figure, after one warm-up. */
  readonly runs: number
}

export const runHistoryBench = async ({ runs }: HistoryOptions): Promise<BenchResult> => {
  progress("generating a year of one-minute candles")
  const files = yearOfCandles()
  const measured = await measuredRuns(runs, () => {
    const csv = timeLoad(files.csv)
    const json = timeLoad(files.json)
    const replayed = timeOneToken(csv.series)
    const modelled = timeOneToken(undefined)
    const demoReplayed = timeDemo(csv.series)
    const demoModelled = timeDemo(undefined)
    return {
      csvLoad: csv.ms,
      jsonLoad: json.ms,
      oneReplayed: replayed,
      oneModelled: modelled,
      oneRatio: replayed / modelled,
      demoRatio: demoReplayed / demoModelled
    }
  })
  const csvLoadMs = medianOf(measured, "csvLoad")
  const jsonLoadMs = medianOf(measured, "jsonLoad")
  const oneRatio = medianOf(measured, "oneRatio")
  const demoRatio = medianOf(measured, "demoRatio")
  const csvHeld = heldBytes(files.csv)
  const jsonHeld = heldBytes(files.json)
  const rows = [
    row(
      `load ${ROWS.toLocaleString("en-US")} 1m candles, CSV (${mb(files.csv.length).toFixed(0)} MB)`,
      formatMs(csvLoadMs),
      {
        value: csvLoadMs,
        target: atMost(2_000, "< 2 s")
      }
    ),
    row(
      `load ${ROWS.toLocaleString("en-US")} 1m candles, JSON (${mb(files.json.length).toFixed(0)} MB)`,
      formatMs(jsonLoadMs),
      {
        value: jsonLoadMs,
        target: atMost(2_000, "< 2 s")
      }
    ),
    row(
      "  held after loading CSV",
      `${mb(csvHeld.buffers).toFixed(1)} MB (heap grew ${mb(csvHeld.growth).toFixed(1)} MB)`,
      {
        value: mb(Math.max(csvHeld.buffers, csvHeld.growth)),
        target: atMost(30, "< 30 MB")
      }
    ),
    row(
      "  held after loading JSON",
      `${mb(jsonHeld.buffers).toFixed(1)} MB (heap grew ${mb(jsonHeld.growth).toFixed(1)} MB)`,
      {
        value: mb(Math.max(jsonHeld.buffers, jsonHeld.growth)),
        target: atMost(30, "< 30 MB")
      }
    ),
    row("advance 24 h, SOL alone, replayed", formatMs(medianOf(measured, "oneReplayed"))),
    row("advance 24 h, SOL alone, modelled", formatMs(medianOf(measured, "oneModelled"))),
    row("replayed/modelled, SOL alone", formatRatio(oneRatio), {
      value: oneRatio,
      target: atMost(1.2, "<= 1.2x")
    }),
    row("replayed/modelled, demo world with SOL replayed", formatRatio(demoRatio), {
      value: demoRatio,
      target: atMost(1.2, "<= 1.2x")
    })
  ]
  const notes = [
    `history: medians of ${runs} runs after one warm-up; held = the bytes of the buffers behind the loaded ` +
    "columns, and how much array-buffer memory grew across the load (after full collections); replayed/modelled = the same 24 h of one-second ticks, taken within each run"
  ]
  return { rows, notes }
}

if (import.meta.main) printResult(await runHistoryBench({ runs: 5 }))
