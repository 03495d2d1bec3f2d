#!/usr/bin/env node
/**
 * The standalone server: `pnpm start`. Serves the contract and the simulator's control routes on
 * the scenario in `SCENARIO` (the built-in demo scenario when unset), at `HOST`:`PORT`, by the
 * request path `REQUEST_PATH` names (`ApiRoutes` when unset; `HttpApiBuilder` serves the API with
 * Effect's own builder, see docs/decisions.md). It sends
 * alerts on the real channels its settings configure (`SMTP_URL`, `TELEGRAM_BOT_TOKEN`,
 * `FCM_SERVICE_ACCOUNT` and their companions: docs/alerts.md#channels). It keeps its records in
 * `DATABASE_URL` (`sqlite:<file>` or `postgres://...`; in memory when unset: docs/storage.md), a
 * database no other simulator server holds. On SIGINT
 * or SIGTERM it stops accepting connections, lets requests in flight finish, and exits 0. A setting
 * it cannot start with (a bad `PORT`, a scenario it cannot read or decode, an address it cannot
 * listen on) is named in one message, and it exits 1. Requests Node's HTTP parser refuses get the
 * contract's error envelope too (`ClientErrors.ts`).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { loadChannels, WebhookSenderLive } from "@swapdesk/channels"
import { ChannelTransport, layerMemoryRepositories } from "@swapdesk/core"
import {
  ClientErrors,
  DEFAULT_REQUEST_PATH,
  isRequestPath,
  REQUEST_PATHS,
  type RequestPath,
  serve
} from "@swapdesk/http"
import {
  decodeScenario,
  demoScenario,
  InvalidScenario,
  type ScenarioFile,
  type SimulatorRepositories
} from "@swapdesk/simulator"
import { acquireSimulatorLock, layerSqlRepositories, SqlStore } from "@swapdesk/store"
import { Cause, Config, Data, Effect, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { dirname } from "node:path"
import { simulatorApp } from "./SimulatorServer.ts"

/**
 * Why the server cannot start, in words an operator acts on. It is printed here, so the runtime
 * does not print it again as an error dump.
 */
class StartupFailure extends Data.TaggedError("StartupFailure")<{ readonly message: string }> {
  override readonly [Runtime.errorReported] = false
}

const settings = Config.all({
  port: Config.String("PORT").pipe(Config.withDefault("3000")),
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  scenario: Config.String("SCENARIO").pipe(Config.withDefault("")),
  requestPath: Config.String("REQUEST_PATH").pipe(Config.withDefault("")),
  databaseUrl: Config.String("DATABASE_URL").pipe(Config.withDefault(""))
})

/** A URL with its password hidden, for messages. */
const redactUrl = (url: string): string => url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@")

/**
 * The records' store: in memory when `DATABASE_URL` is unset; otherwise the SQL store, opened and
 * migrated, with this process holding the database's simulator lock for its whole life.
 */
const repositoriesOf = (databaseUrl: string): Effect.Effect<SimulatorRepositories<StartupFailure>, StartupFailure> => {
  if (databaseUrl === "") return Effect.succeed(layerMemoryRepositories)
  const label = `DATABASE_URL ${redactUrl(databaseUrl)}`
  return Effect.try({
    try: () => SqlStore.parseDatabaseUrl(databaseUrl),
    catch: (error) => new StartupFailure({ message: (error as Error).message })
  }).pipe(Effect.map((location) => {
    const client = SqlStore.layerClient(location).pipe(
      Layer.catchCause((cause) =>
        Layer.effect(
          SqlClient.SqlClient,
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
    return Layer.merge(layerSqlRepositories, lock).pipe(Layer.provide(client))
  }))
}

const parseRequestPath = (text: string): Effect.Effect<RequestPath, StartupFailure> => {
  if (text === "") return Effect.succeed(DEFAULT_REQUEST_PATH)
  return isRequestPath(text) ? Effect.succeed(text) : Effect.fail(
    new StartupFailure({
      message: `REQUEST_PATH must be one of ${REQUEST_PATHS.join(", ")} (found ${JSON.stringify(text)})`
    })
  )
}

/**
 * `PORT` as a TCP port; 0 asks the operating system for a free one (the log line says which). Only
 * digits: `Number` alone would read "", "0x50" or "8e3" as ports the operator never wrote.
 */
const parsePort = (text: string): Effect.Effect<number, StartupFailure> => {
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN
  return port <= 65_535
    ? Effect.succeed(port)
    : Effect.fail(
      new StartupFailure({ message: `PORT must be an integer from 0 to 65535 (found ${JSON.stringify(text)})` })
    )
}

const loadScenario = (path: string): Effect.Effect<ScenarioFile, StartupFailure> => {
  if (path === "") return Effect.sync(() => decodeScenario(demoScenario))
  const failure = (problem: string) => new StartupFailure({ message: `SCENARIO ${path}: ${problem}` })
  return Effect.try({
    try: () => readFileSync(path, "utf8"),
    catch: (error) => failure(`cannot be read (${(error as Error).message})`)
  }).pipe(
    Effect.flatMap((text) =>
      Effect.try({
        try: (): unknown => JSON.parse(text),
        catch: (error) => failure(`not valid JSON (${(error as Error).message})`)
      })
    ),
    Effect.flatMap((json) =>
      Effect.suspend(() => {
        try {
          // History files are named relative to the scenario file.
          return Effect.succeed(decodeScenario(json, { directory: dirname(path) }))
        } catch (error) {
          // Anything but a scenario problem is a defect of the decoder, not the operator's file.
          if (error instanceof InvalidScenario) return Effect.fail(failure(error.message))
          throw error
        }
      })
    )
  )
}

/** Why the listening socket could not be opened, as an operator reads it. */
const cannotListen = (host: string, port: number, cause: unknown): StartupFailure => {
  const code = (cause as { readonly code?: unknown } | undefined)?.code
  const reason = code === "EADDRINUSE"
    ? "the address is in use"
    : code === "EACCES"
    ? "permission denied"
    : code === "EADDRNOTAVAIL"
    ? "the address is not one of this machine's"
    : cause instanceof Error
    ? cause.message
    : String(cause)
  return new StartupFailure({ message: `cannot listen on ${host}:${port}: ${reason}` })
}

const program = Effect.gen(function*() {
  const { databaseUrl, host, port: portText, requestPath: requestPathText, scenario: scenarioPath } = yield* settings
  const port = yield* parsePort(portText)
  const requestPath = yield* parseRequestPath(requestPathText)
  const scenario = yield* loadScenario(scenarioPath)
  // Opened, migrated and locked before anything listens, so a database it cannot use stops start-up
  // before the address is logged; they close when the server stops.
  const repositories = Layer.succeedContext(yield* Layer.build(yield* repositoriesOf(databaseUrl)))
  const channels = yield* loadChannels.pipe(
    Effect.mapError((error) => new StartupFailure({ message: error.message }))
  )
  const logAddress = Layer.effectDiscard(Effect.gen(function*() {
    const address = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
    const label = scenarioPath === "" ? "the demo scenario" : scenarioPath
    console.log(`swapdesk listening on ${address} (simulator: ${label}); API docs at ${address}/docs`)
  }))
  const nodeServer = createServer()
  const server = NodeHttpServer.layer(() => nodeServer, { port, host, gracefulShutdownTimeout: "5 seconds" })
  const adapters = Layer.merge(Layer.succeed(ChannelTransport, channels), WebhookSenderLive)
  const app = ClientErrors(nodeServer).pipe(
    Layer.provideMerge(simulatorApp(scenario, { requestPath, adapters, repositories }))
  )
  // The address is logged once the whole app is built (a SQL store's seeding and indexes load after
  // the socket opens), so whoever waits for the line never sends a request the app cannot take yet.
  yield* Layer.launch(logAddress.pipe(Layer.provide(serve(app)), Layer.provide(server))).pipe(
    Effect.catchTag("ServeError", (error) => Effect.fail(cannotListen(host, port, error.cause)))
  )
}).pipe(
  Effect.scoped,
  Effect.tapErrorTag("StartupFailure", (failure) => Effect.sync(() => console.error(`swapdesk: ${failure.message}`)))
)

NodeRuntime.runMain(program, {
  // Stopping on a signal is the normal way to end the server, not a failure.
  teardown: (exit, onExit) => onExit(exit._tag === "Success" || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
