/**
 * @swapdesk/http: the REST contract as an `HttpApi` definition, its handlers and server layers,
 * the simulator-backed standalone server, and a typed client.
 */
export * from "./api/Api.ts"
export * from "./api/ApiErrors.ts"
export * from "./api/Envelope.ts"
export * from "./api/Security.ts"
export * as ApiRoutes from "./ApiRoutes.ts"
export * from "./Client.ts"
export * from "./ClientErrors.ts"
export * from "./Server.ts"
export * from "./SimulatorServer.ts"
