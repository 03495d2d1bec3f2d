/**
 * The HTTP benchmark: requests per second, p99 latency and server CPU per request of the public
 * market-data route and the authenticated trade read, as ratios to baselines measured in the same
 * run: a raw `node:http` server answering the same bytes (the targets are set against it), the same
 * server answering them from one Effect fiber per request (Effect's runtime without its HTTP
 * server), an `effect/http` router answering them (the floor of the platform swapdesk is built on),
 * and one `effect/http-api` endpoint answering them, served once by Effect's `HttpApiBuilder` and
 * once by swapdesk's `ApiRoutes` (what serving a definition adds), so the gap splits into the
 * runtime's part, the HTTP platform's, the definition's and swapdesk's own.
 *
 * The servers run in child processes (`serverProcess.ts`) and autocannon in this one. On a
 * two-core machine that gives the server one core and the load generator the other; with both in
 * one process they would share one event loop, and autocannon's `workers` would only add threads
 * competing for the same two cores. Every server has a process of its own: a production server runs
 * nothing else, and loading the floors in the swapdesk server's process made its routes 5-15%
 * slower, and the floors each other about 10% (Effect's runtime, shared by all of them, compiled
 * for every shape it had seen). Each phase records how busy the server's event loop was (near 100%:
 * the server was the bottleneck, not the load generator), the CPU the server's process and this one
 * used, and the server's CPU time per response, which stays comparable when other work shares the
 * machine.
 *
 * Targets run interleaved (raw, the four floors, health, market data, trade read) for `rounds`
 * rounds; a ratio is taken within a round, against that round's baseline, and the table shows
 * medians over rounds.
 *
 * Run alone with `node scripts/bench/http.ts`, or through `pnpm bench http`.
 */
import { demoKeys } from "@swapdesk/simulator"
import autocannon from "autocannon"
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { atLeast, formatCount, formatRatio, median, printResult, reporter } from "./Report.ts"
import type { BenchResult, Row } from "./Report.ts"
import { MARKET_DATA_PATH, type ServerKind, type ServerReply, type ServerRequest } from "./ServerProtocol.ts"

const { progress, row } = reporter("http")

export interface HttpOptions {
  readonly rounds: number
  /** Seconds of load before each measurement (the first round's is doubled: cold JIT). */
  readonly warmUpSeconds: number
  readonly durationSeconds: number
  readonly connections: number
}

export const defaultHttpOptions: HttpOptions = { rounds: 2, warmUpSeconds: 1, durationSeconds: 8, connections: 10 }

type Usage = Extract<ServerReply, { type: "usage" }>

/** One server process, started and ready (`serverProcess.ts`). */
export interface ServerProcess {
  /** Where its server listens. */
  readonly url: string
  readonly usage: () => Promise<Usage>
  readonly profileStart: () => void
  readonly profileStop: (file: string) => Promise<void>
  readonly stop: () => Promise<void>
}

/** Every server process, started and ready. */
export type Servers = { readonly [Kind in ServerKind]: ServerProcess } & {
  readonly bodyBytes: number
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

/** Starts `kind`'s server in a process of its own; `body` is what every kind but `api` answers. */
const startServerProcess = async (kind: ServerKind, body?: Uint8Array): Promise<ServerProcess> => {
  const args = body === undefined ? [kind] : [kind, Buffer.from(body).toString("base64")]
  const child = fork(fileURLToPath(new URL("serverProcess.ts", import.meta.url)), args, {
    execArgv: [],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const send = (message: ServerRequest) => child.send(message)
  const { url } = await nextReply(child, "ready")
  return {
    url,
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

/**
 * Starts the swapdesk server, reads the market-data bytes it answers, then the processes that
 * answer those bytes.
 */
export const startServers = async (): Promise<Servers> => {
  const api = await startServerProcess("api")
  const response = await fetch(`${api.url}${MARKET_DATA_PATH}`)
  if (response.status !== 200) throw new Error(`GET ${MARKET_DATA_PATH} answered ${response.status}`)
  const body = new Uint8Array(await response.arrayBuffer())
  const start = (kind: Exclude<ServerKind, "api">) => startServerProcess(kind, body)
  const [raw, runtime, router, apiBuilder, apiRoutes] = await Promise.all([
    start("raw"),
    start("runtime"),
    start("router"),
    start("apiBuilder"),
    start("apiRoutes")
  ])
  const processes = { api, raw, runtime, router, apiBuilder, apiRoutes }
  return {
    ...processes,
    bodyBytes: body.byteLength,
    stop: async () => {
      await Promise.all(Object.values(processes).map((server) => server.stop()))
    }
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
  /** The process the server answering `url` runs in. */
  readonly server: ServerProcess
  readonly headers?: Readonly<Record<string, string>>
  /** The least share of the raw server's req/s the route should reach. */
  readonly minimumRatioToRaw?: number
}

/** The trade the swapdesk server's authenticated read reads. */
export interface TradeIds {
  readonly apiRoutes: string
}

/** Creates the trade the server's authenticated read reads. */
export const createTrades = async (servers: Servers): Promise<TradeIds> => ({
  apiRoutes: await createTrade(servers.api.url)
})

/**
 * Baselines first: raw `node:http`, then Effect's runtime on it, the `effect/http` and the two
 * HttpApi floors, then the swapdesk routes: health (the cheapest) and the two the targets hold.
 */
export const targetsOf = (servers: Servers, tradeIds: TradeIds) =>
  ({
    raw: { name: "raw node:http, same body", url: `${servers.raw.url}${MARKET_DATA_PATH}`, server: servers.raw },
    runtime: {
      name: "node:http, an Effect fiber per request, same body",
      url: `${servers.runtime.url}${MARKET_DATA_PATH}`,
      server: servers.runtime
    },
    floor: {
      name: "effect/http router, same body",
      url: `${servers.router.url}${MARKET_DATA_PATH}`,
      server: servers.router
    },
    apiFloor: {
      name: "HttpApiBuilder, one endpoint, same body",
      url: `${servers.apiBuilder.url}${MARKET_DATA_PATH}`,
      server: servers.apiBuilder
    },
    routesFloor: {
      name: "ApiRoutes, one endpoint, same body",
      url: `${servers.apiRoutes.url}${MARKET_DATA_PATH}`,
      server: servers.apiRoutes
    },
    // No input, no key, nothing of the domain: what every answer of the API costs (admission, the
    // rate limiter, the envelope, the stamp), to set beside the two routes the targets hold.
    health: { name: "GET /v1/health", url: `${servers.api.url}/v1/health`, server: servers.api },
    marketData: {
      name: `GET ${MARKET_DATA_PATH}`,
      url: `${servers.api.url}${MARKET_DATA_PATH}`,
      server: servers.api,
      minimumRatioToRaw: 0.6
    },
    tradeRead: {
      name: "GET /v1/trades/{id}, Bearer",
      url: `${servers.api.url}/v1/trades/${tradeIds.apiRoutes}`,
      server: servers.api,
      headers: { authorization: `Bearer ${proKey}` },
      minimumRatioToRaw: 0.5
    }
  }) satisfies Record<string, LoadTarget>

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
  /** Share of the time the server's event loop was busy: near 1, the server was the bottleneck. */
  readonly serverLoop: number
  /**
   * Server CPU time per response, in microseconds: what a request costs, almost independent of how
   * much of a core the server got, so it stays comparable when the shared machine is busy.
   */
  readonly cpuMicrosPerRequest: number
}

export const load = async (
  target: LoadTarget,
  seconds: number,
  connections: number
): Promise<Measurement> => {
  const serverBefore = await target.server.usage()
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
  const serverAfter = await target.server.usage()
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    serverCpu: (serverAfter.cpuMicros - serverBefore.cpuMicros) / 1_000 / (serverAfter.wallMs - serverBefore.wallMs),
    loadCpu: (own.user + own.system) / 1_000 / wallMs,
    cpuMicrosPerRequest: (serverAfter.cpuMicros - serverBefore.cpuMicros) / Math.max(1, result.requests.total),
    serverLoop: (serverAfter.loopActiveMs - serverBefore.loopActiveMs) /
      (serverAfter.loopActiveMs + serverAfter.loopIdleMs - serverBefore.loopActiveMs - serverBefore.loopIdleMs)
  }
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`

export const runHttpBench = async (options: HttpOptions = defaultHttpOptions): Promise<BenchResult> => {
  progress("starting the servers (demo scenario, manual clock) in a child process")
  const servers = await startServers()
  try {
    const byName = targetsOf(servers, await createTrades(servers))
    const targets: ReadonlyArray<LoadTarget> = [
      byName.raw,
      byName.runtime,
      byName.floor,
      byName.apiFloor,
      byName.routesFloor,
      byName.health,
      byName.marketData,
      byName.tradeRead
    ]
    for (const target of targets) await checkTarget(target)
    const measured = new Map(targets.map((target) => [target, [] as Array<Measurement>]))
    for (let round = 1; round <= options.rounds; round++) {
      for (const target of targets) {
        const warmUp = options.warmUpSeconds * (round === 1 ? 2 : 1)
        progress(
          `round ${round}/${options.rounds}, ${target.name}: ${warmUp} s warm-up, ${options.durationSeconds} s`
        )
        await load(target, warmUp, options.connections)
        measured.get(target)!.push(await load(target, options.durationSeconds, options.connections))
      }
    }
    const raw = measured.get(byName.raw)!
    const floor = measured.get(byName.floor)!
    const apiFloor = measured.get(byName.apiFloor)!
    const routesFloor = measured.get(byName.routesFloor)!
    /** The median over rounds of a ratio taken within each round. */
    const ratioTo = (runs: ReadonlyArray<Measurement>, base: ReadonlyArray<Measurement>) =>
      median(runs.map((m, round) => m.requestsPerSecond / base[round]!.requestsPerSecond))
    const rows: Array<Row> = []
    const add = (metric: string, shown: string, extra: Partial<Row> = {}) => rows.push(row(metric, shown, extra))
    for (const target of targets) {
      const runs = measured.get(target)!
      const failures = runs.reduce((sum, m) => sum + m.failures, 0)
      add(target.name, `${formatCount(median(runs.map((m) => m.requestsPerSecond)))} req/s`)
      const p99 = median(runs.map((m) => m.p99Ms))
      add("  p99 latency", p99 < 1 ? "< 1 ms" : `${p99.toFixed(0)} ms`)
      add("  server CPU per request", `${median(runs.map((m) => m.cpuMicrosPerRequest)).toFixed(1)} µs`)
      const share = (of: (m: Measurement) => number) => percent(median(runs.map(of)))
      add(
        "  busy: server loop / server CPU / autocannon CPU",
        `${share((m) => m.serverLoop)} / ${share((m) => m.serverCpu)} / ${share((m) => m.loadCpu)}`
      )
      if (failures > 0) add("  non-2xx, errors, timeouts", formatCount(failures))
      if (target !== byName.raw) {
        const ratio = ratioTo(runs, raw)
        const limit = target.minimumRatioToRaw
        add(
          "  ratio to raw",
          formatRatio(ratio),
          limit === undefined ? {} : {
            value: ratio,
            target: atLeast(limit, `>= ${limit}x`)
          }
        )
        // The median hides how far apart the rounds were; a target held in every round is held with margin.
        if (limit !== undefined && runs.length > 1) {
          add(
            "  ratio to raw in each round",
            runs.map((m, round) => formatRatio(m.requestsPerSecond / raw[round]!.requestsPerSecond)).join(" ")
          )
        }
      }
      if (target !== byName.raw && target !== byName.runtime && target !== byName.floor) {
        add("  ratio to effect/http floor", formatRatio(ratioTo(runs, floor)))
      }
      if (target === byName.routesFloor) {
        add("  ratio to HttpApiBuilder floor", formatRatio(ratioTo(runs, apiFloor)))
      }
      if (target === byName.health || target === byName.marketData || target === byName.tradeRead) {
        add("  ratio to ApiRoutes floor", formatRatio(ratioTo(runs, routesFloor)))
      }
    }
    const notes: Array<string> = [
      `${options.connections} connections, pipelining 1, ${options.durationSeconds} s per target per round, ` +
      `${options.rounds} rounds (medians; ratios taken within a round); response body ${servers.bodyBytes} bytes; ` +
      "p99 has autocannon's 1 ms resolution"
    ]
    const rawLoop = median(raw.map((m) => m.serverLoop))
    if (rawLoop < 0.9) {
      notes.push(
        `the raw server's event loop was busy ${percent(rawLoop)} of the time: the load generator limited it, ` +
          "so its req/s is a lower bound and the ratios to raw flatter the swapdesk routes"
      )
    }
    const starved = targets.filter((target) => {
      const runs = measured.get(target)!
      return median(runs.map((m) => m.serverCpu)) < 0.8 * median(runs.map((m) => m.serverLoop))
    })
    if (starved.length > 0) {
      notes.push(
        `the server got much less CPU than its busy event loop asked for (${starved.map((t) => t.name).join("; ")}): ` +
          "other processes were using the machine; compare CPU per request rather than req/s"
      )
    }
    return { rows, notes }
  } finally {
    await servers.stop()
  }
}

if (import.meta.main) printResult(await runHttpBench())
