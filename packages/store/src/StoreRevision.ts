/**
 * Whether the records a cache may hold changed in another process: a token that differs from the
 * last one read whenever another connection committed such a change. The read-through caches
 * (CachedRepositories) compare it before answering, so a record changed elsewhere (a key revoked by
 * another process) is read again on the very next request, never served stale.
 *
 * - SQLite: `PRAGMA data_version`, which changes whenever another connection commits to the file.
 *   It is answered from the connection's shared memory, a few hundred nanoseconds, on every request.
 * - PostgreSQL: the row of `swapdesk_revision`, which triggers on `swapdesk_api_keys` and
 *   `swapdesk_accounts` move on in the same transaction as the change (Migrations). Each read is
 *   one round trip, shared: every request that arrives while one is in flight waits for the next
 *   one, which starts after they arrived, so a commit that finished before a request arrived is
 *   always seen, and under load one round trip serves a whole batch of requests.
 */
import { Context, Deferred, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"

export class StoreRevision extends Context.Service<StoreRevision, {
  /**
   * The current revision: read after the call began, so it reflects every commit that finished
   * before it. Equal tokens mean no change a cache depends on was committed by another connection
   * in between.
   */
  readonly current: Effect.Effect<string>
}>()("@swapdesk/store/StoreRevision") {}

/** The revision of one SQLite connection: `read` runs `PRAGMA data_version` on it. */
export const sqliteRevision = (read: () => number | bigint): StoreRevision["Service"] => ({
  current: Effect.sync(() => String(read()))
})

/**
 * The PostgreSQL revision on the `SqlClient` in context: one `SELECT` of `swapdesk_revision` at a
 * time, every request that arrived while it ran served by the next one.
 */
export const layerPostgres: Layer.Layer<StoreRevision, never, SqlClient.SqlClient> = Layer.effect(
  StoreRevision,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.scope
    const read = sql<{ readonly n: string | number }>`SELECT n FROM swapdesk_revision WHERE id = 1`.pipe(
      Effect.map((rows) => String(rows[0]?.n ?? "0")),
      Effect.orDie
    )
    // The read under way, and the one the requests that came after it started wait for.
    let running: Deferred.Deferred<string> | undefined
    let queued: Deferred.Deferred<string> | undefined
    const start = (done: Deferred.Deferred<string>): Effect.Effect<void> => {
      running = done
      return Effect.asVoid(Effect.forkIn(
        Effect.exit(read).pipe(Effect.flatMap((exit) =>
          Effect.suspend(() => {
            Deferred.doneUnsafe(done, exit)
            const next = queued
            queued = undefined
            running = undefined
            return next === undefined ? Effect.void : start(next)
          })
        )),
        scope
      ))
    }
    const current = Effect.suspend(() => {
      if (running === undefined) {
        const done = Deferred.makeUnsafe<string>()
        return Effect.andThen(start(done), Deferred.await(done))
      }
      if (queued === undefined) queued = Deferred.makeUnsafe<string>()
      return Deferred.await(queued)
    })
    yield* Scope.addFinalizer(
      scope,
      Effect.sync(() => {
        for (const waiting of [running, queued]) {
          if (waiting !== undefined) Deferred.doneUnsafe(waiting, Exit.die("closed"))
        }
      })
    )
    return StoreRevision.of({ current })
  })
)
