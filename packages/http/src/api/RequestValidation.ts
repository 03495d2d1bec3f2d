/**
 * Turns the HttpApi's schema failures into the contract's errors: an unparseable body is
 * `MALFORMED_JSON`; anything else that fails to decode is `VALIDATION_ERROR` with one
 * `{ path, message }` per problem, the path starting at the field (query parameters and body
 * fields alike, as a client names them).
 */
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "./ApiErrors.ts"

/** Turns a schema's refusal of a request part into the contract's `400 VALIDATION_ERROR` (`layerRequestValidation`). */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()(
  "@swapdesk/http/RequestValidation",
  { error: BadRequest }
) {}
