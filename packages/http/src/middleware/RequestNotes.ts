/**
 * What the steps inside a route learn that the global middleware around it reports: the rate
 * limiter's decision, which the response stamp turns into `RateLimit-*` headers, and the route that
 * took the request, which its log lines name. The global middleware attaches one `RequestNotes` to
 * each request; a step writes to the notes of the request it serves, and a step running without
 * the global middleware (a test of one route) writes nowhere.
 *
 * The notes are filed on the request's `source`, the platform's own request object, under a symbol
 * of this module's: a router keeps the source when it hands a route a request of its own (a
 * prefixed mount modifies the request), so what the route noted still reaches the stamp, and the
 * notes live as long as their request. Providing them in the fiber's context instead cost 6–7% of a
 * request over sockets, and a weak map by source 0.75 µs (docs/performance.md).
 */
import { Context, type Fiber } from "effect"
import { HttpServerRequest } from "effect/http"

/** The rate limiter's decision on one request, as its headers state it. */
export interface RateLimitFigures {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
  /** Whether the request was refused (`429`), which adds `Retry-After`. */
  readonly over: boolean
}

/** What the steps inside a route noted of one request. */
export interface RequestNotes {
  /** The last decision of the rate limiter on the request, if it counted it. */
  rateLimit: RateLimitFigures | undefined
  /** The route that took the request (`GET /v1/trades/:id`), if one did. */
  route: string | undefined
}

const notesSlot: unique symbol = Symbol("@swapdesk/http/RequestNotes")

/** A platform request object with the notes the global middleware filed on it. */
interface Noted {
  [notesSlot]?: RequestNotes
}

/** Fresh notes for `request`, attached to it: the global middleware's, once per request. */
export const attachRequestNotes = (request: HttpServerRequest.HttpServerRequest): RequestNotes => {
  const notes: RequestNotes = { rateLimit: undefined, route: undefined }
  ;(request.source as Noted)[notesSlot] = notes
  return notes
}

/** The notes of the request `fiber` serves, if the global middleware attached some. */
const notesOf = (fiber: Fiber.Fiber<unknown, unknown>): RequestNotes | undefined =>
  (Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)?.source as Noted | undefined)?.[
    notesSlot
  ]

/** Notes the rate limiter's decision on the request `fiber` serves; the last one noted is the one sent. */
export const noteRateLimit = (fiber: Fiber.Fiber<unknown, unknown>, figures: RateLimitFigures): void => {
  const notes = notesOf(fiber)
  if (notes !== undefined) notes.rateLimit = figures
}

/** Notes the route that took the request `fiber` serves. */
export const noteRoute = (fiber: Fiber.Fiber<unknown, unknown>, route: string): void => {
  const notes = notesOf(fiber)
  if (notes !== undefined) notes.route = route
}
