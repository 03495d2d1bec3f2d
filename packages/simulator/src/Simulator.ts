/**
 * A whole simulated deployment in one layer: the simulation built from a scenario, the core's ports
 * on it, in-memory repositories seeded with the scenario's accounts, the core's use cases, and the
 * control service. What the standalone server runs, and what a test of a trading system can run
 * in-process without HTTP.
 */
import {
  AccountRepository,
  ChannelTransport,
  DomainLive,
  layerMemoryRepositories,
  noNotifications,
  WebhookTransport
} from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { layerPorts } from "./Ports.ts"
import type { ScenarioFile } from "./Scenario.ts"
import type { SimulationOptions } from "./Simulation.ts"
import { SimulationState } from "./SimulationState.ts"
import { SimulatorControl } from "./SimulatorControl.ts"

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
  options: SimulationOptions = {}
) => {
  const world = Layer.mergeAll(layerPorts, repositories).pipe(
    Layer.provideMerge(SimulationState.layer(scenario, options)),
    Layer.provideMerge(adapters)
  )
  const seeded = seedAccounts(scenario).pipe(Layer.provideMerge(world))
  const domain = DomainLive.pipe(Layer.provideMerge(seeded))
  return SimulatorControl.layer.pipe(Layer.provideMerge(domain))
}
