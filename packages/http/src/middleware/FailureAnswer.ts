/**
 * The failure answer: whatever no endpoint answered gets its envelope. No route is `NOT_FOUND` (a
 * method the path lacks has its own route, `Preflight.ts`); a body read that stopped at the limit is
 * `PAYLOAD_TOO_LARGE`; a client that hung up gets nothing (nothing failed on the server); a live
 * network whose RPC does not answer is `503 NETWORK_UNAVAILABLE` with `Retry-After`; a swap between
 * two tokens no pool connects is `400 VALIDATION_ERROR` on `tokenOut`; anything else
 * is a defect: `INTERNAL_ERROR` quoting the request id, and the cause logged at `Error` under
 * the same id, with the route that took the request.
 */
import { Cause, Effect, Predicate } from "effect"
import { HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ServerPlatform } from "../ServerPlatform.ts"
import type { RequestNotes } from "./RequestNotes.ts"
import type { Answers } from "./Step.ts"

/** Whether `cause` is the router finding no route for the request's method and path. */
const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    reason._tag === "Fail" && HttpServerError.isHttpServerError(reason.error) &&
    reason.error.reason._tag === "RouteNotFound"
  )

/** Whether `cause` is a request body read that stopped at its limit. */
const isBodyTooLarge = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => {
    const error = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" &&
      error.reason.reason === "BodyTooLarge"
  })

/**
 * Whether `cause` is only the client hanging up before its answer: the platform interrupts a
 * request whose connection closed (`ClientAbort`), and a body still being read fails first when
 * the platform aborts the request (a connection reset, as `ServerPlatform` tells it). Anything
 * else in the cause is a failure of the server's.
 */
const isClientGone = (cause: Cause.Cause<unknown>, platform: ServerPlatform): boolean =>
  cause.reasons.length > 0 && cause.reasons.every((reason) => {
    if (reason._tag === "Interrupt") return reason.annotations.has(HttpServerError.ClientAbort.key)
    const error = reason._tag === "Fail" ? reason.error : reason.defect
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" &&
      platform.isConnectionReset(error.reason.cause)
  })

/**
 * Seconds a client waits before trying a network that is down again: how often a live server checks
 * each network's RPC (docs/live.md#health).
 */
export const NETWORK_RETRY_AFTER_SECONDS = 5

/**
 * The network named by the failure or defect of `cause` tagged `tag`, when there is one: a live
 * adapter's errors are recognised by their tag, as this package depends on no adapter. `undefined`
 * when no such error is there; `null` when one is, without a network.
 */
const networkOfTagged = (cause: Cause.Cause<unknown>, tag: string): string | null | undefined => {
  for (const reason of cause.reasons) {
    const error = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    if (Predicate.isTagged(error, tag)) {
      return Predicate.hasProperty(error, "network") && typeof error.network === "string" ? error.network : null
    }
  }
  return undefined
}

/**
 * The network a live adapter found down, when `cause` is that: `@swapdesk/evm`'s `NetworkUnavailable`
 * failure or defect. The node's own words stay out of the answer: an RPC URL may carry a provider's key.
 */
const unavailableNetwork = (cause: Cause.Cause<unknown>): string | undefined => {
  const network = networkOfTagged(cause, "NetworkUnavailable")
  return network === undefined ? undefined : network === null ? "the network" : `the ${network} network`
}

/**
 * The network when `cause` is a live adapter finding no pool between the two tokens (`NoRoute`):
 * the request asked for a swap the exchange cannot make.
 */
const noRouteNetwork = (cause: Cause.Cause<unknown>): string | undefined => {
  const network = networkOfTagged(cause, "NoRoute")
  return network === null ? "the network" : network
}

/** 499, as nginx logs it: never sent, as no one is left to read it. */
const clientGone = Effect.succeed(HttpServerResponse.empty({ status: 499 }))

/** The step: the answer to a request whose route failed, or that no route took. */
export const answerFailure = (answers: Answers, platform: ServerPlatform) =>
(
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  cause: Cause.Cause<unknown>,
  notes: RequestNotes
): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
  if (isRouteNotFound(cause)) return answers.notFound(request)
  if (isBodyTooLarge(cause)) return answers.tooLarge
  if (isClientGone(cause, platform)) return clientGone
  const network = unavailableNetwork(cause)
  if (network !== undefined) {
    return answers.envelope(
      "NETWORK_UNAVAILABLE",
      `${network} is unavailable: its RPC does not answer; retry after ${NETWORK_RETRY_AFTER_SECONDS} seconds`,
      { headers: { "retry-after": String(NETWORK_RETRY_AFTER_SECONDS) } }
    )
  }
  const noRoute = noRouteNetwork(cause)
  if (noRoute !== undefined) {
    const message = `no pool on ${noRoute}'s exchange connects tokenIn and tokenOut, directly or through WETH`
    return answers.envelope("VALIDATION_ERROR", `tokenOut: ${message}`, {
      details: [{ path: "tokenOut", message }]
    })
  }
  return Effect.andThen(
    Effect.logError("request failed", cause).pipe(
      Effect.annotateLogs({ requestId, route: notes.route ?? "none", status: 500 })
    ),
    answers.envelope("INTERNAL_ERROR", `something went wrong; quote request id ${requestId} when reporting it`)
  )
}
