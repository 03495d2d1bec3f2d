/**
 * What the request steps share: the shape of a step, the request target's path, and the error
 * envelopes they answer with (docs/reference/errors.md).
 */
import {
  errorCatalogue,
  type ErrorCode,
  MarketClock,
  REQUEST_BODY_MAX_BYTES,
  type ValidationIssue
} from "@swapdesk/core"
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorBody } from "../api/ApiErrors.ts"

/** What the rest of the chain answers a request with. */
export type Routed = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>

/**
 * One concern on a request's way in: given the request and what the rest of the chain would
 * answer, what this step answers. A step that lets the request through returns `next` itself.
 */
export type Step = (request: HttpServerRequest.HttpServerRequest, next: Routed) => Routed

/** The path of a request target, up to its query: by `indexOf`, as `split` builds an array on every call. */
export const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** The error envelopes the steps answer with, stamped with the market clock. */
export interface Answers {
  readonly envelope: (
    code: ErrorCode,
    message: string,
    options?: { readonly headers?: Record<string, string>; readonly details?: ReadonlyArray<ValidationIssue> }
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** `NOT_FOUND` for a request no route takes. */
  readonly notFound: (
    request: HttpServerRequest.HttpServerRequest
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** `PAYLOAD_TOO_LARGE`: a body over the limit. */
  readonly tooLarge: Effect.Effect<HttpServerResponse.HttpServerResponse>
}

/** The steps' `Answers`, stamped with the market clock. */
export const makeAnswers: Effect.Effect<Answers, never, MarketClock> = Effect.map(MarketClock, (clock) => {
  const envelope: Answers["envelope"] = (code, message, options = {}) =>
    Effect.map(clock.now, (ms) =>
      HttpServerResponse.jsonUnsafe(errorBody(code, message, ms, options.details), {
        status: errorCatalogue[code].status,
        ...(options.headers === undefined ? {} : { headers: options.headers })
      }))
  return {
    envelope,
    notFound: (request) => envelope("NOT_FOUND", `no route for ${request.method} ${pathOf(request.url)}`),
    tooLarge: envelope("PAYLOAD_TOO_LARGE", `the request body is over ${REQUEST_BODY_MAX_BYTES} bytes`)
  }
})
