/**
 * A simulated deployment's world as plain data: the simulation (market, chains, wallets, agenda,
 * event log and outbox, the id stream) and the use cases' indexes (the alert engine, the order
 * book), taken at one moment. With the records as they stood at that moment, kept by whoever
 * keeps the repositories, `layerSimulator` goes on from it exactly as the world it was taken of
 * would have (docs/simulator.md#snapshots; the server's restart uses it, docs/storage.md#snapshots).
 */
import { AlertIndex, DeliveriesUnderway, type IndexesSnapshot, OrderIndex } from "@swapdesk/core"
import { Effect } from "effect"
import type { SimulationSnapshot } from "./Simulation.ts"
import { SimulationState } from "./SimulationState.ts"

export interface WorldSnapshot {
  readonly simulation: SimulationSnapshot
  readonly indexes: IndexesSnapshot
}

/**
 * The world now, or undefined while something no snapshot can hold is under way: a webhook or
 * notification delivery (an attempt runs in a fiber, a retry waits on the agenda as an effect), or
 * a step whose report has not been handed over. Take it between two calls, when nothing else
 * changes the world, and try again later when it answers undefined.
 */
export const takeWorldSnapshot: Effect.Effect<
  WorldSnapshot | undefined,
  never,
  SimulationState | AlertIndex | OrderIndex
> = Effect.gen(function*() {
  if ((yield* DeliveriesUnderway).count > 0) return undefined
  const simulation = (yield* SimulationState).snapshot()
  if (simulation === undefined) return undefined
  return { simulation, indexes: { alerts: (yield* AlertIndex).snapshot(), orders: (yield* OrderIndex).snapshot() } }
})
