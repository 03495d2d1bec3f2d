/**
 * @swapdesk/web: the trading interface, a web app that talks to the server only through the public
 * `/v1` API, and `InterfaceRoutes.layer`, which serves its built files with their security headers
 * from any server built on `effect/http`.
 */
export * as InterfaceRoutes from "./InterfaceRoutes.ts"
