/**
 * An `effect/sql` client on Node's built-in `node:sqlite`: one connection shared through a
 * semaphore, so a transaction never interleaves with another fiber's statement. The published
 * Effect SQLite drivers do not load with effect 4.1 (docs/decisions.md); this adapter needs no
 * native addon. `node:sqlite` is loaded when a connection opens, not when this module is imported,
 * so a program on a Node without it (Node 20) can still import the packages that include this one
 * and use everything but a SQLite store (docs/library.md, "Node versions").
 */
import { Context, Effect, Layer, Scope, Semaphore, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import type { Connection } from "effect/sql/SqlConnection"
import { classifySqliteError, SqlError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import type { StatementSync } from "node:sqlite"
import { sqliteRevision, StoreRevision } from "./StoreRevision.ts"

/** Settings of a SQLite store. */
export interface SqliteClientConfig {
  /** The database file; `:memory:` for a private in-memory database. */
  readonly filename: string
  /** How long a statement waits for another process's write lock, in milliseconds. */
  readonly busyTimeoutMs?: number
}

// Every statement any connection of this process ran: a revision read before one may be stale.
let statementsRun = 0

/** How many compiled statements a connection keeps (the texts a list's filters combine into are few). */
const PREPARED_MAX = 500

// node:sqlite binds numbers, bigints, strings, null and bytes; booleans become 0/1.
const bindable = (params: ReadonlyArray<unknown>): Array<any> =>
  params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p === undefined ? null : p))

const failure = (cause: unknown, operation: string) =>
  new SqlError({ reason: classifySqliteError(cause, { message: `SQLite: ${operation} failed`, operation }) })

/**
 * A `SqlClient` on one `node:sqlite` connection, closed with the scope, and that connection's
 * {@link StoreRevision} (`PRAGMA data_version`: what other connections committed).
 */
export const make = (
  config: SqliteClientConfig
): Effect.Effect<Context.Context<SqlClient.SqlClient | StoreRevision>, SqlError, Scope.Scope | Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const { DatabaseSync } = yield* Effect.tryPromise({
      try: () => import("node:sqlite"),
      catch: (cause) => failure(cause, `loading node:sqlite (Node ${process.versions.node}; it needs 22.13 or newer)`)
    })
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          const db = new DatabaseSync(config.filename, { timeout: config.busyTimeoutMs ?? 10_000 })
          // WAL lets readers in other processes go on while one writes; NORMAL sync is durable
          // across a process crash (kill -9), which is the failure the store guards against.
          if (config.filename !== ":memory:") db.exec("PRAGMA journal_mode = WAL")
          db.exec("PRAGMA synchronous = NORMAL")
          db.exec("PRAGMA foreign_keys = ON")
          return db
        },
        catch: (cause) => failure(cause, "open")
      }),
      (db) => Effect.sync(() => db.close())
    )
    // The repositories send the same few statement texts over and over: each is compiled once.
    const prepared = new Map<string, { readonly statement: StatementSync; readonly returnsRows: boolean }>()
    const prepare = (sql: string) => {
      const known = prepared.get(sql)
      if (known !== undefined) return known
      const statement = db.prepare(sql)
      const compiled = { statement, returnsRows: statement.columns().length > 0 }
      if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value!)
      prepared.set(sql, compiled)
      return compiled
    }
    const run = (sql: string, params: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<any>, SqlError> =>
      Effect.try({
        try: () => {
          const { statement, returnsRows } = prepare(sql)
          statementsRun++
          // A statement that returns no columns (DDL, plain writes) runs; the others return rows.
          return returnsRows ? statement.all(...bindable(params)) : (statement.run(...bindable(params)), [])
        },
        catch: (cause) => failure(cause, "execute")
      })
    const values = (sql: string, params: ReadonlyArray<unknown>) =>
      Effect.map(run(sql, params), (rows) => rows.map((row) => Object.values(row as object)))
    const connection: Connection = {
      execute: (sql, params, transformRows) =>
        transformRows === undefined ? run(sql, params) : Effect.map(run(sql, params), transformRows),
      executeRaw: (sql, params) => run(sql, params),
      executeStream: (sql, params, transformRows) =>
        Stream.fromIterableEffect(
          transformRows === undefined ? run(sql, params) : Effect.map(run(sql, params), transformRows)
        ),
      executeValues: values,
      executeValuesUnprepared: values,
      executeUnprepared: (sql, params, transformRows) =>
        transformRows === undefined ? run(sql, params) : Effect.map(run(sql, params), transformRows)
    }
    const semaphore = yield* Semaphore.make(1)
    const acquirers = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(connection),
      semaphore,
      isTransaction: () => db.isTransaction
    })
    const client = yield* SqlClient.make({
      ...acquirers,
      compiler: Statement.makeCompilerSqlite(),
      driver: "node:sqlite",
      spanAttributes: [["db.system.name", "sqlite"]],
      // Takes the write lock at BEGIN, so two processes' transactions queue on busy_timeout instead
      // of one failing when it upgrades a read to a write.
      beginTransaction: "BEGIN IMMEDIATE"
    })
    // Synchronous and outside the semaphore: a read of the connection's state, not a statement
    // that could interleave with a transaction.
    const dataVersion = db.prepare("PRAGMA data_version")
    // A row as an array, not an object: this runs on every authenticated request, and an array is
    // the cheaper row to build (docs/performance.md, "The store benchmark").
    dataVersion.setReturnArrays(true)
    const revision = sqliteRevision(
      () => (dataVersion.get() as unknown as readonly [number])[0],
      () => statementsRun
    )
    return Context.make(SqlClient.SqlClient, client).pipe(Context.add(StoreRevision, revision))
  })

/** The `SqlClient` layer of a SQLite file, with its {@link StoreRevision}. */
export const layer = (config: SqliteClientConfig): Layer.Layer<SqlClient.SqlClient | StoreRevision, SqlError> =>
  Layer.effectContext(make(config)).pipe(Layer.provide(Reactivity.layer))
