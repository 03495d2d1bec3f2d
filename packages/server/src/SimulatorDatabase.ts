/**
 * The simulator server's database (`DATABASE_URL`, docs/storage.md): opened, migrated and locked
 * for this process before anything listens, with the journal and snapshots a restart restores
 * from; and why a start on it is refused, in the operator's words, the URL's password hidden.
 */
import { type SimulatorRepositories, SnapshotRefused } from "@swapdesk/simulator"
import {
  AccountWritesSql,
  acquireSimulatorLock,
  layerCachedRepositoriesWith,
  layerRestoringRepositories,
  layerSqlRepositories,
  type Restoring,
  SimulatorJournal,
  SimulatorSnapshots,
  SqlStore,
  UnansweredClaims
} from "@swapdesk/store"
import { Cause, Effect, Layer, Redacted } from "effect"
import { JournalEntryRefused } from "./JournaledOperations.ts"
import { StartupFailure } from "./StartupFailure.ts"

/** `DATABASE_URL` with its password hidden, for messages. */
const databaseLabel = (url: Redacted.Redacted<string>): string =>
  `DATABASE_URL ${Redacted.value(url).replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@")}`

/** The records kept in a database, its journal and the restore from it. */
export type SimulatorDatabase = Layer.Layer<
  Layer.Success<SimulatorRepositories> | SimulatorJournal | SimulatorSnapshots | Restoring | UnansweredClaims,
  StartupFailure
>

/**
 * The records' store: in memory when `DATABASE_URL` is unset; otherwise the SQL store, opened and
 * migrated, with this process holding the database's simulator lock for its whole life, and the
 * simulation's journal, replayed once the world is built (docs/storage.md#what-a-restart-restores).
 */
export const openSimulatorDatabase = (
  databaseUrl: Redacted.Redacted<string> | undefined
): Effect.Effect<SimulatorDatabase | undefined, StartupFailure> => {
  if (databaseUrl === undefined) return Effect.succeed(undefined)
  const label = databaseLabel(databaseUrl)
  return Effect.try({
    try: () => SqlStore.parseDatabaseUrl(Redacted.value(databaseUrl)),
    catch: (error) => new StartupFailure({ message: (error as Error).message })
  }).pipe(Effect.map((location) => {
    const client = SqlStore.layerClient(location).pipe(
      Layer.catchCause((cause) =>
        Layer.effectContext(
          Effect.fail(
            new StartupFailure({ message: `${label}: cannot open it (${Cause.pretty(cause).split("\n")[0]})` })
          )
        )
      )
    )
    const lock = Layer.effectDiscard(acquireSimulatorLock.pipe(
      Effect.mapError((error) =>
        new StartupFailure({
          message: error._tag === "SimulatorLockRefused"
            ? `${label}: ${error.message}`
            : `${label}: cannot lock it (${error.message})`
        })
      )
    ))
    // The lock is held before the journal is read. Keys, accounts and ended trades are read through
    // the store's caches, and the Free plan's alert limit is held in the database as for any client.
    // Holding the lock, this process is the only writer of the records (every write of its own goes
    // through these caches), so they need no revision check (docs/storage.md#caches).
    const live = layerCachedRepositoriesWith({ soleWriter: true }).pipe(Layer.provide(layerSqlRepositories))
    return Layer.mergeAll(layerRestoringRepositories(live), AccountWritesSql, UnansweredClaims.layerSql).pipe(
      Layer.provideMerge(Layer.merge(SimulatorJournal.layerSql, SimulatorSnapshots.layerSql)),
      Layer.provide(lock),
      Layer.provide(client)
    )
  }))
}

/**
 * Why the world stored in the database cannot be restored, as an operator reads it: it was simulated
 * on another scenario, or its journal holds an entry this server cannot replay. Both are the
 * operator's to fix, not defects.
 */
export const cannotRestore = (
  databaseUrl: Redacted.Redacted<string> | undefined,
  defect: unknown
): StartupFailure | undefined => {
  if (databaseUrl === undefined) return undefined
  const label = databaseLabel(databaseUrl)
  if (defect instanceof SnapshotRefused) {
    return new StartupFailure({
      message: `${label}: its snapshot was taken on another scenario (${defect.message}); ` +
        "start the server on the scenario it ran with, or on a new database"
    })
  }
  if (defect instanceof JournalEntryRefused) {
    return new StartupFailure({
      message: `${label}: its ${defect.message}; ` +
        "start the version of the server that wrote it, or on a new database"
    })
  }
  return undefined
}
