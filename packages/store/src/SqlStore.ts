/**
 * A store from a `DATABASE_URL`: `sqlite:<file>` opens (or creates) a SQLite file through
 * `node:sqlite`, `postgres://...` connects a PostgreSQL pool; either way the schema is migrated
 * before any repository is used. docs/storage.md describes both.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { AccountWritesSql } from "./AccountWritesSql.ts"
import { type CacheOptions, layerCachedRepositoriesWith } from "./CachedRepositories.ts"
import { migrate } from "./Migrations.ts"
import * as SqliteClient from "./SqliteClient.ts"
import { layerSqlRepositories } from "./SqlRepositories.ts"
import * as StoreRevision from "./StoreRevision.ts"

/** Where a store keeps its records. */
export type StoreLocation =
  | { readonly _tag: "Sqlite"; readonly filename: string }
  | { readonly _tag: "Postgres"; readonly url: string }

/** An unusable `DATABASE_URL`, with the reason in words. */
export class StoreSettingError extends Error {
  override readonly name = "StoreSettingError"
}

/** Reads a `DATABASE_URL`; throws {@link StoreSettingError} for anything else. */
export const parseDatabaseUrl = (url: string): StoreLocation => {
  if (url.startsWith("sqlite:")) {
    const filename = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")
    if (filename === "") throw new StoreSettingError("DATABASE_URL sqlite:<file> needs a file path")
    return { _tag: "Sqlite", filename }
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return { _tag: "Postgres", url }
  throw new StoreSettingError("DATABASE_URL must be sqlite:<file path> or postgres://user:pass@host:port/db")
}

/** The `SqlClient` of a location, its schema migrated, and its {@link StoreRevision.StoreRevision}. */
export const layerClient = (
  location: StoreLocation
): Layer.Layer<SqlClient.SqlClient | StoreRevision.StoreRevision, SqlError> => {
  const client: Layer.Layer<SqlClient.SqlClient | StoreRevision.StoreRevision, SqlError> = location._tag === "Sqlite"
    ? SqliteClient.layer({ filename: location.filename })
    : StoreRevision.layerPostgres.pipe(
      Layer.provideMerge(PgClient.layer({ url: Redacted.make(location.url), maxConnections: 10 }))
    )
  return Layer.effectDiscard(Effect.orDie(migrate)).pipe(Layer.provideMerge(client))
}

/**
 * The `SqlClient` of a location as the database is: no migration, no revision. For administering
 * it beside the store (creating a schema for a store to live in, a backup), where migrating the
 * connection's own schema would be wrong.
 */
export const layerPlainClient = (location: StoreLocation): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  location._tag === "Sqlite"
    ? SqliteClient.layer({ filename: location.filename })
    : PgClient.layer({ url: Redacted.make(location.url), maxConnections: 2 })

/**
 * Every repository port of core on the client in context, keys, accounts and final trades read
 * through caches (CachedRepositories; `soleWriter` only for a process no other writes beside), and
 * `AccountWrites` holding an account in a transaction.
 */
export const layerRepositoriesWith = (options: CacheOptions) =>
  Layer.merge(layerCachedRepositoriesWith(options).pipe(Layer.provide(layerSqlRepositories)), AccountWritesSql)

/** {@link layerRepositoriesWith} for any number of processes sharing the database. */
export const layerRepositories = layerRepositoriesWith({ soleWriter: false })

/** Every repository port of core, kept at `location` (by default shared with other processes). */
export const layer = (location: StoreLocation, options: CacheOptions = { soleWriter: false }) =>
  layerRepositoriesWith(options).pipe(Layer.provideMerge(layerClient(location)))
