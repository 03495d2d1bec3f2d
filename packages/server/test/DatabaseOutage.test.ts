// Proves that a database failing under a running server is answered cleanly and survived, in a real
// child process on PostgreSQL (SWAPDESK_TEST_POSTGRES_URL): while clients create trades and alerts
// and read lists, the test terminates every connection of the server (pg_terminate_backend, by the
// application name its URL sets), again and again until ten requests have failed. Every answer is then
// 2xx or the contract's 500 INTERNAL_ERROR envelope, none carries a stack, SQL or a table name; the
// server keeps running, answers every kind of request again once the terminations stop, and still
// holds the database: a second simulator server is refused.
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { refused, start, stop } from "./databaseServer.ts"
import { keys } from "./harness.ts"
import { type Answer, eventually, request, withPostgresSchemas } from "./restartRun.ts"

const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
const skipPostgres = postgresUrl === undefined
  ? " (skipped: no PostgreSQL; export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) to run it, docs/storage.md)"
  : ""
/** Requests the terminations must have failed before they stop: the outage lasts until it has bitten this often. */
const FAILED_REQUESTS = 10
/** Past this, an outage that fails no request is a test failure. */
const OUTAGE_LIMIT_MS = 20_000

const tradeBody = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "0.01", network: "solana" }
const alertBody = { type: "price", token: "SOL", condition: "below", targetPrice: 1, channel: "email" }

// What must never reach a client: the store's tables, SQL, the driver's words, a stack.
const leaks = /swapdesk_|select |insert |update |pg_|sqlerror|terminat|postgres|\n\s+at /i

const outage = async (base: string) => {
  const applicationName = `swapdesk_outage_${process.pid}`
  const url = new URL(base)
  url.searchParams.set("application_name", applicationName)
  const databaseUrl = url.toString()
  const admin = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl!))))
  const terminate = () =>
    admin.runPromise(Effect.orDie(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Chosen first, terminated after: in one statement the database may try others on the way.
      const sessions = yield* sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity
        WHERE application_name = ${applicationName}`
      for (const { pid } of sessions) yield* sql`SELECT pg_terminate_backend(${pid})`
      return sessions
    })))
  const server = await start(databaseUrl)
  try {
    expect((await request(server.baseUrl, "POST", "/v1/trades", tradeBody)).status).toBe(201)
    const load = { on: true }
    const answers: Array<Answer> = []
    // A request the server never answers (it died) is kept as status 0.
    const client = async (method: string, path: string, body?: unknown, key?: string) => {
      while (load.on) {
        answers.push(await request(server.baseUrl, method, path, body, key).catch(() => ({ status: 0, body: null })))
      }
    }
    const clients = [
      client("POST", "/v1/trades", tradeBody),
      client("POST", "/v1/alerts", alertBody, keys.bobAll),
      client("GET", "/v1/trades?limit=5"),
      client("GET", "/v1/alerts?limit=5", undefined, keys.bobAll)
    ]
    let terminated = 0
    try {
      const limit = Date.now() + OUTAGE_LIMIT_MS
      while (answers.filter((answer) => answer.status >= 300).length < FAILED_REQUESTS && Date.now() < limit) {
        terminated += (await terminate()).length
        // A moment for the server to open connections again and the clients to use them.
        await new Promise((resolve) => setTimeout(resolve, 30))
      }
    } finally {
      load.on = false
      await Promise.all(clients)
    }
    expect(terminated).toBeGreaterThan(0)

    const failed = answers.filter((answer) => answer.status >= 300)
    // The terminations did reach requests: some failed, and only as the envelope says.
    expect(failed.length).toBeGreaterThanOrEqual(FAILED_REQUESTS)
    for (const answer of failed) {
      expect(answer.status).toBe(500)
      expect(answer.body).toEqual({
        success: false,
        error: { code: "INTERNAL_ERROR", message: expect.stringMatching(/^something went wrong; quote request id/) },
        timestamp: expect.any(String)
      })
      expect(JSON.stringify(answer.body)).not.toMatch(leaks)
    }
    expect(answers.every((answer) => answer.status < 300 || answer.status === 500)).toBe(true)

    // Once the database answers again, so does every route.
    await eventually("the server to answer again", async () => {
      const [trade, alert, trades] = await Promise.all([
        request(server.baseUrl, "POST", "/v1/trades", tradeBody),
        request(server.baseUrl, "POST", "/v1/alerts", alertBody, keys.bobAll),
        request(server.baseUrl, "GET", "/v1/trades?limit=5")
      ])
      return trade.status === 201 && alert.status === 201 && trades.status === 200
    })
    expect(server.child.exitCode).toBeNull()
    // Its connections were all cut, the one holding the simulator lock too: it holds it again.
    const second = await refused(databaseUrl)
    expect(second.code).toBe(1)
    expect(second.output).toMatch(/another swapdesk simulator server is using it/)
  } finally {
    await stop(server)
    await admin.dispose()
  }
}

describe("a database failing under a running server", () => {
  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: answers the error envelope, leaks nothing, recovers and keeps the database${skipPostgres}`,
    () => withPostgresSchemas(postgresUrl!, ["outage"], ([url]) => outage(url!)),
    60_000
  )
})
