/**
 * The running simulation as a service, and the layers that build it from a scenario, fresh or from
 * a snapshot (docs/simulator.md#snapshots).
 */
import { Context, Layer } from "effect"
import type { ScenarioFile } from "./Scenario.ts"
import { Simulation, type SimulationOptions, type SimulationSnapshot } from "./Simulation.ts"

export class SimulationState extends Context.Service<SimulationState, Simulation>()(
  "@swapdesk/simulator/SimulationState"
) {
  static readonly layer = (scenario: ScenarioFile, options: SimulationOptions = {}) =>
    Layer.sync(SimulationState, () => new Simulation(scenario, options))

  /**
   * The simulation restored from `snapshot` (taken of a simulation of the same `scenario`), or a
   * fresh one when there is none. A snapshot of another scenario or format is a defect of the layer.
   */
  static readonly layerFrom = (
    scenario: ScenarioFile,
    snapshot: SimulationSnapshot | undefined,
    options: SimulationOptions = {}
  ) =>
    Layer.sync(
      SimulationState,
      () => snapshot === undefined ? new Simulation(scenario, options) : Simulation.restore(scenario, snapshot, options)
    )
}
