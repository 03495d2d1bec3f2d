/**
 * The repositories of a simulator server that restores its simulation. While the journal replays
 * (SimulatorJournal), the use cases read and write an in-memory copy, so every call sees the
 * records as they stood when it first ran and nothing stored is written twice: a fresh copy when
 * the replay starts from the scenario, the latest snapshot's records when it starts from that
 * (SimulatorSnapshots); the last entry's
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
import { Context, Deferred, Effect, Layer, Option } from "effect"
import { type JournalEntry, SimulatorJournal } from "./SimulatorJournal.ts"
import { SimulatorSnapshots, type SnapshotRecords } from "./SimulatorSnapshots.ts"

/** Where the repositories read and write: `replay` in memory, `tee` writes to both, `live` the database. */
export type RepositoryMode = "replay" | "tee" | "live"

/**
 * The restore in progress: the snapshot it starts from, what is left to replay, the repositories'
 * mode, and a signal for its end.
 */
export class Restoring extends Context.Service<Restoring, {
  /** The simulated world of the latest snapshot, as the simulator handed it over; none without one. */
  readonly world: unknown
  /**
   * The journal entries to replay: after the snapshot's, or all of them without one (empty on a
   * new database, and once the replay is over).
   */
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

type Repositories = Context.Context<Layer.Success<typeof layerMemoryRepositories>>

/** Writes a snapshot's records into a fresh in-memory copy, each table by creation. */
const seed = (memory: Repositories, records: SnapshotRecords): Effect.Effect<void> =>
  Effect.gen(function*() {
    for (const account of records.accounts) yield* Context.get(memory, AccountRepository).save(account)
    for (const key of records.apiKeys) yield* Context.get(memory, ApiKeyRepository).insert(key)
    for (const alert of records.alerts) yield* Context.get(memory, AlertRepository).insert(alert)
    for (const trade of records.trades) yield* Context.get(memory, TradeRepository).insert(trade)
    for (const order of records.orders) yield* Context.get(memory, OrderRepository).insert(order)
    for (const webhook of records.webhooks) yield* Context.get(memory, WebhookRepository).insert(webhook)
    for (const delivery of records.deliveries) yield* Context.get(memory, WebhookDeliveryRepository).save(delivery)
  })

/**
 * The repository ports over `live` (the SQL store's), switched as above, and {@link Restoring}:
 * in `replay` mode when there is a snapshot or journal entries to restore, else `live` from the
 * start.
 */
export const layerRestoringRepositories = <E, R>(
  live: Layer.Layer<Layer.Success<typeof layerMemoryRepositories>, E, R>
): Layer.Layer<
  Layer.Success<typeof layerMemoryRepositories> | Restoring,
  E,
  R | SimulatorJournal | SimulatorSnapshots
> =>
  Layer.effectContext(Effect.gen(function*() {
    const stored = yield* Layer.build(live)
    const snapshot = Option.getOrUndefined(yield* (yield* SimulatorSnapshots).latest)
    const after = snapshot?.journalSeq ?? 0
    let entries = (yield* (yield* SimulatorJournal).entries).filter((entry) => entry.seq > after)
    let world = snapshot?.world
    const restoring = snapshot !== undefined || entries.length > 0
    // The replay's copy, dropped once the database takes over.
    let memory: Repositories | undefined = restoring ? yield* Layer.build(layerMemoryRepositories) : undefined
    if (memory !== undefined && snapshot !== undefined) yield* seed(memory, snapshot.records)
    let mode: RepositoryMode = restoring ? "replay" : "live"
    const done = yield* Deferred.make<void>()
    if (!restoring) yield* Deferred.succeed(done, undefined)
    let context = Context.make(Restoring, {
      get world() {
        return world
      },
      get entries() {
        return entries
      },
      mode: () => mode,
      setMode: (next) => {
        mode = next
        if (next === "live") {
          memory = undefined
          entries = []
          world = undefined
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
