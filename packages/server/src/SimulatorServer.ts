/**
 * The standalone server's world: the contract, the `/v1/sim` routes and the trading interface
 * (`@swapdesk/web`, at `/`) on a simulation built from a scenario, with in-memory repositories
 * seeded from it. In realtime mode a driver moves the market clock with the wall clock; in manual
 * mode nothing moves until `/v1/sim/clock/advance`.
 */
import { layerWebhookSender } from "@swapdesk/channels"
import { ApiKeyRepository, ChannelTransport, IdGenerator, rateLimitsPerMinute, SecretHasher } from "@swapdesk/core"
import {
  ApiMiddlewares,
  Backend,
  ContractHandlers,
  CorsOrigins,
  RateLimits,
  type RateLimitSettings,
  serveApi
} from "@swapdesk/http"
import { sha256Hex } from "@swapdesk/http/node"
import {
  layerSimulator,
  type ScenarioFile,
  SimulationState,
  type SimulatorAdapters,
  SimulatorControl,
  type SimulatorRepositories,
  type WorldSnapshot
} from "@swapdesk/simulator"
import { Restoring, type SimulatorJournal, type SimulatorSnapshots, type UnansweredClaims } from "@swapdesk/store"
import { InterfaceRoutes } from "@swapdesk/web"
import { Clock, Effect, Layer, Schedule } from "effect"
import type { HttpRouter } from "effect/http"
import { SimulatorBackedApi } from "./api/SimulatorApi.ts"
import { ControlAccess, layerControlAuthentication } from "./ControlAuthentication.ts"
import { SimulatorHandlers } from "./handlers/SimulatorHandlers.ts"
import { JournalReplay, layerJournaled, restoringAdapters } from "./JournaledWorld.ts"

/** Node's SHA-256: authentication hashes the key of every request that carries one (docs/performance.md). */
const nodeHasher: SecretHasher["Service"] = { sha256Hex }

/** How often the realtime driver catches the market up with the wall clock. */
const REALTIME_STEP_MS = 50

/** The scenario's API keys, stored as hashes only, by the hasher that creates and authenticates keys. */
const SeedApiKeys = (scenario: ScenarioFile) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const keys = yield* ApiKeyRepository
    const ids = yield* IdGenerator
    const hasher = yield* SecretHasher
    const sim = yield* SimulationState
    for (const account of scenario.accounts ?? []) {
      for (const key of account.apiKeys ?? []) {
        yield* keys.insert({
          id: yield* ids.next("apiKey"),
          accountId: account.id,
          name: key.name,
          prefix: key.key.slice(0, 12),
          last4: key.key.slice(-4),
          secretHash: hasher.sha256Hex(key.key),
          scopes: key.scopes,
          createdAt: sim.startMs,
          lastUsedAt: null,
          expiresAt: key.expiresAt === undefined ? null : Date.parse(key.expiresAt),
          revokedAt: null
        })
      }
    }
  }))

/** The scenario's `rateLimits`: `false` turns them off, an object overrides the per-minute limits. */
const rateLimitsOf = (scenario: ScenarioFile): RateLimitSettings => {
  const setting = scenario.rateLimits ?? true
  if (typeof setting === "boolean") return { enabled: setting, perMinute: rateLimitsPerMinute }
  return { enabled: true, perMinute: { ...rateLimitsPerMinute, ...setting } }
}

/**
 * Realtime mode: market time = its time at launch (the start, or where a restored run was) + (wall
 * time since launch) × speed.
 */
const RealtimeDriver = Layer.effectDiscard(Effect.gen(function*() {
  const sim = yield* SimulationState
  if (sim.mode !== "realtime") return
  const control = yield* SimulatorControl
  const launchedAt = yield* Clock.currentTimeMillis
  const from = sim.now
  const catchUp = Effect.flatMap(
    Clock.currentTimeMillis,
    (wall) => control.advanceTo(from + Math.floor((wall - launchedAt) * sim.speed))
  )
  yield* catchUp.pipe(Effect.repeat(Schedule.spaced(REALTIME_STEP_MS)), Effect.forkScoped)
}))

/** How the standalone server runs its simulation. */
export interface SimulatorAppOptions<E = never> {
  /**
   * The operator's key for the `/v1/sim` routes (`SIM_CONTROL_KEY`), and whether they require it (off
   * a loopback address) or merely accept it; open to all unless given (docs/simulator.md#control-routes).
   */
  readonly control?: { readonly key: string; readonly required: boolean } | undefined
  /**
   * How API keys' secrets are hashed, for the scenario's keys, the keys created through the API and
   * every request's authentication alike; Node's SHA-256 (`@swapdesk/http/node`) unless given.
   */
  readonly secretHasher?: SecretHasher["Service"] | undefined
  /** How many entries the event log and the outbox each keep (`SIM_LOG_MAX`). */
  readonly logMax?: number | undefined
  /** The origins browsers may call the API from (`CORS_ORIGINS`); none unless given. */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /** Real notification channels and the webhook sender (`webhooksOnly` unless given). */
  readonly adapters?: SimulatorAdapters
  /** Where the records are kept (in memory unless given; `main.ts` reads `DATABASE_URL`). */
  readonly repositories?: SimulatorRepositories<E>
  /**
   * With a durable store: its journal and the restore in progress (`layerRestoringRepositories`
   * over the same store as `repositories`). The world's calls are journaled, and the journal found
   * at start is replayed before the app serves, and the `Idempotency-Key` claims left without a
   * response are answered or released (docs/storage.md#what-a-restart-restores).
   */
  readonly durable?: Layer.Layer<SimulatorJournal | SimulatorSnapshots | Restoring | UnansweredClaims> | undefined
}

/** Replays the journal found at start, when there is one. */
const Restore = Layer.effectDiscard(Effect.flatMap(JournalReplay, (replay) => replay.restore))

/**
 * Webhooks over real HTTP to any host (on the simulator, loopback receivers are how tests listen),
 * and no real notification channel: notifications are recorded in the outbox only. `main.ts` adds
 * the channels the settings configure, and the address rule when `WEBHOOK_ALLOW_PRIVATE_URLS=false`.
 */
export const webhooksOnly: SimulatorAdapters = Layer.merge(
  ChannelTransport.layerNone,
  layerWebhookSender({ allowPrivateUrls: true })
)

/**
 * Everything the standalone server runs on a scenario, the trading interface at `/` included;
 * provide an HTTP server to serve it.
 */
export const simulatorApp = <E = never>(
  scenario: ScenarioFile,
  options: SimulatorAppOptions<E> = {}
): Layer.Layer<Layer.Success<ReturnType<typeof layerSimulator>>, E, HttpRouter.HttpRouter> => {
  const handlers = Layer.mergeAll(ContractHandlers, SimulatorHandlers).pipe(
    Layer.provide(Layer.succeed(Backend, "simulator"))
  )
  const adapters = options.adapters ?? webhooksOnly
  const durable = options.durable
  const simulator = (adapters: SimulatorAdapters, snapshot?: WorldSnapshot) =>
    layerSimulator(scenario, adapters, options.repositories, {
      logMax: options.logMax,
      snapshot,
      secretHasher: options.secretHasher ?? nodeHasher
    })
  // Seeded keys draw their ids first (on a new world: a snapshot holds them and the id stream past
  // them), then the journal replays, then the realtime clock runs on.
  const startup = (restore: boolean, snapshot: WorldSnapshot | undefined) =>
    RealtimeDriver.pipe(
      Layer.provide(restore ? Restore : Layer.empty),
      Layer.provide(snapshot === undefined ? SeedApiKeys(scenario) : Layer.empty)
    )
  const world = durable === undefined
    ? startup(false, undefined).pipe(Layer.provideMerge(simulator(adapters)))
    : Layer.unwrap(Effect.map(Restoring, (restoring) => {
      const snapshot = restoring.world as WorldSnapshot | undefined
      return startup(true, snapshot).pipe(
        Layer.provideMerge(layerJournaled),
        Layer.provideMerge(simulator(restoringAdapters(adapters).pipe(Layer.provide(durable)), snapshot))
      )
    })).pipe(Layer.provide(durable))
  return Layer.merge(serveApi(SimulatorBackedApi), InterfaceRoutes.layer()).pipe(
    Layer.provide(handlers),
    Layer.provide(Layer.succeed(CorsOrigins, new Set(options.corsOrigins ?? []))),
    Layer.provide(layerControlAuthentication.pipe(
      Layer.provide(Layer.succeed(ControlAccess, options.control ?? { key: undefined, required: false })),
      Layer.provideMerge(ApiMiddlewares.pipe(Layer.provide(Layer.succeed(RateLimits, rateLimitsOf(scenario)))))
    )),
    Layer.provideMerge(world as Layer.Layer<Layer.Success<ReturnType<typeof layerSimulator>>, E>)
  )
}
