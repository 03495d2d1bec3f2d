/**
 * How a handler answers: success data in the envelope, domain errors as their API errors, both
 * stamped with the server's clock. Built once per handler group, so that requests need nothing
 * beyond what the group captured.
 */
import { type DomainError, MarketClock, toIso } from "@swapdesk/core"
import { Effect } from "effect"
import { type ApiErrorOf, toApiError } from "../api/ApiErrors.ts"
import type { Enveloped } from "../api/Envelope.ts"

export interface Responder {
  /** Wraps `data` in the success envelope. */
  readonly ok: <A>(data: A) => Effect.Effect<Enveloped<A>>
  /** Maps every domain error of `effect` to its HTTP error response. */
  readonly orApiError: <A, E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, ApiErrorOf<E>, R>
  /** Runs a use case and answers its result, shaped by `view`, in the success envelope. */
  readonly respond: <A, B, E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>,
    view: (a: A) => B
  ) => Effect.Effect<Enveloped<B>, ApiErrorOf<E>, R>
}

export const makeResponder: Effect.Effect<Responder, never, MarketClock> = Effect.map(MarketClock, (clock) => {
  const ok = <A>(data: A) => Effect.map(clock.now, (ms) => ({ success: true as const, data, timestamp: toIso(ms) }))
  const orApiError = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.catch(effect, (error: E) => Effect.flatMap(clock.now, (ms) => Effect.fail(toApiError(error, ms))))
  const respond = <A, B, E extends DomainError, R>(effect: Effect.Effect<A, E, R>, view: (a: A) => B) =>
    orApiError(Effect.flatMap(effect, (a) => ok(view(a))))
  return { ok, orApiError, respond }
})
