/**
 * The repositories of a simulator server that restores its simulation. While the journal replays
 * (SimulatorJournal), the use cases read and write a fresh in-memory copy, so every call sees the
 * records as they stood when it first ran and nothing stored is written twice; the last entry's
 * writes also go to the database (`tee`: that call may have been cut short by a crash, and every
 * write is an upsert of the same record, so one that was already stored is rewritten unchanged).
 * Once the replay is over they switch to the database for good: the world rebuilt in memory and the
 * stored records then agree (docs/storage.md#what-a-restart-restores).
 */
import {
  AccountRepository,
  AlertRepository,
  ApiKeyRepository,
  IdempotencyStore,
  layerMemoryRepositories,
  OrderRepository,
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@swapdesk/core"
import { Context, Deferred, Effect, Layer } from "effect"
import { type JournalEntry, SimulatorJournal } from "./SimulatorJournal.ts"

/** Where the repositories read and write: `replay` in memory, `tee` writes to both, `live` the database. */
export type RepositoryMode = "replay" | "tee" | "live"

/** The restore in progress: what is left to replay, the repositories' mode, and a signal for its end. */
export class Restoring extends Context.Service<Restoring, {
  /** The journal as found at start (empty on a new database, and once the replay is over). */
  readonly entries: ReadonlyArray<JournalEntry>
  readonly mode: () => RepositoryMode
  readonly setMode: (mode: RepositoryMode) => void
  /** Completed once the replay is over and the repositories are the database's. */
  readonly done: Deferred.Deferred<void>
}>()("@swapdesk/store/Restoring") {}

// The methods of each port that write; the others read.
const writes: ReadonlySet<string> = new Set(["save", "updateNotifications", "insert", "update", "remove", "touch"])

type Tag = Context.Service<any, any>

const ports: ReadonlyArray<Tag> = [
  AccountRepository,
  ApiKeyRepository,
  AlertRepository,
  TradeRepository,
  OrderRepository,
  WebhookRepository,
  WebhookDeliveryRepository
]

/**
 * A port that forwards each use to the memory or the database copy, by the mode at the moment of
 * the call (never of the lookup: a use case may keep a method, or an effect, it looked up at start).
 * `memory` answers undefined once the replay is over.
 */
const switching = (memory: () => any, live: any, mode: () => RepositoryMode): object => {
  const forwarders = new Map<PropertyKey, unknown>()
  const forwarder = (key: PropertyKey): unknown => {
    const member = live[key]
    if (Effect.isEffect(member)) return Effect.suspend(() => (mode() === "live" ? member : memory()[key]))
    if (typeof member !== "function") return member
    const isWrite = typeof key === "string" && writes.has(key)
    return (...args: Array<unknown>) => {
      const current = mode()
      if (current === "live") return live[key](...args)
      if (current === "replay" || !isWrite) return memory()[key](...args)
      const result = memory()[key](...args)
      const stored = live[key](...args)
      return Effect.isEffect(result) ? Effect.tap(result, () => stored) : result
    }
  }
  return new Proxy({}, {
    get: (_target, key) => {
      if (!forwarders.has(key)) forwarders.set(key, forwarder(key))
      return forwarders.get(key)
    }
  })
}

/**
 * The repository ports over `live` (the SQL store's), switched as above, and {@link Restoring}:
 * in `replay` mode when the journal holds entries, else `live` from the start.
 */
export const layerRestoringRepositories = <E, R>(
  live: Layer.Layer<Layer.Success<typeof layerMemoryRepositories>, E, R>
): Layer.Layer<Layer.Success<typeof layerMemoryRepositories> | Restoring, E, R | SimulatorJournal> =>
  Layer.effectContext(Effect.gen(function*() {
    const stored = yield* Layer.build(live)
    let entries = yield* (yield* SimulatorJournal).entries
    // The replay's copy, dropped once the database takes over.
    let memory: Context.Context<Layer.Success<typeof layerMemoryRepositories>> | undefined = entries.length === 0
      ? undefined
      : yield* Layer.build(layerMemoryRepositories)
    let mode: RepositoryMode = entries.length === 0 ? "live" : "replay"
    const done = yield* Deferred.make<void>()
    if (entries.length === 0) yield* Deferred.succeed(done, undefined)
    let context = Context.make(Restoring, {
      get entries() {
        return entries
      },
      mode: () => mode,
      setMode: (next) => {
        mode = next
        if (next === "live") {
          memory = undefined
          entries = []
        }
      },
      done
    }).pipe(Context.add(IdempotencyStore, Context.get(stored, IdempotencyStore)))
    for (const port of ports) {
      context = Context.add(
        context,
        port,
        switching(
          () => memory === undefined ? undefined : Context.get(memory, port),
          Context.get(stored, port),
          () => mode
        )
      )
    }
    return context
  })) as any
