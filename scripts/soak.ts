/**
 * `pnpm soak [--minutes N] [--seconds N] [--concurrency N] [--checkpoint N] [--reads-only]`: the
 * server under mixed, realistic traffic for a while, with the market clock advancing, to show what
 * a long run does to its memory and latency. It starts `packages/server/src/main.ts` in a child
 * process on a loopback port (never another address) with a manual-clock scenario, and drives it
 * with `--concurrency` workers (default 8):
 *
 * - readers: market data, candles, trending, quotes, the portfolio and list pages (trades, orders,
 *   alerts, keys), as a dashboard polls them;
 * - writers: swaps of one busy account (half of them with an `Idempotency-Key`), limit orders placed
 *   and cancelled, alerts created and deleted, on a second account (none with `--reads-only`);
 * - the clock: `POST /v1/sim/clock/advance` a few times a second, so trades settle and the market
 *   keeps minutes of history coming.
 *
 * It prints requests, errors by status and code, p50/p99 latency, the server's RSS at the start,
 * after a warm-up (the first fifth of the run, at most a minute) and at the end, its heap after a
 * full collection at the start and the end, the growth per request, and the p50 of
 * `GET /v1/trades` measured on the busy account at 0 and every `--checkpoint` (default 25,000) of
 * its trades (the load paused while it is measured, so the figure is the list's, not the
 * contention's). The run stops after `--minutes` (default 10) or `--seconds`. The figures are in
 * docs/performance.md#soak. Outside the test command; `test/Soak.test.ts` runs it for a few
 * seconds so it keeps working.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const usage = "usage: pnpm soak [--minutes N] [--seconds N] [--concurrency N] [--checkpoint N] [--reads-only]"

/** `--name N` options, each a positive whole number, and `--reads-only`. */
export const parseSoakArgs = (args: ReadonlyArray<string>) => {
  const options = new Map<string, number>()
  let readsOnly = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    const name = arg.replace(/^--/, "")
    if (arg === "--reads-only") {
      readsOnly = true
      continue
    }
    if (!arg.startsWith("--") || !["minutes", "seconds", "concurrency", "checkpoint"].includes(name)) {
      throw new Error(`unknown argument ${arg}`)
    }
    const value = Number(args[++i])
    if (!Number.isInteger(value) || value < 1) throw new Error(`${arg} needs a positive whole number`)
    options.set(name, value)
  }
  return {
    durationMs: options.has("seconds") ? options.get("seconds")! * 1_000 : (options.get("minutes") ?? 10) * 60_000,
    concurrency: options.get("concurrency") ?? 8,
    checkpoint: options.get("checkpoint") ?? 25_000,
    readsOnly
  }
}

export type SoakOptions = ReturnType<typeof parseSoakArgs>

const key = (stem: string) => `sd_test_${stem.padEnd(40, "0")}`
const keys = { busy: key("SoakBusyTrader"), other: key("SoakOtherTrader") }

/** A Pro account with one deep wallet on solana (delegated signing: its trades settle on their own). */
const soakAccount = (name: string, apiKey: string, address: string) => ({
  id: `acct_soak_${name}`,
  plan: "pro",
  apiKeys: [{ name: "all", key: apiKey, scopes: ["read", "trade", "alerts", "account"] }],
  notifications: { email: `${name}@example.com` },
  wallets: [{
    network: "solana",
    address,
    delegatedSigning: true,
    balances: { SOL: "1000000", USDC: "100000000" }
  }]
})

/** Two Pro accounts with deep wallets, rate limits off. */
const scenario = {
  seed: 11,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: false,
  networks: { solana: { failureRate: 0 } },
  accounts: [
    soakAccount("busy", keys.busy, "SoakBusyWa11et1111111111111111111111111111"),
    soakAccount("other", keys.other, "SoakOtherWa11et111111111111111111111111111")
  ]
}

const mainPath = fileURLToPath(new URL("../packages/server/src/main.ts", import.meta.url))

/**
 * Loaded into the server before its own code: on SIGUSR2 it collects garbage and prints its memory
 * usage, so the soak reads the heap after a full collection at the start and at the end.
 */
const memoryProbe = "data:text/javascript," + encodeURIComponent(
  `process.on("SIGUSR2", () => { globalThis.gc(); globalThis.gc(); ` +
    `process.stdout.write("memory " + JSON.stringify(process.memoryUsage()) + "\\n") })`
)

/** The server in a child process on a loopback port; resolves with its address once it listens. */
const startServer = (scenarioPath: string) =>
  new Promise<{ readonly child: ChildProcess; readonly url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", `--import=${memoryProbe}`, mainPath], {
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", SCENARIO: scenarioPath, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(output)
      if (match !== null) resolve({ child, url: match[1]! })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited ${code} before listening:\n${output}`)))
  })

/** The server's heap (V8 heap and typed arrays) after a full collection, through the memory probe. */
const heapAfterGc = (child: ChildProcess) =>
  new Promise<number>((resolve) => {
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /memory (\{[^\n]*\})/.exec(output)
      if (match === null) return
      child.stdout!.off("data", onData)
      const usage = JSON.parse(match[1]!) as NodeJS.MemoryUsage
      resolve(usage.heapUsed + usage.arrayBuffers)
    }
    child.stdout!.on("data", onData)
    child.kill("SIGUSR2")
  })

/** The resident set size of process `pid` in bytes (Linux `/proc`). */
const rssOf = (pid: number): number => {
  const match = /VmRSS:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) * 1024
}

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** The figures a run prints. */
export interface SoakReport {
  readonly seconds: number
  readonly requests: number
  readonly errors: Readonly<Record<string, number>>
  readonly p50Ms: number
  readonly p99Ms: number
  readonly rssStartBytes: number
  /** RSS after the warm-up, and when that was (seconds into the run). */
  readonly rssWarmBytes: number
  readonly warmUpSeconds: number
  readonly rssEndBytes: number
  /** The server's heap and typed arrays after a full collection. */
  readonly heapStartBytes: number
  readonly heapEndBytes: number
  readonly busyTrades: number
  readonly marketHours: number
  /** `GET /v1/trades` p50 in ms at each checkpoint of the busy account's trade count reached. */
  readonly tradesListP50Ms: ReadonlyArray<{ readonly trades: number; readonly p50Ms: number }>
}

/** Runs the soak against a fresh server and answers its figures. */
export const runSoak = async (options: SoakOptions, log: (line: string) => void = console.log): Promise<SoakReport> => {
  const scenarioPath = join(tmpdir(), `swapdesk-soak-${process.pid}.json`)
  writeFileSync(scenarioPath, JSON.stringify(scenario))
  const { child, url } = await startServer(scenarioPath)
  // Stopped early (Ctrl-C, a signal), the server goes too.
  const stop = () => {
    child.kill("SIGTERM")
    process.exit(130)
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  try {
    return await drive(child, url, options, log)
  } finally {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
    child.kill("SIGTERM")
    rmSync(scenarioPath, { force: true })
  }
}

const drive = async (child: ChildProcess, url: string, options: SoakOptions, log: (line: string) => void) => {
  const latencies: Array<number> = []
  const errors: Record<string, number> = {}
  let requests = 0
  let busyTrades = 0
  let marketMs = 0
  let sequence = 0

  const call = async (
    method: string,
    path: string,
    apiKey?: string,
    body?: unknown,
    headers: Record<string, string> = {}
  ): Promise<{ status: number; json: any }> => {
    const started = performance.now()
    const response = await fetch(`${url}/v1${path}`, {
      method,
      headers: {
        ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    latencies.push(performance.now() - started)
    requests++
    let json: any = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    if (response.status >= 400) {
      const label = `${response.status} ${json?.error?.code ?? "?"}`
      errors[label] = (errors[label] ?? 0) + 1
    }
    return { status: response.status, json }
  }

  const listTradesP50 = async (): Promise<number> => {
    const samples: Array<number> = []
    for (let i = 0; i < 200; i++) {
      const started = performance.now()
      const response = await fetch(`${url}/v1/trades?limit=20`, { headers: { authorization: `Bearer ${keys.busy}` } })
      await response.arrayBuffer()
      samples.push(performance.now() - started)
    }
    return percentile(samples.sort((a, b) => a - b), 50)
  }

  const heapStartBytes = await heapAfterGc(child)
  const rssStartBytes = rssOf(child.pid!)
  const startedAt = performance.now()
  const deadline = startedAt + options.durationMs
  const tradesListP50Ms: Array<{ trades: number; p50Ms: number }> = [{ trades: 0, p50Ms: await listTradesP50() }]
  log(`soak: ${url}, ${options.durationMs / 1000} s, RSS at start ${(rssStartBytes / 1e6).toFixed(1)} MB`)
  let nextCheckpoint = options.checkpoint
  /** While a checkpoint is measured, every worker waits on this. */
  let paused: Promise<void> | undefined

  const readers: ReadonlyArray<() => Promise<unknown>> = [
    () => call("GET", "/market-data?token=SOL"),
    () => call("GET", "/market-data?token=ETH&currency=EUR", keys.other),
    () => call("GET", "/market-data/chart?token=SOL&timeframe=5m", keys.other),
    () => call("GET", "/market-data/chart?token=ETH&timeframe=1h&network=ethereum", keys.other),
    () => call("GET", "/market-data/trending?limit=10"),
    () => call("GET", "/quote?tokenIn=SOL&tokenOut=USDC&amountIn=1&network=solana", keys.other),
    () => call("GET", "/portfolio?range=24h", keys.other),
    () => call("GET", "/trades?limit=20", keys.busy),
    () => call("GET", "/trades?status=confirmed&limit=20&offset=40", keys.busy),
    () => call("GET", "/orders?limit=20", keys.other),
    () => call("GET", "/alerts?limit=20", keys.other),
    () => call("GET", "/auth/api-keys", keys.other),
    () => call("GET", "/health")
  ]

  const trade = async () => {
    const n = ++sequence
    const sell = n % 2 === 0
    const body = {
      tokenIn: sell ? "SOL" : "USDC",
      tokenOut: sell ? "USDC" : "SOL",
      amountIn: sell ? "0.01" : "2",
      network: "solana",
      slippage: 5
    }
    const headers: Record<string, string> = n % 2 === 0 ? { "idempotency-key": `soak-${n}` } : {}
    const { status } = await call("POST", "/trades", keys.busy, body, headers)
    if (status === 201) busyTrades++
  }

  const orderRoundTrip = async () => {
    const { status, json } = await call("POST", "/orders", keys.other, {
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: "0.1",
      minAmountOut: "1000000",
      network: "solana"
    }, { "idempotency-key": `soak-order-${++sequence}` })
    if (status === 201) await call("DELETE", `/orders/${json.data.id}`, keys.other)
  }

  const alertRoundTrip = async () => {
    const { status, json } = await call("POST", "/alerts", keys.other, {
      type: "price",
      token: "SOL",
      condition: "above",
      targetPrice: 1_000_000,
      channel: "email"
    })
    if (status === 201) await call("DELETE", `/alerts/${json.data.id}`, keys.other)
  }

  const worker = async (index: number) => {
    let step = index
    while (performance.now() < deadline) {
      if (paused !== undefined) await paused
      step++
      // Per 10 steps: 5 trades of the busy account, one order or alert round trip, 4 reads (or 10 reads).
      const slot = options.readsOnly ? 9 : step % 10
      if (slot < 5) await trade()
      else if (slot === 5) await (step % 20 === 5 ? orderRoundTrip() : alertRoundTrip())
      else await readers[(step * 7 + index) % readers.length]!()
      if (busyTrades >= nextCheckpoint && paused === undefined) {
        const reached = nextCheckpoint
        nextCheckpoint += options.checkpoint
        let resume!: () => void
        paused = new Promise((resolve) => (resume = resolve))
        // Let the calls in flight finish, then measure on a quiet server.
        await new Promise((resolve) => setTimeout(resolve, 200))
        const p50Ms = await listTradesP50()
        tradesListP50Ms.push({ trades: reached, p50Ms })
        log(`soak: GET /v1/trades p50 ${p50Ms.toFixed(2)} ms at ${reached.toLocaleString("en-US")} trades`)
        paused = undefined
        resume()
      }
    }
  }

  // The clock: 30 s of market time every 100 ms of wall time, so trades settle and history grows.
  const clock = async () => {
    while (performance.now() < deadline) {
      if (paused !== undefined) await paused
      const { status } = await call("POST", "/sim/clock/advance", undefined, { ms: 30_000 })
      if (status === 200) marketMs += 30_000
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  const warmUpSeconds = Math.min(60, options.durationMs / 5_000)
  let rssWarmBytes = rssStartBytes
  const warmUp = setTimeout(() => (rssWarmBytes = rssOf(child.pid!)), warmUpSeconds * 1_000)
  const progress = setInterval(() => {
    const seconds = (performance.now() - startedAt) / 1000
    log(
      `soak: ${seconds.toFixed(0)} s, ${requests} requests, ${busyTrades} trades, RSS ${
        (rssOf(child.pid!) / 1e6).toFixed(1)
      } MB`
    )
  }, 60_000)
  try {
    await Promise.all([clock(), ...Array.from({ length: options.concurrency }, (_, i) => worker(i))])
  } finally {
    clearInterval(progress)
    clearTimeout(warmUp)
  }

  const sorted = latencies.sort((a, b) => a - b)
  const report: SoakReport = {
    seconds: (performance.now() - startedAt) / 1000,
    requests,
    errors,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    rssStartBytes,
    rssWarmBytes,
    warmUpSeconds,
    rssEndBytes: rssOf(child.pid!),
    heapStartBytes,
    heapEndBytes: await heapAfterGc(child),
    busyTrades,
    marketHours: marketMs / 3_600_000,
    tradesListP50Ms
  }
  log(formatReport(report))
  return report
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`

/** The report as printed. */
export const formatReport = (r: SoakReport): string => {
  const errors = Object.entries(r.errors).map(([label, count]) => `${label}: ${count}`).join(", ")
  return [
    `soak: ${r.seconds.toFixed(0)} s, ${r.requests} requests (${(r.requests / r.seconds).toFixed(0)}/s)`,
    `  errors: ${errors === "" ? "none" : errors}`,
    `  latency: p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`,
    `  RSS: ${mb(r.rssStartBytes)} at start, ${mb(r.rssEndBytes)} at end, ${
      ((r.rssEndBytes - r.rssStartBytes) / r.requests).toFixed(0)
    } bytes per request`,
    `  RSS after the warm-up (${r.warmUpSeconds.toFixed(0)} s): ${mb(r.rssWarmBytes)}, then ${
      (((r.rssEndBytes - r.rssWarmBytes) / r.rssWarmBytes) * 100).toFixed(1)
    }% to the end`,
    `  heap after a full collection: ${mb(r.heapStartBytes)} at start, ${mb(r.heapEndBytes)} at end, ${
      ((r.heapEndBytes - r.heapStartBytes) / r.requests).toFixed(0)
    } bytes per request${
      r.busyTrades > 0 ? `, ${((r.heapEndBytes - r.heapStartBytes) / r.busyTrades).toFixed(0)} per trade` : ""
    }`,
    `  trades of the busy account: ${r.busyTrades}; market time advanced: ${r.marketHours.toFixed(1)} h`,
    `  GET /v1/trades p50: ${
      r.tradesListP50Ms.map((c) => `${c.p50Ms.toFixed(2)} ms at ${c.trades.toLocaleString("en-US")}`).join(", ")
    }`
  ].join("\n")
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  let options: SoakOptions
  try {
    options = parseSoakArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
  await runSoak(options)
}
