/**
 * Core's `AccountWrites` on `effect/sql`: the write runs in one transaction that first takes the
 * account's row (`SELECT ... FOR UPDATE` on PostgreSQL; on SQLite every transaction begins
 * `IMMEDIATE`, holding the file's write lock), so a check-then-write such as the Free plan's alert
 * limit holds against writers in other processes, not only against this process's fibers. The
 * statements the effect runs through the repositories join the transaction (it is the fiber's).
 */
import { AccountWrites } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export const AccountWritesSql = Layer.effect(
  AccountWrites,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const holdAccount = (accountId: string) =>
      sql.onDialectOrElse({
        pg: () => Effect.asVoid(sql`SELECT 1 FROM swapdesk_accounts WHERE id = ${accountId} FOR UPDATE`),
        orElse: () => Effect.void
      })
    return AccountWrites.of({
      serialize: (accountId, effect) =>
        sql.withTransaction(Effect.andThen(holdAccount(accountId), effect)).pipe(
          // A database failure is a defect of the request, as everywhere in the store; the
          // effect's own failures (the limit reached) pass through, its writes undone.
          Effect.catchTag("SqlError", (error) => Effect.die(error))
        ) as typeof effect
    })
  })
)
