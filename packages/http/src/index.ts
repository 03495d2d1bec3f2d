/**
 * @swapdesk/http: the REST contract as an `HttpApi` definition, its handlers and server layers, and
 * a typed client. It runs on whatever implements the core's ports, and on any platform: it imports
 * no Node module. Node's own pieces (what Node's server knows of a request, parser refusals,
 * graceful shutdown, Node's `SecretHasher`) are in `@swapdesk/http/node`; the simulator-backed
 * standalone server is `@swapdesk/server`.
 */
export * from "./api/Api.ts"
export {
  type ApiErrorOf,
  BadRequest,
  bodyErrors,
  Conflict,
  type ErrorEnvelope,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  toApiError,
  TooManyRequests,
  Unauthorized,
  Unprocessable,
  UnsupportedMediaType
} from "./api/ApiErrors.ts"
export { Envelope, type Enveloped, successEnvelope } from "./api/Envelope.ts"
export * from "./api/RequestValidation.ts"
export {
  created,
  creation,
  deleteRoute,
  type Documentation,
  documented,
  type Examples,
  IdempotencyKey,
  IdempotencyKeyHeader,
  idempotentCreationRoute,
  idExample,
  itemRoute,
  jsonBody,
  queryRoute,
  readRoute,
  ResourceId,
  walletAnswerRoute
} from "./api/Routes.ts"
export * from "./api/Security.ts"
export { type HealthView, type NetworkHealthView } from "./api/SystemApi.ts"
export { TokensQuery, TokenView } from "./api/TokensApi.ts"
export { KeyAuthenticator, makeRefusals } from "./Authentication.ts"
export * from "./Client.ts"
export { CorsOrigins, parseCorsOrigins } from "./Cors.ts"
export { makeResponder, type Responder } from "./handlers/Responder.ts"
export { Backend, HealthNetworks } from "./handlers/SystemHandlers.ts"
export { type IdempotentClaim, IdempotentRequest, keptResponse } from "./Idempotency.ts"
export * as Logging from "./Logging.ts"
export { RateLimiter, RateLimits, type RateLimitSettings } from "./RateLimiter.ts"
export * as ApiHandlers from "./requestPath/ApiHandlers.ts"
export * as ApiRoutes from "./requestPath/ApiRoutes.ts"
export { pageSecurityHeaders, SECURITY_HEADERS } from "./SecurityHeaders.ts"
export * from "./Server.ts"
export * from "./ServerPlatform.ts"
