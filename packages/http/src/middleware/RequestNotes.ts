/**
 * What the steps inside a route learn that the global middleware around it reports: the rate
 * limiter's decision, which the response stamp turns into `RateLimit-*` headers, and the route that
 * took the request, which its log lines name. The global middleware makes one `RequestNotes` per
 * request and provides it to the router; a step writes to it where it runs, and a step running
 * without the global middleware (a test of one route) writes nowhere.
 *
 * Notes in the fiber's context rather than on the request object: a router may hand a route a
 * request of its own (a prefixed mount modifies it), and what the route noted must still reach the
 * stamp.
 */
import { Context, type Fiber } from "effect"

/** The rate limiter's decision on one request, as its headers state it. */
export interface RateLimitFigures {
  readonly limit: number
  readonly remaining: number
  readonly resetSeconds: number
  /** Whether the request was refused (`429`), which adds `Retry-After`. */
  readonly over: boolean
}

export interface RequestNotes {
  /** The last decision of the rate limiter on the request, if it counted it. */
  rateLimit: RateLimitFigures | undefined
  /** The route that took the request (`GET /v1/trades/:id`), if one did. */
  route: string | undefined
}

/** The request's notes, where the global middleware provided them. */
export const RequestNotes = Context.Reference<RequestNotes | undefined>("@swapdesk/http/RequestNotes", {
  defaultValue: () => undefined
})

/** Fresh notes for one request. */
export const makeRequestNotes = (): RequestNotes => ({ rateLimit: undefined, route: undefined })

/** Notes the rate limiter's decision on the request `fiber` serves; the last one noted is the one sent. */
export const noteRateLimit = (fiber: Fiber.Fiber<unknown, unknown>, figures: RateLimitFigures): void => {
  const notes = fiber.getRef(RequestNotes)
  if (notes !== undefined) notes.rateLimit = figures
}

/** Notes the route that took the request `fiber` serves. */
export const noteRoute = (fiber: Fiber.Fiber<unknown, unknown>, route: string): void => {
  const notes = fiber.getRef(RequestNotes)
  if (notes !== undefined) notes.route = route
}
