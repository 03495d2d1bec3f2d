/**
 * A request's id (`X-Request-Id`): the client's own when it is a valid one, else one this process
 * makes. The global middleware stamps it on every answer and `ClientErrors` on the parser's
 * refusals, so both name a request alike.
 */
import { REQUEST_ID_MAX_LENGTH } from "@swapdesk/core"

/** Printable ASCII, neither starting nor ending with a space, 1 to `REQUEST_ID_MAX_LENGTH` characters. */
const REQUEST_ID = new RegExp(`^[\\x21-\\x7E](?:[\\x20-\\x7E]{0,${REQUEST_ID_MAX_LENGTH - 2}}[\\x21-\\x7E])?$`)

/**
 * The ids this process gives requests: a random UUID's first four groups, drawn once, then a
 * counter as the last group (12 hex digits), so every id is UUID-shaped and unique across processes
 * and restarts, at the cost of a counter rather than of `crypto.randomUUID()`'s random bytes on
 * every request (measured in docs/performance.md). An id names a request in
 * the logs; it is no secret, so that the next one is predictable costs nothing.
 */
const REQUEST_ID_PREFIX = crypto.randomUUID().slice(0, 24)
let requestsNamed = 0

/** A request's id: the client's `X-Request-Id` if it is a valid one (`REQUEST_ID`), else a new one. */
export const requestIdFrom = (incoming: string | undefined): string =>
  incoming !== undefined && REQUEST_ID.test(incoming)
    ? incoming
    : REQUEST_ID_PREFIX + (requestsNamed++ % 0x1000000000000).toString(16).padStart(12, "0")
