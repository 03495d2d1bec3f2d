/**
 * One simulator server per database. The simulated market is one deterministic writer, so a
 * second server on the same records would corrupt them (its ids and balances start again from the
 * seed). On PostgreSQL the lock is a session advisory lock on a connection held for the server's
 * life: the database releases it when that session ends, however the process ended. On SQLite it
 * is a row naming the owning process, taken in a write transaction; a row whose process is gone
 * (`kill -9`) is taken over.
 *
 * Restoring a simulation on restart is not built yet (docs/storage.md), so the database also
 * remembers that a simulation ran on it, and a later start refuses it rather than mixing a new
 * run's records with the old one's.
 */
import { Data, Effect, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { hostname } from "node:os"

/** Why a simulator server may not use this database, in words an operator acts on. */
export class SimulatorLockRefused extends Data.TaggedError("SimulatorLockRefused")<{ readonly message: string }> {}

// Any constant: the advisory lock's key among the database's other users of advisory locks.
const ADVISORY_KEY = 7_351_042_019

interface OwnerRow {
  readonly pid: number | string | null
  readonly host: string | null
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as { readonly code?: string }).code === "EPERM"
  }
}

const earlierRun = new SimulatorLockRefused({
  message: "it holds the records of an earlier simulation, and restoring a simulation on restart is not "
    + "supported yet (docs/storage.md): start on a new SQLite file or an empty PostgreSQL database"
})

const claimRun = (sql: SqlClient.SqlClient, pid: number, host: string, now: number) =>
  sql`INSERT INTO swapdesk_simulator (id, pid, host, started_at) VALUES (1, ${pid}, ${host}, ${now})
    ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at`

/**
 * Makes this process the database's simulator server until the scope closes, or fails with
 * {@link SimulatorLockRefused} when another server holds it or an earlier run left its records.
 */
export const acquireSimulatorLock: Effect.Effect<
  void,
  SimulatorLockRefused | SqlError,
  SqlClient.SqlClient | Scope.Scope
> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pid = process.pid
  const host = hostname()
  const now = Date.now()
  const postgres = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
  if (postgres) {
    const connection = yield* sql.reserve
    const [row] = (yield* connection.executeUnprepared(
      `SELECT pg_try_advisory_lock(${ADVISORY_KEY}) AS locked`,
      [],
      undefined
    )) as ReadonlyArray<{ readonly locked: boolean }>
    if (row?.locked !== true) {
      const [owner] = yield* sql<OwnerRow>`SELECT pid, host FROM swapdesk_simulator WHERE id = 1`
      return yield* new SimulatorLockRefused({
        message: `another swapdesk simulator server is using it${
          owner === undefined ? "" : ` (process ${owner.pid} on ${owner.host})`
        }; one database serves one simulator server`
      })
    }
    yield* Effect.addFinalizer(() =>
      Effect.ignore(connection.executeUnprepared(`SELECT pg_advisory_unlock(${ADVISORY_KEY})`, [], undefined))
    )
    const [previous] = yield* sql<OwnerRow>`SELECT pid, host FROM swapdesk_simulator WHERE id = 1`
    if (previous !== undefined) return yield* earlierRun
    yield* claimRun(sql, pid, host, now)
    return
  }
  const verdict = yield* sql.withTransaction(Effect.gen(function*() {
    const [owner] = yield* sql<OwnerRow>`SELECT pid, host FROM swapdesk_simulator WHERE id = 1`
    if (owner !== undefined && owner.pid !== null) {
      const ownerPid = Number(owner.pid)
      if (owner.host !== host || (ownerPid !== pid && isAlive(ownerPid))) {
        return `another swapdesk simulator server is using it (process ${ownerPid} on ${owner.host}); `
          + "one database serves one simulator server"
      }
    }
    if (owner !== undefined) return "earlier"
    yield* claimRun(sql, pid, host, now)
    return "ours"
  }))
  if (verdict === "earlier") return yield* earlierRun
  if (verdict !== "ours") return yield* new SimulatorLockRefused({ message: verdict })
  // A clean stop leaves the run recorded (its records stay) but no owner.
  yield* Effect.addFinalizer(() =>
    Effect.ignore(sql`UPDATE swapdesk_simulator SET pid = NULL, host = NULL WHERE id = 1 AND pid = ${pid}`)
  )
})
