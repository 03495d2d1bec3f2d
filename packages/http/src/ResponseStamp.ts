/**
 * What a request's middlewares learn that its response must say, kept on the request until the
 * global middleware writes every header of its own in one step (`GlobalMiddleware.ts`, `finish`):
 * for now, the rate limiter's figures (`RateLimit-*`, and `Retry-After` over the limit).
 *
 * Every header set on an `HttpServerResponse` copies the whole header map and the response, and
 * a pre-response handler adds a closure and a step at send time; the rate limiter's three headers
 * set that way, after the global middleware's own, cost about as much as the rest of the global
 * middleware (docs/performance.md, round 5). The figures ride on the request object under a
 * private symbol: the request is the one object both the rate limiter (inside the route) and the
 * global middleware (around it) hold, and a property on it costs nothing to look up.
 */
import type { HttpServerRequest } from "effect/http"

/** The rate limiter's decision on one request, as its headers state it. */
export interface RateLimitFigures {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
  /** Whether the request was refused (`429`), which adds `Retry-After`. */
  readonly over: boolean
}

const rateLimitSlot: unique symbol = Symbol("@swapdesk/http/ResponseStamp/rateLimit")

interface Stamped {
  [rateLimitSlot]?: RateLimitFigures
}

/** Records the rate limiter's decision on `request`; the last one recorded is the one sent. */
export const recordRateLimit = (request: HttpServerRequest.HttpServerRequest, figures: RateLimitFigures): void => {
  ;(request as Stamped)[rateLimitSlot] = figures
}

/** Adds the headers of the rate limiter's decision on `request`, if there was one, to `headers`. */
export const addRateLimitHeaders = (
  request: HttpServerRequest.HttpServerRequest,
  headers: Record<string, string>
): void => {
  const figures = (request as Stamped)[rateLimitSlot]
  if (figures === undefined) return
  const reset = String(figures.resetSeconds)
  headers["ratelimit-limit"] = String(figures.limit)
  headers["ratelimit-remaining"] = String(figures.remaining)
  headers["ratelimit-reset"] = reset
  if (figures.over) headers["retry-after"] = reset
}
