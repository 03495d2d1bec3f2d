/**
 * @swapdesk/simulator: a deterministic market, four chains and wallets behind the core's ports,
 * driven by a scenario.
 */
export * from "./chain/index.ts"
export * from "./DemoScenario.ts"
export * from "./EventLog.ts"
export type { CandleSeries } from "./market/CandleFile.ts"
export * from "./Ports.ts"
export * from "./Prng.ts"
export * from "./Scenario.ts"
export * from "./Scheduler.ts"
export * from "./Simulation.ts"
export * from "./SimulationState.ts"
export * from "./Simulator.ts"
export * from "./SimulatorControl.ts"
export * from "./WorldSnapshot.ts"
