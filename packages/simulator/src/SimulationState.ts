/**
 * The running simulation as a service, and the layer that builds it from a scenario.
 */
import { Context, Layer } from "effect"
import type { ScenarioFile } from "./Scenario.ts"
import { Simulation, type SimulationOptions } from "./Simulation.ts"

export class SimulationState extends Context.Service<SimulationState, Simulation>()(
  "@swapdesk/simulator/SimulationState"
) {
  static readonly layer = (scenario: ScenarioFile, options: SimulationOptions = {}) =>
    Layer.sync(SimulationState, () => new Simulation(scenario, options))
}
