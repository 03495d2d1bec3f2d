#!/usr/bin/env node
/**
 * The standalone server: `pnpm start`. Serves the contract, the simulator's control routes and the
 * trading interface (at `/`) on the scenario in `SCENARIO` (the built-in demo scenario when unset), at
 * `HOST`:`PORT`, logging in `LOG_FORMAT` (`text` or `json`) from `LOG_LEVEL` up (`info` unless set). It sends alerts on the real channels its settings
 * configure (`SMTP_URL`, `TELEGRAM_BOT_TOKEN`, `FCM_SERVICE_ACCOUNT` and their companions:
 * docs/alerts.md#channels). Off a loopback `HOST` the `/v1/sim` routes take
 * `SIM_CONTROL_KEY` (generated and printed once when unset); `SIM_LOG_MAX` bounds the event log and
 * the outbox, `CORS_ORIGINS` lists the origins browsers may call from, and
 * `WEBHOOK_ALLOW_PRIVATE_URLS=false` refuses webhook URLs that reach private addresses. On SIGINT or SIGTERM it stops
 * accepting connections, answers every request received or arriving on an open connection with
 * `Connection: close`, and exits 0 (`GracefulShutdown.ts`).  It keeps its records in
 * `DATABASE_URL` (`sqlite:<file>` or `postgres://...`; in memory when unset: docs/storage.md), a
 * database no other simulator server holds. A setting
 * it cannot start with (a bad `PORT`, a scenario it cannot read or decode, an address it cannot
 * listen on) is named in one message, and it exits 1. Requests Node's HTTP parser refuses get the
 * contract's error envelope too (`ClientErrors.ts`).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { layerWebhookSender, loadChannels } from "@swapdesk/channels"
import { ChannelTransport, layerMemoryRepositories } from "@swapdesk/core"
import { Logging, parseCorsOrigins as corsOriginsOf, serve } from "@swapdesk/http"
import { ClientErrors, gracefulShutdown } from "@swapdesk/http/node"
import {
  decodeScenario,
  demoScenario,
  InvalidScenario,
  type ScenarioFile,
  type SimulatorRepositories,
  SnapshotRefused
} from "@swapdesk/simulator"
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
import { Cause, Config, Data, Effect, Layer, Runtime } from "effect"
import { HttpServer } from "effect/http"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { isIPv4 } from "node:net"
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
  logFormat: Config.String("LOG_FORMAT").pipe(Config.withDefault("")),
  logLevel: Config.String("LOG_LEVEL").pipe(Config.withDefault("")),
  controlKey: Config.String("SIM_CONTROL_KEY").pipe(Config.withDefault("")),
  logMax: Config.String("SIM_LOG_MAX").pipe(Config.withDefault("")),
  corsOrigins: Config.String("CORS_ORIGINS").pipe(Config.withDefault("")),
  databaseUrl: Config.String("DATABASE_URL").pipe(Config.withDefault("")),
  allowPrivateUrls: Config.String("WEBHOOK_ALLOW_PRIVATE_URLS").pipe(Config.withDefault(""))
})

/**
 * Whether `host` is a loopback address, reachable from this machine only: `localhost`,
 * `127.0.0.0/8` (also as an IPv4-mapped IPv6 address) and `::1`. Any other, `0.0.0.0` and `::`
 * included, may be reachable from elsewhere.
 */
const isLoopbackHost = (host: string): boolean => {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, "$1")
  if (name === "localhost" || name === "::1" || name === "0:0:0:0:0:0:0:1") return true
  const ipv4 = name.startsWith("::ffff:") ? name.slice("::ffff:".length) : name
  return isIPv4(ipv4) && ipv4.split(".")[0] === "127"
}

/**
 * The key the control routes take: off loopback, required, `SIM_CONTROL_KEY` or one generated now,
 * which the server prints once; on loopback none is needed, and a set one is accepted.
 */
const controlFor = (
  host: string,
  configured: string
): {
  readonly access: { readonly key: string; readonly required: boolean } | undefined
  readonly generated: boolean
} => {
  const required = !isLoopbackHost(host)
  if (configured !== "") return { access: { key: configured, required }, generated: false }
  return required
    ? { access: { key: randomBytes(30).toString("base64url"), required }, generated: true }
    : { access: undefined, generated: false }
}

/** `SIM_LOG_MAX`: how many entries the event log and the outbox each keep; 1 to 10,000,000. */
const parseLogMax = (text: string): Effect.Effect<number | undefined, StartupFailure> => {
  if (text === "") return Effect.succeed(undefined)
  const max = /^[0-9]{1,8}$/.test(text) ? Number(text) : Number.NaN
  return max >= 1 && max <= 10_000_000 ? Effect.succeed(max) : Effect.fail(
    new StartupFailure({ message: `SIM_LOG_MAX must be an integer from 1 to 10000000 (found ${JSON.stringify(text)})` })
  )
}

/** `CORS_ORIGINS`: a comma-separated list of origins (`scheme://host[:port]`) browsers may call the API from. */
const parseCorsOrigins = (text: string): Effect.Effect<ReadonlyArray<string>, StartupFailure> => {
  const origins = corsOriginsOf(text)
  return typeof origins === "string"
    ? Effect.fail(new StartupFailure({ message: `CORS_ORIGINS: ${origins}` }))
    : Effect.succeed(origins)
}

/**
 * `WEBHOOK_ALLOW_PRIVATE_URLS`: `true` or `false`. Unset, the simulator's default: any host, as
 * local receivers are how its users test; `false` applies the address rule (docs/alerts.md#webhooks)
 * for a simulator that untrusted callers can reach.
 */
const parseAllowPrivateUrls = (text: string): Effect.Effect<boolean, StartupFailure> =>
  text === "" || text === "true"
    ? Effect.succeed(true)
    : text === "false"
    ? Effect.succeed(false)
    : Effect.fail(
      new StartupFailure({
        message: `WEBHOOK_ALLOW_PRIVATE_URLS must be true or false (found ${JSON.stringify(text)})`
      })
    )

/** A URL with its password hidden, for messages. */
const redactUrl = (url: string): string => url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@")

/** Where the records are kept, and (with a database) its journal and the restore from it. */
type Store = Layer.Layer<
  Layer.Success<SimulatorRepositories> | SimulatorJournal | SimulatorSnapshots | Restoring | UnansweredClaims,
  StartupFailure
>

/**
 * The records' store: in memory when `DATABASE_URL` is unset; otherwise the SQL store, opened and
 * migrated, with this process holding the database's simulator lock for its whole life, and the
 * simulation's journal, replayed once the world is built (docs/storage.md#what-a-restart-restores).
 */
const repositoriesOf = (databaseUrl: string): Effect.Effect<Store | undefined, StartupFailure> => {
  if (databaseUrl === "") return Effect.succeed(undefined)
  const label = `DATABASE_URL ${redactUrl(databaseUrl)}`
  return Effect.try({
    try: () => SqlStore.parseDatabaseUrl(databaseUrl),
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

/** `LOG_FORMAT` and `LOG_LEVEL` as the server's logging. */
const parseLogging = (format: string, level: string) => {
  const logFormat = Logging.parseLogFormat(format)
  const logLevel = Logging.parseLogLevel(level)
  if (logFormat === undefined) {
    return Effect.fail(
      new StartupFailure({ message: `LOG_FORMAT must be text or json (found ${JSON.stringify(format)})` })
    )
  }
  if (logLevel === undefined) {
    return Effect.fail(
      new StartupFailure({ message: `LOG_LEVEL must be error, warn, info or debug (found ${JSON.stringify(level)})` })
    )
  }
  return Effect.succeed(Logging.layer(logFormat, logLevel))
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
  const { host, port: portText, scenario: scenarioPath, databaseUrl, ...more } = yield* settings
  const port = yield* parsePort(portText)
  const logging = yield* parseLogging(more.logFormat, more.logLevel)
  const logMax = yield* parseLogMax(more.logMax)
  const corsOrigins = yield* parseCorsOrigins(more.corsOrigins)
  const allowPrivateUrls = yield* parseAllowPrivateUrls(more.allowPrivateUrls)
  const scenario = yield* loadScenario(scenarioPath)
  // Opened, migrated and locked before anything listens, so a database it cannot use stops start-up
  // before the address is logged; they close when the server stops.
  const store = yield* repositoriesOf(databaseUrl)
  const stored = store === undefined ? undefined : Layer.succeedContext(yield* Layer.build(store))
  const channels = yield* loadChannels.pipe(
    Effect.mapError((error) => new StartupFailure({ message: error.message }))
  )
  const control = controlFor(host, more.controlKey)
  const logAddress = Layer.effectDiscard(Effect.gen(function*() {
    const address = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
    const label = scenarioPath === "" ? "the demo scenario" : scenarioPath
    console.log(
      `swapdesk listening on ${address} (simulator: ${label}); the trading interface at ${address}/, API docs at ${address}/docs`
    )
    if (control.generated) {
      console.log(
        `SIM_CONTROL_KEY is not set and ${host} is not a loopback address: the /v1/sim routes take ` +
          `Authorization: Bearer ${control.access?.key} (generated now, shown once)`
      )
    }
  }))
  // Node's own 400 for a request without `Host` has no envelope; the global middleware answers it.
  const nodeServer = createServer({ requireHostHeader: false })
  const shutdown = gracefulShutdown(nodeServer)
  const server = NodeHttpServer.layer(() => nodeServer, { port, host, gracefulShutdownTimeout: "5 seconds" })
  const adapters = Layer.merge(Layer.succeed(ChannelTransport, channels), layerWebhookSender({ allowPrivateUrls }))
  const app = ClientErrors(nodeServer).pipe(
    Layer.provideMerge(simulatorApp(scenario, {
      adapters,
      repositories: stored ?? layerMemoryRepositories,
      durable: stored,
      control: control.access,
      logMax,
      corsOrigins
    }))
  )
  // The address is logged once the whole app is built (a SQL store's seeding and indexes load after
  // the socket opens), so whoever waits for the line never sends a request the app cannot take yet.
  // Inside the scope, so that requests are answered before the server's layers are released.
  yield* Effect.scoped(
    Effect.andThen(
      Layer.build(logAddress.pipe(Layer.provide(serve(app)), Layer.provide(server), Layer.provide(logging))).pipe(
        // The stored world was simulated on another scenario: the operator's to fix, not a defect.
        Effect.catchDefect((defect) =>
          defect instanceof SnapshotRefused
            ? Effect.fail(
              new StartupFailure({
                message:
                  `DATABASE_URL ${
                    redactUrl(databaseUrl)
                  }: its snapshot was taken on another scenario (${defect.message}); ` +
                  "start the server on the scenario it ran with, or on a new database"
              })
            )
            : Effect.die(defect)
        )
      ),
      Effect.never.pipe(Effect.onInterrupt(() => Effect.promise(() => shutdown.drain())))
    )
  ).pipe(Effect.catchTag("ServeError", (error) => Effect.fail(cannotListen(host, port, error.cause))))
}).pipe(
  Effect.scoped,
  Effect.tapErrorTag("StartupFailure", (failure) => Effect.sync(() => console.error(`swapdesk: ${failure.message}`)))
)

NodeRuntime.runMain(program, {
  // Stopping on a signal is the normal way to end the server, not a failure.
  teardown: (exit, onExit) => onExit(exit._tag === "Success" || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
