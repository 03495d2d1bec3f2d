/**
 * One simulator server per database. The simulated market is one deterministic writer, so a
 * second server on the same records would corrupt them (its ids and balances start again from the
 * seed). On PostgreSQL the lock is a session advisory lock on a connection held for the server's
 * life: the database releases it when that session ends, however the process ended. It is keyed
 * by the schema the tables live in (`search_path`), so servers on separate schemas of one
 * database are separate, as they are in everything else. On SQLite it
 * is a row naming the owning process, taken in a write transaction; a row whose process is gone
 * (`kill -9`) is taken over. A later server on the same database restores the simulation the
 * earlier ones left (SimulatorJournal).
 */
import { Data, Effect, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { hostname } from "node:os"

/** Why a simulator server may not use this database, in words an operator acts on. */
export class SimulatorLockRefused extends Data.TaggedError("SimulatorLockRefused")<{ readonly message: string }> {}

// Any constant: the advisory lock's first key among the database's other users of advisory locks;
// the second is the schema's.
const ADVISORY_KEY = 735_104_201
const ADVISORY_KEYS = `${ADVISORY_KEY}, hashtext(current_schema())`

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

const claimRun = (sql: SqlClient.SqlClient, pid: number, host: string, now: number) =>
  sql`INSERT INTO swapdesk_simulator (id, pid, host, started_at) VALUES (1, ${pid}, ${host}, ${now})
    ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, started_at = excluded.started_at`

/**
 * Makes this process the database's simulator server until the scope closes, or fails with
 * {@link SimulatorLockRefused} when another server holds it.
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
      `SELECT pg_try_advisory_lock(${ADVISORY_KEYS}) AS locked`,
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
      Effect.ignore(connection.executeUnprepared(`SELECT pg_advisory_unlock(${ADVISORY_KEYS})`, [], undefined))
    )
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
    yield* claimRun(sql, pid, host, now)
    return "ours"
  }))
  if (verdict !== "ours") return yield* new SimulatorLockRefused({ message: verdict })
  // A clean stop leaves no owner.
  yield* Effect.addFinalizer(() =>
    Effect.ignore(sql`UPDATE swapdesk_simulator SET pid = NULL, host = NULL WHERE id = 1 AND pid = ${pid}`)
  )
})
