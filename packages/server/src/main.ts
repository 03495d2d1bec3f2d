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
 * contract's error envelope too (`ClientErrors.ts`). The settings are read in `ServerSettings.ts`
 * and the database opened in `SimulatorDatabase.ts`; this module composes and runs the server.
 * With `LIVE_CONFIG` set it runs the live server instead (docs/live.md): the file and the delegated
 * wallets' keys checked (`live/LiveStart.ts`), `DATABASE_URL` required, then `LiveServer.ts` on the
 * file's EVM networks.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { layerWebhookSender, loadChannels } from "@swapdesk/channels"
import { ChannelTransport, layerMemoryRepositories, type MarketClock } from "@swapdesk/core"
import { liveNetworksOf } from "@swapdesk/evm"
import { Logging, serve } from "@swapdesk/http"
import { ClientErrors, gracefulShutdown, NodeServerPlatform } from "@swapdesk/http/node"
import { decodeScenario, demoScenario, InvalidScenario, type ScenarioFile } from "@swapdesk/simulator"
import { Cause, Effect, Layer, Redacted } from "effect"
import { type HttpRouter, HttpServer } from "effect/http"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { isIPv4 } from "node:net"
import { dirname } from "node:path"
import { openLiveDatabase } from "./live/LiveDatabase.ts"
import { prepareLiveStart } from "./live/LiveStart.ts"
import { liveApp } from "./LiveServer.ts"
import { ServerSettings, settingRefusal } from "./ServerSettings.ts"
import { cannotRestore, openSimulatorDatabase } from "./SimulatorDatabase.ts"
import { simulatorApp } from "./SimulatorServer.ts"
import { StartupFailure } from "./StartupFailure.ts"

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

const loadScenario = (path: string | undefined): Effect.Effect<ScenarioFile, StartupFailure> => {
  if (path === undefined) return Effect.sync(() => decodeScenario(demoScenario))
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

/**
 * Serves `app` (built on the Node server it is given) at `host`:`port` until a signal stops it:
 * the address is announced once the whole app is built (a SQL store's seeding and indexes load
 * after the socket opens), so whoever waits for the line never sends a request the app cannot take
 * yet; a defect `refusal` recognises while building stops the start in its words.
 */
const serveUntilStopped = (
  settings: ServerSettings,
  app: (nodeServer: Server) => Layer.Layer<MarketClock, StartupFailure, HttpRouter.HttpRouter>,
  announce: (address: string) => void,
  refusal: (defect: unknown) => StartupFailure | undefined = () => undefined
) => {
  const { host, port } = settings
  // Node's own 400 for a request without `Host` has no envelope; the global middleware answers it.
  const nodeServer = createServer({ requireHostHeader: false })
  const shutdown = gracefulShutdown(nodeServer)
  const server = NodeHttpServer.layer(() => nodeServer, { port, host, gracefulShutdownTimeout: "5 seconds" })
  const logAddress = Layer.effectDiscard(
    Effect.map(HttpServer.HttpServer, (http) => announce(HttpServer.formatAddress(http.address)))
  )
  // Inside the scope, so that requests are answered before the server's layers are released.
  return Effect.scoped(
    Effect.andThen(
      Layer.build(
        logAddress.pipe(
          Layer.provide(serve(ClientErrors(nodeServer).pipe(Layer.provideMerge(app(nodeServer))))),
          Layer.provide(NodeServerPlatform),
          Layer.provide(server),
          Layer.provide(Logging.layer(settings.logFormat, settings.logLevel))
        )
      ).pipe(
        Effect.catchDefect((defect) => {
          const refused = refusal(defect)
          return refused === undefined ? Effect.die(defect) : Effect.fail(refused)
        })
      ),
      Effect.never.pipe(Effect.onInterrupt(() => Effect.promise(() => shutdown.drain())))
    )
  ).pipe(Effect.catchTag("ServeError", (error) => Effect.fail(cannotListen(host, port, error.cause))))
}

/**
 * The real notification channels the settings configure (docs/alerts.md#channels) and the webhook
 * sender, the same for both backends; a channel it cannot set up stops the start.
 */
const channelAdapters = (settings: ServerSettings) =>
  Effect.map(
    loadChannels.pipe(Effect.mapError((error) => new StartupFailure({ message: error.message }))),
    (channels) =>
      Layer.merge(
        Layer.succeed(ChannelTransport, channels),
        layerWebhookSender({ allowPrivateUrls: settings.allowPrivateUrls })
      )
  )

/** The live server (`LIVE_CONFIG`, docs/live.md): checked, then served on the chains and the SQL store. */
const runLive = (settings: ServerSettings, liveConfig: string) =>
  Effect.gen(function*() {
    const start = yield* prepareLiveStart(
      { liveConfig, scenario: settings.scenario, databaseUrl: settings.databaseUrl },
      process.env
    )
    const repositories = yield* openLiveDatabase(start.databaseUrl)
    const adapters = yield* channelAdapters(settings)
    yield* serveUntilStopped(
      settings,
      () =>
        liveApp(start.config, {
          signers: start.signers,
          executors: start.executors,
          repositories,
          adapters,
          corsOrigins: settings.corsOrigins,
          followers: { dropGraceMs: settings.liveDropGraceSeconds * 1000 }
        }),
      (address) =>
        console.log(
          `swapdesk listening on ${address} (live: ${liveConfig}, networks ${
            liveNetworksOf(start.config).map(([name]) => name).join(", ")
          }); ` +
            `the trading interface at ${address}/, API docs at ${address}/docs`
        )
    )
  })

/** The simulator server (`SCENARIO`, or the demo scenario). */
const runSimulator = (settings: ServerSettings) =>
  Effect.gen(function*() {
    const { databaseUrl, host, scenario: scenarioPath } = settings
    const scenario = yield* loadScenario(scenarioPath)
    // Opened, migrated and locked before anything listens, so a database it cannot use stops start-up
    // before the address is logged; they close when the server stops.
    const store = yield* openSimulatorDatabase(databaseUrl)
    const stored = store === undefined ? undefined : Layer.succeedContext(yield* Layer.build(store))
    const adapters = yield* channelAdapters(settings)
    const control = controlFor(host, settings.controlKey === undefined ? "" : Redacted.value(settings.controlKey))
    yield* serveUntilStopped(
      settings,
      () =>
        simulatorApp(scenario, {
          adapters,
          repositories: stored ?? layerMemoryRepositories,
          durable: stored,
          control: control.access,
          logMax: settings.logMax,
          corsOrigins: settings.corsOrigins
        }),
      (address) => {
        const label = scenarioPath ?? "the demo scenario"
        console.log(
          `swapdesk listening on ${address} (simulator: ${label}); the trading interface at ${address}/, API docs at ${address}/docs`
        )
        if (control.generated) {
          console.log(
            `SIM_CONTROL_KEY is not set and ${host} is not a loopback address: the /v1/sim routes take ` +
              `Authorization: Bearer ${control.access?.key} (generated now, shown once)`
          )
        }
      },
      (defect) => cannotRestore(databaseUrl, defect)
    )
  })

const program = Effect.gen(function*() {
  const settings = yield* Effect.mapError(
    ServerSettings,
    (error) => new StartupFailure({ message: settingRefusal(error) })
  )
  return yield* settings.liveConfig === undefined ? runSimulator(settings) : runLive(settings, settings.liveConfig)
}).pipe(
  Effect.scoped,
  Effect.tapErrorTag("StartupFailure", (failure) => Effect.sync(() => console.error(`swapdesk: ${failure.message}`)))
)

NodeRuntime.runMain(program, {
  // Stopping on a signal is the normal way to end the server, not a failure.
  teardown: (exit, onExit) => onExit(exit._tag === "Success" || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
