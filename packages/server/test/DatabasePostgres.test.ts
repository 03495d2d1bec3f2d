// Proves DATABASE_URL on PostgreSQL (SWAPDESK_TEST_POSTGRES_URL, which .ci/run provides), in real child
// processes and a schema of its own: an alert created over HTTP is a row in the database; a second
// server on it exits 1 saying another server uses it (the advisory lock); once the first is gone, a
// start on its records restores them (the alert is listed).
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { describe, it } from "vitest"
import { ownership } from "./databaseServer.ts"

describe("DATABASE_URL on PostgreSQL", () => {
  const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
  it.skipIf(postgresUrl === undefined)(
    `keeps records in PostgreSQL that one server at a time may use${
      postgresUrl === undefined
        ? " (skipped: no PostgreSQL; export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) to run it, docs/storage.md)"
        : ""
    }`,
    async () => {
      // A schema of its own, so the store's conformance suite on the same database is not disturbed.
      const schema = `process_${process.pid}_${Date.now()}`
      const admin = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl!))))
      const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
        admin.runPromise(Effect.orDie(Effect.gen(function*() {
          return yield* f(yield* SqlClient.SqlClient)
        })))
      await sql((s) => s.unsafe(`CREATE SCHEMA ${schema}`))
      try {
        const url = new URL(postgresUrl!)
        url.searchParams.set("options", `-c search_path=${schema}`)
        await ownership(
          url.toString(),
          () =>
            sql((s) => s.unsafe<{ readonly id: string }>(`SELECT id FROM ${schema}.swapdesk_alerts`)).then((rows) =>
              rows.map((row) => row.id)
            )
        )
      } finally {
        await sql((s) => s.unsafe(`DROP SCHEMA ${schema} CASCADE`))
        await admin.dispose()
      }
    }
  )
})
