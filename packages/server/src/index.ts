/**
 * @swapdesk/server: the standalone server on the simulator: the contract from `@swapdesk/http`
 * and the simulator's control routes (`/v1/sim/*`) on a simulation built from a scenario, and a
 * typed client for both; and the live server (`liveApp`) on real EVM networks. `swapdesk-server` (this package's `main.ts`) runs it from the shell.
 */
export * from "./api/SimulatorApi.ts"
export * from "./ControlAuthentication.ts"
export * from "./LiveServer.ts"
export * from "./SimulatorClient.ts"
export * from "./SimulatorServer.ts"
