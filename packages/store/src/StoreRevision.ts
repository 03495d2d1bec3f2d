/**
 * Whether the records a cache may hold changed in another process: a token that differs from the
 * last one read whenever another connection committed such a change. The read-through caches
 * (CachedRepositories) compare it before answering, so a record changed elsewhere (a key revoked by
 * another process) is read again on the very next request, never served stale.
 *
 * - SQLite: `PRAGMA data_version`, which changes whenever another connection commits to the file,
 *   read once per synchronous run of the event loop (the requests it serves had all arrived).
 * - PostgreSQL: the row of `swapdesk_revision`, which triggers on `swapdesk_api_keys` and
 *   `swapdesk_accounts` move on in the same transaction as the change (Migrations). Each read is
 *   one round trip, shared: the requests that ask in the same turn of the event loop wait for one
 *   read sent after all of them asked, so a commit that finished before a request arrived is always
 *   seen, and under load one round trip serves a batch of requests. A request asking again (its
 *   account after its key) reuses the answer it waited for.
 */
import { Context, Deferred, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export class StoreRevision extends Context.Service<StoreRevision, {
  /**
   * The current revision, read after the call began, so it reflects every commit that finished
   * before it (a fiber asking again shortly after may get the answer to its earlier call: what
   * it is serving arrived before that one). Equal tokens mean no change a cache depends on was
   * committed by another connection in between.
   */
  readonly current: Effect.Effect<string>
}>()("@swapdesk/store/StoreRevision") {}

/**
 * The revision of one SQLite connection: `read` runs `PRAGMA data_version` on it (cheap, but it
 * looks at the write-ahead log, so not free: docs/performance.md). One read serves the requests of one synchronous run of the event
 * loop: no I/O is delivered during a run, so each of them had arrived before the read, and the
 * answer is forgotten before the loop can deliver another. Another connection of this process could
 * still commit within the run, so the answer is also forgotten once `statements()` (a count of the
 * statements every connection of the process ran) moves.
 */
export const sqliteRevision = (read: () => number | bigint, statements: () => number): StoreRevision["Service"] => {
  let known: string | undefined
  let at = -1
  const forget = () => {
    known = undefined
  }
  return {
    current: Effect.sync(() => {
      if (known === undefined || at !== statements()) {
        if (known === undefined) queueMicrotask(forget)
        known = String(read())
        at = statements()
      }
      return known
    })
  }
}

/** How long a fiber may reuse the PostgreSQL revision it waited for, in milliseconds. */
const ANSWER_REUSE_MS = 100

/**
 * The PostgreSQL revision on the `SqlClient` in context: one `SELECT` of `swapdesk_revision` per
 * turn of the event loop, shared by the requests that asked in that turn.
 */
export const layerPostgres: Layer.Layer<StoreRevision, never, SqlClient.SqlClient> = Layer.effect(
  StoreRevision,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scope = yield* Effect.scope
    // The read runs in the layer's own context: a request asking inside a transaction must not
    // lend it that transaction's connection, which the other requests of the batch would share.
    const context = yield* Effect.context<never>()
    const read = sql<{ readonly n: string | number }>`SELECT n FROM swapdesk_revision WHERE id = 1`.pipe(
      Effect.map((rows) => String(rows[0]?.n ?? "0")),
      Effect.orDie
    )
    // The read the fibers asking in this turn of the event loop wait for, sent once they have all
    // asked: it starts after each of them arrived, and one round trip answers them all.
    let gathering: { readonly done: Deferred.Deferred<string>; readonly fibers: WeakSet<object> } | undefined
    // The last answer and the fibers that waited for it. It stays true for them (a request asking
    // again, for its account after its key, needs no second round trip), for at most
    // ANSWER_REUSE_MS, after which a long-running fiber asks again like any other.
    let answered: { readonly value: string; readonly fibers: WeakSet<object>; readonly at: number } | undefined
    const send = Effect.suspend(() => {
      const batch = gathering!
      gathering = undefined
      // Whatever ends the read (the store closing included) answers its waiters.
      return Effect.onExit(read, (exit) =>
        Effect.sync(() => {
          if (exit._tag === "Success") answered = { value: exit.value, fibers: batch.fibers, at: performance.now() }
          Deferred.doneUnsafe(batch.done, exit)
        }))
    })
    const current = Effect.withFiber((fiber) => {
      if (answered !== undefined && answered.fibers.has(fiber) && performance.now() - answered.at < ANSWER_REUSE_MS) {
        return Effect.succeed(answered.value)
      }
      if (gathering === undefined) {
        const batch = { done: Deferred.makeUnsafe<string>(), fibers: new WeakSet<object>() }
        gathering = batch
        batch.fibers.add(fiber)
        return Effect.andThen(
          Effect.forkIn(Effect.provideContext(Effect.andThen(Effect.yieldNow, send), context), scope),
          Deferred.await(batch.done)
        )
      }
      gathering.fibers.add(fiber)
      return Deferred.await(gathering.done)
    })
    return StoreRevision.of({ current })
  })
)
