/**
 * What keeping the records in a database costs a request: the standalone server
 * (`packages/server/src/main.ts`, as an operator starts it) on the in-memory store, on a SQLite file
 * and on PostgreSQL (when `SWAPDESK_TEST_POSTGRES_URL` names a database; a schema of its own, dropped
 * after), each in a child process of its own on the demo scenario with a manual clock, loaded in
 * turn by autocannon from this process:
 *
 * - an authenticated read: `GET /v1/trades/{id}` of a confirmed trade, with the Pro key (key lookup,
 *   account, the trade), and `GET /v1/portfolio` of the Free account (key lookup, account, the
 *   account's trade history of 50 confirmed trades; the wallets live in the simulator);
 * - trade creation: `POST /v1/trades` (a trade and its funds reserved, stored);
 * - alert creation: `POST /v1/alerts` (a price alert that never fires, stored).
 *
 * Each figure is a ratio of requests per second to the in-memory server's on the same route in the
 * same round (the rounds interleave the stores), the median over rounds; the server's CPU per
 * request (from /proc) is shown beside it. Targets (docs/performance.md): reads >= 0.8x on both SQL
 * stores, writes >= 0.3x on SQLite and >= 0.2x on PostgreSQL.
 *
 * Run alone with `node scripts/bench/store.ts`, or through `pnpm bench store`.
 */
import { demoKeys, demoScenario } from "@swapdesk/simulator"
import { SqlStore } from "@swapdesk/store"
import autocannon from "autocannon"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import {
  atLeast,
  type BenchResult,
  formatCount,
  formatRatio,
  median,
  printResult,
  reporter,
  type Row
} from "./Report.ts"

const BENCHMARK = "store"
const { progress, row } = reporter(BENCHMARK)
const mainPath = fileURLToPath(new URL("../../packages/server/src/main.ts", import.meta.url))
const authorization = `Bearer ${demoKeys.proAll}`
// The portfolio reads the account's whole trade history: read on the Free account, which the
// writes below (on the Pro one) leave alone, so that every round reads the same history.
const freeAuthorization = `Bearer ${demoKeys.freeAll}`

export interface StoreBenchOptions {
  readonly rounds: number
  readonly durationSeconds: number
  readonly connections: number
}

export const defaultStoreOptions: StoreBenchOptions = { rounds: 2, durationSeconds: 5, connections: 10 }

interface Server {
  readonly name: string
  readonly url: string
  readonly child: ChildProcess
  /** CPU the process used so far, in microseconds (user + system, from /proc). */
  readonly cpuMicros: () => number
}

const TICKS_PER_SECOND = 100

const start = (name: string, scenarioPath: string, databaseUrl: string): Promise<Server> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: scenarioPath, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (match === null) return
      child.stdout!.off("data", onData)
      child.stdout!.resume()
      child.stderr!.resume()
      resolve({
        name,
        url: match[1]!,
        child,
        cpuMicros: () => {
          // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised command): utime, stime.
          const stat = readFileSync(`/proc/${child.pid}/stat`, "utf8")
          const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
          return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1_000_000
        }
      })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code, signal) => {
      reject(new Error(`the ${name} server exited ${code} before listening:\n${output}`))
      // Dead during the measurement: say why, as the figures that follow cannot be taken.
      if (!child.killed) progress(`the ${name} server exited (${code ?? signal}):\n${output.slice(-3000)}`)
    })
  })

const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    if (server.child.exitCode !== null) return resolve()
    server.child.once("exit", () => resolve())
    server.child.kill("SIGTERM")
  })

const call = async (url: string, method: string, body?: unknown, as: string = authorization) => {
  const response = await fetch(url, {
    method,
    headers: { authorization: as, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text}`)
  return JSON.parse(text) as { readonly data: Record<string, unknown> }
}

const tradeBody = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "0.01", network: "solana" }
const alertBody = { type: "price", token: "SOL", condition: "above", targetPrice: 1_000_000_000, channel: "email" }

/** A trade taken to `confirmed` on the server's manual clock; answers its id. */
const confirmedTrade = async (server: Server): Promise<string> => {
  const id = String((await call(`${server.url}/v1/trades`, "POST", tradeBody)).data["id"])
  await call(`${server.url}/v1/sim/clock/advance`, "POST", { ms: 120_000 })
  const status = (await call(`${server.url}/v1/trades/${id}`, "GET")).data["status"]
  if (status !== "confirmed") throw new Error(`the ${server.name} server's trade ${id} is ${String(status)}`)
  return id
}

/** How many confirmed trades the Free account's history holds when the portfolio is read. */
const FREE_HISTORY_TRADES = 50

/** Gives the Free account a history of {@link FREE_HISTORY_TRADES} confirmed trades. */
const freeHistory = async (server: Server): Promise<void> => {
  for (let i = 0; i < FREE_HISTORY_TRADES; i++) {
    await call(`${server.url}/v1/trades`, "POST", tradeBody, freeAuthorization)
  }
  await call(`${server.url}/v1/sim/clock/advance`, "POST", { ms: 120_000 })
  const page = await call(`${server.url}/v1/trades?status=confirmed&limit=100`, "GET", undefined, freeAuthorization)
  if (page.data["total"] !== FREE_HISTORY_TRADES) {
    throw new Error(`the ${server.name} server's Free account has ${String(page.data["total"])} confirmed trades`)
  }
}

/** A `POST` of `body` as JSON with the Pro key. */
const postJson = (url: string, body: unknown): autocannon.Options => ({
  url,
  method: "POST",
  headers: { authorization, "content-type": "application/json" },
  body: JSON.stringify(body)
})

interface Route {
  readonly name: string
  readonly kind: "read" | "write"
  readonly request: (server: Server, tradeId: string) => autocannon.Options
}

const routes: ReadonlyArray<Route> = [
  {
    name: "GET /v1/trades/{id} (confirmed), Bearer",
    kind: "read",
    request: (server, tradeId) => ({ url: `${server.url}/v1/trades/${tradeId}`, headers: { authorization } })
  },
  {
    name: "GET /v1/portfolio (Free account), Bearer",
    kind: "read",
    request: (server) => ({ url: `${server.url}/v1/portfolio`, headers: { authorization: freeAuthorization } })
  },
  {
    name: "POST /v1/trades",
    kind: "write",
    request: (server) => postJson(`${server.url}/v1/trades`, tradeBody)
  },
  {
    name: "POST /v1/alerts",
    kind: "write",
    request: (server) => postJson(`${server.url}/v1/alerts`, alertBody)
  }
]

interface Measurement {
  readonly requestsPerSecond: number
  readonly cpuMicrosPerRequest: number
  readonly failures: number
}

const load = async (server: Server, options: autocannon.Options): Promise<Measurement> => {
  const before = server.cpuMicros()
  const result = await autocannon(options)
  const requests = Math.max(1, result.requests.total)
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: (server.cpuMicros() - before) / requests,
    failures: result.non2xx + result.errors + result.timeouts
  }
}

/** The Postgres URL of a fresh schema in `base`'s database, and how to drop it. */
const postgresSchema = async (base: string) => {
  const schema = `swapdesk_bench_${process.pid}`
  const admin = (statement: string) =>
    Effect.runPromise(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(statement)
      }).pipe(Effect.provide(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(base))), Effect.orDie)
    )
  await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await admin(`CREATE SCHEMA ${schema}`)
  const url = new URL(base)
  url.searchParams.set("options", `-c search_path=${schema}`)
  return { url: url.toString(), drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) }
}

const targetOf = (route: Route, store: string) => {
  if (store === "memory") return undefined
  if (route.kind === "read") return atLeast(0.8, ">= 0.8x")
  return store === "sqlite" ? atLeast(0.3, ">= 0.3x") : atLeast(0.2, ">= 0.2x")
}

export const runStoreBench = async (options: StoreBenchOptions = defaultStoreOptions): Promise<BenchResult> => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-bench-store-"))
  const scenarioPath = join(directory, "scenario.json")
  writeFileSync(
    scenarioPath,
    JSON.stringify({ ...demoScenario, clock: { mode: "manual", start: "2026-01-01T00:00:00Z" }, rateLimits: false })
  )
  const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
  const notes: Array<string> = []
  const postgres = postgresUrl === undefined ? undefined : await postgresSchema(postgresUrl)
  if (postgres === undefined) {
    notes.push(
      "PostgreSQL skipped: set SWAPDESK_TEST_POSTGRES_URL=postgres://user:pass@127.0.0.1:5432/db " +
        "(`SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) pnpm bench store` installs and starts one)"
    )
    progress(notes[0]!)
  }
  const servers: Array<Server> = []
  try {
    progress(
      "starting the servers (demo scenario, manual clock): memory, sqlite" +
        (postgres === undefined ? "" : ", postgres")
    )
    servers.push(await start("memory", scenarioPath, ""))
    servers.push(await start("sqlite", scenarioPath, `sqlite:${join(directory, "bench.db")}`))
    if (postgres !== undefined) servers.push(await start("postgres", scenarioPath, postgres.url))
    const tradeIds = new Map<Server, string>()
    for (const server of servers) {
      await freeHistory(server)
      tradeIds.set(server, await confirmedTrade(server))
    }
    const measured = new Map<string, Array<Measurement>>()
    for (let round = 1; round <= options.rounds; round++) {
      for (const route of routes) {
        for (const server of servers) {
          progress(
            `round ${round}/${options.rounds}, ${route.name} on ${server.name}: ${options.durationSeconds} s`
          )
          const request = { ...route.request(server, tradeIds.get(server)!), connections: options.connections }
          // Warm-up: the JIT, and the caches' first reads.
          await load(server, { ...request, duration: 1 })
          const key = `${route.name}|${server.name}`
          measured.set(key, [
            ...(measured.get(key) ?? []),
            await load(server, { ...request, duration: options.durationSeconds })
          ])
        }
      }
    }
    const rows: Array<Row> = []
    for (const route of routes) {
      const base = measured.get(`${route.name}|memory`)!
      for (const server of servers) {
        const runs = measured.get(`${route.name}|${server.name}`)!
        const failures = runs.reduce((sum, m) => sum + m.failures, 0)
        const cpu = median(runs.map((m) => m.cpuMicrosPerRequest)).toFixed(0)
        const rate = `${formatCount(median(runs.map((m) => m.requestsPerSecond)))} req/s, ${cpu} µs CPU`
        if (server.name === "memory") {
          rows.push(row(`${route.name}, memory`, rate))
        } else {
          const ratio = median(runs.map((m, round) => m.requestsPerSecond / base[round]!.requestsPerSecond))
          const target = targetOf(route, server.name)
          rows.push(row(`  ${server.name}, ratio to memory`, `${formatRatio(ratio)} (${rate})`, {
            value: ratio,
            ...(target === undefined ? {} : { target })
          }))
        }
        if (failures > 0) {
          rows.push(row("  non-2xx, errors, timeouts", formatCount(failures)))
        }
      }
    }
    notes.push(
      `store: ${options.connections} connections, ${options.durationSeconds} s per route per store per round, ` +
        `${options.rounds} rounds (ratios taken within a round, medians); CPU per request is the server process's`
    )
    return { rows, notes }
  } finally {
    await Promise.all(servers.map(stop))
    await postgres?.drop()
    rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.main) printResult(await runStoreBench())
