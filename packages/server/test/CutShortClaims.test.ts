// Proves that a restart settles the Idempotency-Key claims a crash left without a response, in real
// child processes on a SQLite file and on PostgreSQL (SWAPDESK_TEST_POSTGRES_URL). A server answers
// a trade, a refused trade and a limit order, each with a key, and is killed with kill -9; the
// database is then left as crashes at two other moments would leave it: those three claims without
// their responses (the calls ran and are journaled, the answers never stored) and a fourth claim
// with no journal entry (the request died before its call ran). After a restart, a retry of each of
// the first three gets the original answer, byte for byte (status, body, the same ids, nothing run
// twice), and a retry of the fourth runs afresh: a new trade, not a 409.
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { crash, start, stop, workDir } from "./databaseServer.ts"
import { keys } from "./harness.ts"
import { ok, request, withPostgresSchemas } from "./restartRun.ts"

const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
const skipPostgres = postgresUrl === undefined
  ? " (skipped: no PostgreSQL; export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) to run it, docs/storage.md)"
  : ""

const tradeBody = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "10", network: "solana" }
// More USDC than Alice holds: 422 INSUFFICIENT_BALANCE, journaled and kept like a success.
const refusedBody = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "999999", network: "solana" }
const orderBody = {
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: "2",
  minAmountOut: "400",
  network: "solana",
  expiresAt: "2026-01-02T00:00:00.000Z"
}

/** Runs statements on the database while no server runs on it. */
const onDatabase = async <A>(databaseUrl: string, body: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) => {
  const runtime = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(databaseUrl))))
  try {
    return await runtime.runPromise(Effect.orDie(Effect.gen(function*() {
      return yield* body(yield* SqlClient.SqlClient)
    })))
  } finally {
    await runtime.dispose()
  }
}

interface ClaimRow {
  readonly idempotency_key: string
  readonly fingerprint: string
  readonly claimed_at: number | string
  readonly response_status: number | string | null
}

const claims = (databaseUrl: string) =>
  onDatabase(
    databaseUrl,
    (sql) =>
      sql<ClaimRow>`SELECT idempotency_key, fingerprint, claimed_at, response_status FROM swapdesk_idempotency
      WHERE account_id = 'acct_alice' ORDER BY idempotency_key`
  )

const post = (baseUrl: string, body: unknown, key: string, path = "/v1/trades") =>
  fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keys.aliceAll}`,
      "content-type": "application/json",
      "idempotency-key": key,
      connection: "close"
    },
    body: JSON.stringify(body)
  }).then(async (response) => ({
    status: response.status,
    replayed: response.headers.get("idempotent-replayed"),
    body: JSON.parse(await response.text())
  }))

const settlesCutShortClaims = async (databaseUrl: string) => {
  const first = await start(databaseUrl)
  const answered = await post(first.baseUrl, tradeBody, "key-ran")
  const refused = await post(first.baseUrl, refusedBody, "key-refused")
  const order = await post(first.baseUrl, orderBody, "key-order", "/v1/orders")
  expect(order.status).toBe(201)
  expect(answered.status).toBe(201)
  expect(refused.status).toBe(422)
  expect(refused.body.error.code).toBe("INSUFFICIENT_BALANCE")
  await crash(first)

  // As a crash would leave them: three calls ran (their journal entries are there) but their answers
  // were never stored, and a request claimed its key and died before its call was journaled.
  await onDatabase(databaseUrl, (sql) =>
    Effect.gen(function*() {
      yield* sql`UPDATE swapdesk_idempotency SET response_status = NULL, response_body = NULL
        WHERE account_id = 'acct_alice'`
      const [ran] = yield* sql<ClaimRow>`SELECT fingerprint, claimed_at FROM swapdesk_idempotency
        WHERE account_id = 'acct_alice' AND idempotency_key = 'key-ran'`
      yield* sql`INSERT INTO swapdesk_idempotency ${
        sql.insert({
          account_id: "acct_alice",
          idempotency_key: "key-never-ran",
          fingerprint: ran!.fingerprint,
          claimed_at: Number(ran!.claimed_at)
        })
      }`
    }))
  expect((await claims(databaseUrl)).map((row) => row.response_status)).toEqual([null, null, null, null])

  const restarted = await start(databaseUrl)
  try {
    // Settled before the server listened: three answered, the fourth released.
    const settled = await claims(databaseUrl)
    expect(settled.map((row) => [row.idempotency_key, Number(row.response_status)])).toEqual([
      ["key-order", 201],
      ["key-ran", 201],
      ["key-refused", 422]
    ])

    const again = await post(restarted.baseUrl, tradeBody, "key-ran")
    expect(again).toEqual({ status: 201, replayed: "true", body: answered.body })
    const refusedAgain = await post(restarted.baseUrl, refusedBody, "key-refused")
    expect(refusedAgain).toEqual({ status: 422, replayed: "true", body: refused.body })
    const orderAgain = await post(restarted.baseUrl, orderBody, "key-order", "/v1/orders")
    expect(orderAgain).toEqual({ status: 201, replayed: "true", body: order.body })
    expect((await ok(restarted.baseUrl, "GET", "/v1/orders?limit=100")).orders).toHaveLength(1)

    const afresh = await post(restarted.baseUrl, tradeBody, "key-never-ran")
    expect(afresh.status).toBe(201)
    expect(afresh.replayed).toBeNull()
    expect(afresh.body.data.id).not.toBe(answered.body.data.id)

    // Each call ran once: the first trade and the fresh one, nothing twice.
    const list = await ok(restarted.baseUrl, "GET", "/v1/trades?limit=100")
    expect(list.trades.map((trade: { readonly id: string }) => trade.id).sort()).toEqual(
      [answered.body.data.id, afresh.body.data.id].sort()
    )
    // And the key is spent now, as for any answered request.
    expect((await post(restarted.baseUrl, tradeBody, "key-never-ran")).body).toEqual(afresh.body)
    expect((await request(restarted.baseUrl, "GET", `/v1/trades/${answered.body.data.id}`)).status).toBe(200)
  } finally {
    await stop(restarted)
  }
}

describe("Idempotency-Key claims cut short by a crash", () => {
  it(
    "on SQLite: answered with the replayed call's response, or released when the call never ran",
    () => settlesCutShortClaims(`sqlite:${join(workDir, "claims.db")}`),
    60_000
  )

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: answered with the replayed call's response, or released when the call never ran${skipPostgres}`,
    () => withPostgresSchemas(postgresUrl!, ["claims"], ([url]) => settlesCutShortClaims(url!)),
    60_000
  )
})
