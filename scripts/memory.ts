/**
 * `pnpm memory [trades|idle] [--trades N] [--months N]`: what the simulated deployment keeps in
 * memory, measured on the heap after a full collection (the script re-runs itself under
 * `--expose-gc` when it was started without):
 *
 * - `trades`: bytes per kept trade. One account places swaps through `Trades.create` (each settled
 *   by advancing the clock); the heap is measured once the event log is full (its window is fixed:
 *   from then on its size does not change) and again `--trades` (default 100,000) trades later; the
 *   difference divided by the trades is what each kept trade costs: its record, its places in the
 *   per-account indexes, its balance movements.
 * - `idle`: memory growth per simulated month with no traffic: the clock advanced `--months`
 *   (default 3) months of 31 days in steps of a day; heapUsed and RSS after a collection at each
 *   month's end, and the growth per month after the first (the first month fills the fixed windows:
 *   the event log, the retained market history).
 *
 * With `--profile <file>`, `trades` also writes a sampling heap profile of what the measured trades
 * allocated and left live (open it in Chrome DevTools' Memory tab).
 *
 * The figures are in docs/performance.md#memory.
 */
import { Trades } from "@swapdesk/core"
import { decodeScenario, layerSimulator, SimulatorControl } from "@swapdesk/simulator"
import { Effect, type Layer } from "effect"
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { fileURLToPath } from "node:url"

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) {
  const result = spawnSync(
    process.execPath,
    ["--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: "inherit"
    }
  )
  process.exit(result.status ?? 1)
}

const args = process.argv.slice(2)
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : Number(args[at + 1])
}
const profileAt = args.indexOf("--profile")
const profileFile = profileAt === -1 ? undefined : args[profileAt + 1]
const which = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"))

const heapAfterGc = (): { heap: number; rss: number; heapTotal: number; arrayBuffers: number } => {
  gc!()
  gc!()
  const usage = process.memoryUsage()
  // Typed arrays (the market's history) live outside the V8 heap: counted with it.
  return {
    heap: usage.heapUsed + usage.arrayBuffers,
    rss: usage.rss,
    heapTotal: usage.heapTotal,
    arrayBuffers: usage.arrayBuffers
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

const scenario = decodeScenario({
  seed: 5,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: false,
  networks: { solana: { failureRate: 0 } },
  accounts: [{
    id: "acct_memory",
    plan: "pro",
    wallets: [{
      network: "solana",
      address: "MemoryWa11et11111111111111111111111111111111",
      delegatedSigning: true,
      balances: { SOL: "10000000", USDC: "1000000000" }
    }]
  }]
})

const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof layerSimulator>>>) =>
  Effect.runPromise(Effect.provide(effect, layerSimulator(scenario)) as Effect.Effect<A, E>)

/** Places `count` swaps (alternating sides), settling them in batches of 100 by advancing the clock. */
const placeTrades = (count: number) =>
  Effect.gen(function*() {
    const trades = yield* Trades
    const control = yield* SimulatorControl
    for (let i = 0; i < count; i++) {
      const sell = i % 2 === 0
      yield* trades.create("acct_memory", {
        tokenIn: sell ? "SOL" : "USDC",
        tokenOut: sell ? "USDC" : "SOL",
        amountIn: sell ? "0.01" : "2",
        network: "solana",
        slippage: 5
      })
      if (i % 100 === 99) yield* control.advance(20_000)
    }
    yield* control.advance(60_000)
  })

const measureTrades = (count: number) =>
  run(Effect.gen(function*() {
    // 40,000 trades log well over 100,000 events: the event log's window is full from then on.
    yield* placeTrades(40_000)
    const before = heapAfterGc()
    const session = profileFile === undefined ? undefined : new Session()
    if (session !== undefined) {
      session.connect()
      yield* Effect.promise(() => session.post("HeapProfiler.startSampling", { samplingInterval: 4096 }))
    }
    yield* placeTrades(count)
    const after = heapAfterGc()
    if (session !== undefined) {
      const { profile } = yield* Effect.promise(() => session.post("HeapProfiler.stopSampling"))
      writeFileSync(profileFile!, JSON.stringify(profile))
      session.disconnect()
    }
    const perTrade = (after.heap - before.heap) / count
    console.log(
      `trades: heap ${mb(before.heap)} after 40,000 trades, ${mb(after.heap)} after ${count} more: ` +
        `${perTrade.toFixed(0)} bytes per kept trade (RSS ${mb(before.rss)} -> ${mb(after.rss)})`
    )
    return perTrade
  }))

const MONTH_MS = 31 * 86_400_000

const measureIdle = (months: number) =>
  run(Effect.gen(function*() {
    const control = yield* SimulatorControl
    const start = heapAfterGc()
    console.log(`idle: at start heap ${mb(start.heap)}, RSS ${mb(start.rss)}`)
    const ends: Array<{ heap: number; rss: number }> = []
    for (let month = 1; month <= months; month++) {
      for (let day = 0; day < 31; day++) yield* control.advance(86_400_000)
      const end = heapAfterGc()
      ends.push(end)
      console.log(
        `idle: after ${month} month(s) of ${MONTH_MS / 86_400_000} days, heap ${mb(end.heap)} (typed arrays ${
          mb(end.arrayBuffers)
        }; V8 heap reserved ${mb(end.heapTotal)}), RSS ${mb(end.rss)}`
      )
    }
    if (ends.length >= 2) {
      const perMonth = (ends.at(-1)!.heap - ends[0]!.heap) / (ends.length - 1)
      const rssPerMonth = (ends.at(-1)!.rss - ends[0]!.rss) / (ends.length - 1)
      console.log(`idle: growth per month after the first: heap ${mb(perMonth)}, RSS ${mb(rssPerMonth)}`)
    }
  }))

if (which.length === 0 || which.includes("trades")) await measureTrades(option("trades", 100_000))
if (which.length === 0 || which.includes("idle")) await measureIdle(option("months", 3))
