/**
 * `pnpm bench [alerts|simulator|history|orders|keys|lists|restore|snapshot|http|web|store|indexer|live] [--runs N] [--seconds N] [--rounds N] [--loads N]`:
 * the alert engine benchmark and the simulator benchmark (medians of `--runs`, default 3), the
 * history-replay benchmark (the same runs), the limit order watcher benchmark (same runs), what
 * recording a key's `lastUsedAt` costs an authentication (at least 9 runs), a page of trades at 0 and
 * at 100,000 trades of history (same runs), how long the server takes to restore 30 busy simulated
 * days from a SQLite file (same runs), what a snapshot of the market after 30 simulated days weighs and
 * costs to take, serialise, deserialise and restore (same runs), the HTTP benchmark
 * (`--seconds` per target per round, default 8, over `--rounds`, default 2) and the interface's
 * budget in headless Chromium (medians of `--loads` page loads, default 5), the live server on a
 * devnet (`POST /trades` to `confirmed` over `--runs` trades, at least 15, beside the chain's floor,
 * and trades per second from 20 delegated wallets over `--seconds`, default 15, the node 50 ms of
 * round trip away), or only those named; the chain index against the node's raw `eth_getLogs`
 * (`indexer`, anvil with 100 000 swaps) only when named,
 * and one summary table. Targets print PASS or MISS for information; the exit code is 0
 * whatever they say, because on a shared, noisy machine a timing is evidence, not a verdict. How to
 * read the figures, and what a profile of the server showed: docs/performance.md.
 */
import { availableParallelism, cpus } from "node:os"
import { runAlertsBench } from "./bench/alerts.ts"
import { runHistoryBench } from "./bench/history.ts"
import { defaultHttpOptions, runHttpBench } from "./bench/http.ts"
import { runIndexerBench } from "./bench/indexer.ts"
import { runKeysBench } from "./bench/keys.ts"
import { runListsBench } from "./bench/lists.ts"
import { runLiveBench } from "./bench/live.ts"
import { runOrdersBench } from "./bench/orders.ts"
import { type BenchResult, formatTable } from "./bench/Report.ts"
import { runRestoreBench } from "./bench/restore.ts"
import { runSimulatorBench } from "./bench/simulator.ts"
import { runSnapshotBench } from "./bench/snapshot.ts"
import { defaultStoreOptions, runStoreBench } from "./bench/store.ts"
import { runWebBench } from "./bench/web.ts"

const usage =
  "usage: pnpm bench [alerts|simulator|history|orders|keys|lists|restore|snapshot|http|web|store|indexer|live] [--runs N] [--seconds N] [--rounds N] [--loads N]"

/** `--name N` options (a positive integer each) and the benchmark names around them. */
const parseArgs = (args: ReadonlyArray<string>) => {
  const options = new Map<string, number>()
  const names: Array<string> = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith("--")) {
      names.push(arg)
      continue
    }
    const value = Number(args[++i])
    if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a positive whole number`)
    options.set(arg.slice(2), value)
  }
  return { names, options }
}

let parsed: ReturnType<typeof parseArgs>
try {
  parsed = parseArgs(process.argv.slice(2))
} catch (error) {
  console.error(`${(error as Error).message}\n${usage}`)
  process.exit(2)
}
const { options } = parsed

const benchmarks = {
  alerts: () => runAlertsBench({ runs: options.get("runs") ?? 3 }),
  simulator: () => runSimulatorBench({ runs: options.get("runs") ?? 3 }),
  history: () => runHistoryBench({ runs: options.get("runs") ?? 3 }),
  orders: () => runOrdersBench({ runs: options.get("runs") ?? 3, ticks: 200 }),
  keys: () => runKeysBench({ runs: Math.max(9, options.get("runs") ?? 9) }),
  lists: () => runListsBench({ runs: options.get("runs") ?? 3 }),
  restore: () => runRestoreBench({ runs: options.get("runs") ?? 3 }),
  snapshot: () => runSnapshotBench({ runs: options.get("runs") ?? 3 }),
  http: () =>
    runHttpBench({
      ...defaultHttpOptions,
      durationSeconds: options.get("seconds") ?? defaultHttpOptions.durationSeconds,
      rounds: options.get("rounds") ?? defaultHttpOptions.rounds
    }),
  web: () => runWebBench({ loads: options.get("loads") ?? 5 }),
  indexer: () => runIndexerBench(),
  store: () =>
    runStoreBench({
      ...defaultStoreOptions,
      durationSeconds: options.get("seconds") ?? defaultStoreOptions.durationSeconds,
      rounds: options.get("rounds") ?? defaultStoreOptions.rounds
    }),
  live: () =>
    runLiveBench({
      runs: Math.max(15, options.get("runs") ?? 15),
      seconds: options.get("seconds") ?? 15,
      rpcDelayMs: 25
    })
} satisfies Record<string, () => Promise<BenchResult>>

type Name = keyof typeof benchmarks

const isName = (name: string): name is Name => Object.hasOwn(benchmarks, name)

const unknown = [
  ...parsed.names.filter((name) => !isName(name)),
  ...[...options.keys()].filter((key) => !["runs", "seconds", "rounds", "loads"].includes(key)).map((key) => `--${key}`)
]
if (unknown.length > 0) {
  console.error(`unknown: ${unknown.join(", ")}\n${usage}`)
  process.exit(2)
}
const names: ReadonlyArray<Name> = parsed.names.length === 0
  ? ["alerts", "simulator", "history", "orders", "keys", "lists", "restore", "snapshot", "http", "web", "store", "live"]
  : parsed.names.filter(isName)

const started = performance.now()
const results: Array<BenchResult> = []
for (const name of names) results.push(await benchmarks[name]())

console.log(
  `\nswapdesk bench: node ${process.version}, ${availableParallelism()} cores (${
    cpus()[0]?.model ?? "unknown CPU"
  }), ` +
    `${((performance.now() - started) / 1_000).toFixed(0)} s\n`
)
console.log(formatTable(results.flatMap((result) => result.rows)))
const notes = results.flatMap((result) => result.notes)
if (notes.length > 0) console.log(`\n${notes.map((note) => `note: ${note}`).join("\n")}`)
console.log("\nTargets are informational: PASS/MISS never changes the exit code.")
