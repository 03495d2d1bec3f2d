/**
 * @swapdesk/server: the standalone server on the simulator: the contract from `@swapdesk/http`
 * and the simulator's control routes (`/v1/sim/*`) on a simulation built from a scenario, and a
 * typed client for both. `swapdesk-server` (this package's `main.ts`) runs it from the shell.
 */
export * from "./api/SimulatorApi.ts"
export * from "./ControlAuthentication.ts"
export * from "./SimulatorClient.ts"
export * from "./SimulatorServer.ts"
