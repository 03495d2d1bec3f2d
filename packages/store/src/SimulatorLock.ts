/**
 * One simulator server per database. The simulated market is one deterministic writer, so a
 * second server on the same records would corrupt them (its ids and balances start again from the
 * seed). On PostgreSQL the lock is a session advisory lock on a connection held for the server's
 * life: the database releases it when that session ends, however the process ended. On SQLite it
 * is a row naming the owning process, taken in a write transaction; a row whose process is gone
 * (`kill -9`) is taken over. A PostgreSQL session lost while the server runs loses the lock with
 * it: the server takes it again on a new session, or stops if another server was quicker. A later
 * server on the same database restores the simulation the earlier ones left (SimulatorJournal).
 */
import { Data, Duration, Effect, Exit, Schedule, Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { hostname } from "node:os"

type Connection = Effect.Success<SqlClient.SqlClient["reserve"]>

/** How often a PostgreSQL server checks that the session holding its lock is still there. */
const LOCK_CHECK_INTERVAL = Duration.millis(500)

/** Why a simulator server may not use this database, in words an operator acts on. */
export class SimulatorLockRefused extends Data.TaggedError("SimulatorLockRefused")<{ readonly message: string }> {}

// The advisory lock's key: a constant among the database's other users of advisory locks, and the
// store's schema (the records of a store are the tables of its schema, so stores in two schemas of
// one database are two stores, each with its own simulator server).
const ADVISORY_KEY = "735104201, hashtext(current_schema())"

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
    const lockedBy = (connection: Connection) =>
      Effect.map(
        connection.executeUnprepared(`SELECT pg_try_advisory_lock(${ADVISORY_KEY}) AS locked`, [], undefined),
        (rows) => (rows as ReadonlyArray<{ readonly locked: boolean }>)[0]?.locked === true
      )
    // A session of its own, in a scope of its own: a lost session is replaced by a new one.
    const take = Effect.gen(function*() {
      const scope = yield* Scope.make()
      const taken = yield* Effect.exit(
        Scope.provide(scope)(
          Effect.flatMap(
            sql.reserve,
            (connection) => Effect.map(lockedBy(connection), (locked) => locked ? connection : undefined)
          )
        )
      )
      if (Exit.isSuccess(taken) && taken.value !== undefined) return { connection: taken.value, scope }
      yield* Scope.close(scope, Exit.void)
      return Exit.isSuccess(taken) ? undefined : yield* Effect.failCause(taken.cause)
    })
    let held: { readonly connection: Connection; readonly scope: Scope.Closeable } | undefined = yield* take
    if (held === undefined) {
      const [owner] = yield* sql<OwnerRow>`SELECT pid, host FROM swapdesk_simulator WHERE id = 1`
      return yield* new SimulatorLockRefused({
        message: `another swapdesk simulator server is using it${
          owner === undefined ? "" : ` (process ${owner.pid} on ${owner.host})`
        }; one database serves one simulator server`
      })
    }
    const release = Effect.suspend(() => {
      const current = held
      held = undefined
      return current === undefined ? Effect.void : Effect.andThen(
        Effect.ignore(
          current.connection.executeUnprepared(`SELECT pg_advisory_unlock(${ADVISORY_KEY})`, [], undefined)
        ),
        Scope.close(current.scope, Exit.void)
      )
    })
    yield* Effect.addFinalizer(() => release)
    yield* claimRun(sql, pid, host, now)
    // The database ends the lock with its session (terminated by an operator, a restart of the
    // database, a network cut): the session is checked every LOCK_CHECK_INTERVAL, and a lost one
    // replaced by a new session taking the lock again (retried while the database is unreachable).
    // Should another simulator server have taken it in between, this one stops at once, exit 1, as
    // after kill -9 (its journal is written ahead): two writers would corrupt the records.
    const watch = Effect.gen(function*() {
      if (held !== undefined) {
        const alive = yield* Effect.exit(held.connection.executeUnprepared("SELECT 1", [], undefined))
        if (Exit.isSuccess(alive)) return
        yield* release
      }
      const again = yield* Effect.exit(take)
      if (Exit.isFailure(again)) return
      if (again.value !== undefined) {
        held = again.value
        return
      }
      yield* Effect.sync(() => {
        console.error(
          "swapdesk: the database's simulator lock was lost, and another swapdesk simulator server "
            + "took it; stopping, as one database serves one simulator server"
        )
        process.exit(1)
      })
    })
    yield* Effect.forkScoped(Effect.repeat(watch, Schedule.spaced(LOCK_CHECK_INTERVAL)))
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
