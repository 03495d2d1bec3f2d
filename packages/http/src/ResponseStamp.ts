/**
 * How the server's own headers get onto a response in one step (`GlobalMiddleware.ts`, `finish`):
 * what a request's middlewares learn that its response must say is kept on the request until then
 * (for now the rate limiter's figures: `RateLimit-*`, and `Retry-After` over the limit), and the
 * headers are written with one copy of the response (`withHeaders`).
 *
 * Every header set through `HttpServerResponse.setHeader` copies the header map and the response,
 * `setHeaders` normalises its record through `Object.entries` and two spreads first, and a
 * pre-response handler adds a closure and a step at send time: the request id, the security
 * headers and the rate limiter's three, set that way, cost more than the rest of the global
 * middleware (docs/performance.md, round 5). The figures ride on the request object under a
 * private symbol: the request is the one object both the rate limiter (inside the route) and the
 * global middleware (around it) hold, and a property on it costs nothing to look up.
 */
import { Headers, type HttpServerRequest, type HttpServerResponse } from "effect/http"

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

const headersPrototype: object = Object.getPrototypeOf(Headers.empty)

/**
 * `response` with `extra` set over its headers, as `HttpServerResponse.setHeaders(response, extra)`
 * answers it, with one copy of each: `extra`'s names must be lowercase already. It builds the
 * response as Effect 4.1 builds one (its prototype, and the five fields `status`, `statusText`,
 * `cookies`, `body`, `headers` in that order); `test/ResponseStamp.test.ts` holds the two equal on
 * the installed Effect, so that an upgrade which changes the shape fails there, by name.
 */
export const withHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  extra: Readonly<Record<string, string>>
): HttpServerResponse.HttpServerResponse => {
  const headers = Object.create(headersPrototype) as Record<string, string>
  const own = response.headers
  for (const name in own) headers[name] = own[name]!
  for (const name in extra) headers[name] = extra[name]!
  const copy = Object.create(Object.getPrototypeOf(response)) as {
    -readonly [K in keyof HttpServerResponse.HttpServerResponse]: HttpServerResponse.HttpServerResponse[K]
  }
  copy.status = response.status
  copy.statusText = response.statusText
  copy.cookies = response.cookies
  copy.body = response.body
  copy.headers = headers as unknown as Headers.Headers
  return copy
}
