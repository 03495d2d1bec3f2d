/**
 * A whole simulated deployment in one layer: the simulation built from a scenario, the core's ports
 * on it, in-memory repositories seeded with the scenario's accounts, the core's use cases, and the
 * control service. What the standalone server runs, and what a test of a trading system can run
 * in-process without HTTP.
 */
import {
  AccountRepository,
  ChannelTransport,
  DeliveriesUnderway,
  DomainLive,
  layerMemoryRepositories,
  noNotifications,
  RestoredIndexes,
  SecretHasher,
  WebhookTransport
} from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { layerPorts, layerPortsWith } from "./Ports.ts"
import type { ScenarioFile } from "./Scenario.ts"
import type { SimulationOptions } from "./Simulation.ts"
import { SimulationState } from "./SimulationState.ts"
import { SimulatorControl } from "./SimulatorControl.ts"
import type { WorldSnapshot } from "./WorldSnapshot.ts"

/** The scenario's accounts, with their plans and notification settings. */
const seedAccounts = (scenario: ScenarioFile) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const accounts = yield* AccountRepository
    for (const account of scenario.accounts ?? []) {
      yield* accounts.save({
        id: account.id,
        plan: account.plan ?? "free",
        notifications: { ...noNotifications, ...account.notifications }
      })
    }
  }))

/** Every repository port of core: where a simulated deployment keeps its records. */
export type SimulatorRepositories<E = never> = Layer.Layer<Layer.Success<typeof layerMemoryRepositories>, E>

/** How a simulated deployment runs, beside its scenario. */
export interface SimulatorOptions extends SimulationOptions {
  /**
   * The world to go on from (`takeWorldSnapshot`), taken of a deployment of the same scenario; the
   * repositories must then hold the records as they stood when it was taken, and the scenario's
   * accounts are not seeded again.
   */
  readonly snapshot?: WorldSnapshot | undefined
  /**
   * How API keys' secrets are hashed (`SecretHasher`): noble's SHA-256 unless given. A server gives
   * the hasher its authentication uses, so that keys created here sign in there.
   */
  readonly secretHasher?: SecretHasher["Service"] | undefined
}

/** The real channels and the webhook sender a simulated deployment uses. */
export type SimulatorAdapters = Layer.Layer<ChannelTransport | WebhookTransport>

/** No network at all: notifications are recorded in the outbox only, webhook attempts fail. */
export const noAdapters: SimulatorAdapters = Layer.merge(ChannelTransport.layerNone, WebhookTransport.layerNone)

/**
 * Everything a scenario runs on: `SimulationState`, the ports, the repositories, the use cases
 * (`Trades`, `Alerts`, `MarketData`, ...), `MarketReactor` and `SimulatorControl`. `adapters`
 * are the real channels and the webhook sender (by default none: nothing leaves the process);
 * `options` bound the event log and outbox; `repositories` keep the records (in memory unless given,
 * e.g. `@swapdesk/store`'s SQL layer). API keys are not seeded here: hashing them is the HTTP
 * layer's concern.
 */
export const layerSimulator = <E = never>(
  scenario: ScenarioFile,
  adapters: SimulatorAdapters = noAdapters,
  repositories: SimulatorRepositories<E> = layerMemoryRepositories as SimulatorRepositories<never>,
  options: SimulatorOptions = {}
) => {
  const snapshot = options.snapshot
  const simulation = SimulationState.layerFrom(scenario, snapshot?.simulation, options)
  const ports = options.secretHasher === undefined
    ? layerPorts
    : layerPortsWith(Layer.succeed(SecretHasher, options.secretHasher))
  const world = Layer.mergeAll(ports, repositories).pipe(
    Layer.provideMerge(simulation),
    Layer.provideMerge(adapters),
    // This world's own count, which `takeWorldSnapshot` reads.
    Layer.provideMerge(Layer.sync(DeliveriesUnderway, () => ({ count: 0 })))
  )
  // From a snapshot the records are the repositories' already, as they stood when it was taken.
  const seeded = snapshot === undefined ? seedAccounts(scenario).pipe(Layer.provideMerge(world)) : world
  const domain = DomainLive.pipe(
    Layer.provideMerge(seeded),
    Layer.provide(Layer.succeed(RestoredIndexes, snapshot?.indexes))
  )
  return SimulatorControl.layer.pipe(Layer.provideMerge(domain))
}
