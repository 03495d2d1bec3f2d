/**
 * The live server's database (`DATABASE_URL`, docs/storage.md): the SQL store, opened and migrated
 * before anything listens. Unlike the simulator's, it takes no lock: every live record is written
 * through the repositories' ordinary checks, so the caches run as for any process sharing the
 * database (docs/decisions.md, "The live server's database").
 */
import { SqlStore } from "@swapdesk/store"
import { Cause, Effect, Layer, Redacted } from "effect"
import { StartupFailure } from "../StartupFailure.ts"

/** `DATABASE_URL` with its password hidden, for messages. */
const databaseLabel = (url: Redacted.Redacted<string>): string =>
  `DATABASE_URL ${Redacted.value(url).replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@")}`

/** The store's repositories at `databaseUrl`, or why it cannot be used. */
export const openLiveDatabase = (databaseUrl: Redacted.Redacted<string>) =>
  Effect.try({
    try: () => SqlStore.parseDatabaseUrl(Redacted.value(databaseUrl)),
    catch: (error) => new StartupFailure({ message: (error as Error).message })
  }).pipe(Effect.map((location) =>
    SqlStore.layerRepositories.pipe(
      Layer.provideMerge(
        SqlStore.layerClient(location).pipe(
          Layer.catchCause((cause) =>
            Layer.effectContext(Effect.fail(
              new StartupFailure({
                message: `${databaseLabel(databaseUrl)}: cannot open it (${Cause.pretty(cause).split("\n")[0]})`
              })
            ))
          )
        )
      )
    )
  ))
