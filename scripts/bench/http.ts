/**
 * The HTTP benchmark: requests per second and p99 latency of the public market-data route and the
 * authenticated trade read, each as a ratio to a raw `node:http` server answering the same bytes,
 * measured in the same run.
 *
 * The servers run in a child process (`serverProcess.ts`) and autocannon in this one. On a
 * two-core machine that gives the server one core and the load generator the other; with both in
 * one process the load generator's work would be charged to the server, and autocannon's
 * `workers` would only add threads competing for the same two cores. Each phase also records the
 * CPU the server process and this process used: a server below ~90% of a core was not the
 * bottleneck (the load generator was), and the table says so.
 *
 * Targets run interleaved (raw, market data, trade read) for `rounds` rounds; a ratio is taken
 * within a round, against that round's raw figure, and the table shows medians over rounds.
 *
 * Run alone with `node scripts/bench/http.ts`, or through `pnpm bench http`.
 */
import { demoKeys } from "@swapdesk/simulator"
import autocannon from "autocannon"
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { atLeast, formatCount, formatRatio, formatTable, median, progress, type Row } from "./Report.ts"
import { MARKET_DATA_PATH, type ServerReply, type ServerRequest } from "./ServerProtocol.ts"

const BENCHMARK = "http"

export interface HttpOptions {
  readonly rounds: number
  /** Seconds of load before each measurement (the first round's is doubled: cold JIT). */
  readonly warmUpSeconds: number
  readonly durationSeconds: number
  readonly connections: number
}

export const defaultHttpOptions: HttpOptions = { rounds: 2, warmUpSeconds: 1, durationSeconds: 8, connections: 10 }

type Usage = Extract<ServerReply, { type: "usage" }>
type Ready = Extract<ServerReply, { type: "ready" }>

/** The server process, started and ready. */
export interface Servers {
  readonly apiUrl: string
  readonly rawUrl: string
  readonly bodyBytes: number
  readonly usage: () => Promise<Usage>
  readonly profileStart: () => void
  readonly profileStop: (file: string) => Promise<void>
  readonly stop: () => Promise<void>
}

const nextReply = <T extends ServerReply["type"]>(child: ChildProcess, type: T) =>
  new Promise<Extract<ServerReply, { type: T }>>((resolve, reject) => {
    const onMessage = (message: ServerReply) => {
      if (message.type !== type) return
      child.off("message", onMessage)
      child.off("exit", onExit)
      resolve(message as Extract<ServerReply, { type: T }>)
    }
    const onExit = (code: number | null) => reject(new Error(`the bench server exited (${code}) before "${type}"`))
    child.on("message", onMessage)
    child.once("exit", onExit)
  })

export const startServers = async (): Promise<Servers> => {
  const child = fork(fileURLToPath(new URL("serverProcess.ts", import.meta.url)), [], {
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const send = (message: ServerRequest) => child.send(message)
  const ready: Ready = await nextReply(child, "ready")
  return {
    apiUrl: ready.apiUrl,
    rawUrl: ready.rawUrl,
    bodyBytes: ready.bodyBytes,
    usage: () => {
      const reply = nextReply(child, "usage")
      send({ type: "usage" })
      return reply
    },
    profileStart: () => send({ type: "profileStart" }),
    profileStop: async (file) => {
      const reply = nextReply(child, "profileSaved")
      send({ type: "profileStop", file })
      await reply
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        send({ type: "stop" })
      })
  }
}

/** The Pro demo key, with every scope. */
export const proKey = demoKeys.proAll

/** Creates the trade the authenticated read reads; answers its id. */
export const createTrade = async (apiUrl: string): Promise<string> => {
  const response = await fetch(`${apiUrl}/v1/trades`, {
    method: "POST",
    headers: { authorization: `Bearer ${proKey}`, "content-type": "application/json" },
    body: JSON.stringify({ tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" })
  })
  const text = await response.text()
  if (response.status !== 201) throw new Error(`POST /v1/trades answered ${response.status}: ${text}`)
  return (JSON.parse(text) as { data: { id: string } }).data.id
}

export interface LoadTarget {
  readonly name: string
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
}

export const targetsOf = (servers: Servers, tradeId: string): ReadonlyArray<LoadTarget> => [
  { name: "raw node:http (same body)", url: `${servers.rawUrl}${MARKET_DATA_PATH}` },
  { name: `GET ${MARKET_DATA_PATH}`, url: `${servers.apiUrl}${MARKET_DATA_PATH}` },
  {
    name: "GET /v1/trades/{id} (Bearer)",
    url: `${servers.apiUrl}/v1/trades/${tradeId}`,
    headers: { authorization: `Bearer ${proKey}` }
  }
]

/** Fails loudly when a target does not answer 200: a benchmark of error responses measures nothing. */
export const checkTarget = async (target: LoadTarget): Promise<void> => {
  const response = await fetch(target.url, target.headers === undefined ? {} : { headers: target.headers })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${target.name} answered ${response.status}: ${text}`)
}

export interface Measurement {
  readonly requestsPerSecond: number
  readonly p99Ms: number
  /** Responses other than 2xx, errors and timeouts. */
  readonly failures: number
  /** CPU the server process used, as a share of one core. */
  readonly serverCpu: number
  /** CPU this process (autocannon) used, as a share of one core. */
  readonly loadCpu: number
}

export const load = async (
  servers: Servers,
  target: LoadTarget,
  seconds: number,
  connections: number
): Promise<Measurement> => {
  const serverBefore = await servers.usage()
  const ownBefore = process.cpuUsage()
  const started = performance.now()
  const result = await autocannon({
    url: target.url,
    connections,
    pipelining: 1,
    duration: seconds,
    ...(target.headers === undefined ? {} : { headers: target.headers })
  })
  const wallMs = performance.now() - started
  const own = process.cpuUsage(ownBefore)
  const serverAfter = await servers.usage()
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    serverCpu: (serverAfter.cpuMicros - serverBefore.cpuMicros) / 1_000 / (serverAfter.wallMs - serverBefore.wallMs),
    loadCpu: (own.user + own.system) / 1_000 / wallMs
  }
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`

export const runHttpBench = async (options: HttpOptions = defaultHttpOptions): Promise<ReadonlyArray<Row>> => {
  progress("http: starting the servers (demo scenario, manual clock) in a child process")
  const servers = await startServers()
  try {
    const tradeId = await createTrade(servers.apiUrl)
    const targets = targetsOf(servers, tradeId)
    for (const target of targets) await checkTarget(target)
    const measured = targets.map(() => [] as Array<Measurement>)
    for (let round = 1; round <= options.rounds; round++) {
      for (const [index, target] of targets.entries()) {
        const warmUp = options.warmUpSeconds * (round === 1 ? 2 : 1)
        progress(
          `http: round ${round}/${options.rounds}, ${target.name}: ${warmUp} s warm-up, ${options.durationSeconds} s`
        )
        await load(servers, target, warmUp, options.connections)
        measured[index]!.push(await load(servers, target, options.durationSeconds, options.connections))
      }
    }
    const raw = measured[0]!
    const rows: Array<Row> = []
    const row = (metric: string, shown: string, extra: Partial<Row> = {}) =>
      rows.push({ benchmark: BENCHMARK, metric, shown, ...extra })
    const minimumRatio = [undefined, 0.5, 0.35]
    for (const [index, target] of targets.entries()) {
      const runs = measured[index]!
      const failures = runs.reduce((sum, m) => sum + m.failures, 0)
      row(target.name, `${formatCount(median(runs.map((m) => m.requestsPerSecond)))} req/s`)
      row("  p99 latency", `${median(runs.map((m) => m.p99Ms)).toFixed(1)} ms`)
      row(
        "  CPU: server / load generator",
        `${percent(median(runs.map((m) => m.serverCpu)))} / ${percent(median(runs.map((m) => m.loadCpu)))}`
      )
      if (failures > 0) row("  non-2xx, errors, timeouts", formatCount(failures))
      const limit = minimumRatio[index]
      if (limit !== undefined) {
        const ratio = median(runs.map((m, round) => m.requestsPerSecond / raw[round]!.requestsPerSecond))
        row("  ratio to raw", formatRatio(ratio), { value: ratio, target: atLeast(limit, `>= ${limit}x`) })
      }
    }
    const rawServerCpu = median(raw.map((m) => m.serverCpu))
    if (rawServerCpu < 0.9) {
      row(
        "note",
        `raw server at ${percent(rawServerCpu)} CPU: load-generator bound, so ratios to raw are optimistic`
      )
    }
    row(
      "settings",
      `${options.connections} conn, ${options.durationSeconds} s x ${options.rounds}, ${servers.bodyBytes} B`
    )
    return rows
  } finally {
    await servers.stop()
  }
}

if (import.meta.main) {
  console.log(formatTable(await runHttpBench()))
}
