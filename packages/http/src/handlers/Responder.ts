/**
 * How a handler answers: success data in the envelope, domain errors as their API errors, both
 * stamped with the server's clock. Built once per handler group, so that requests need nothing
 * beyond what the group captured.
 *
 * Success responses are rendered here, not by the endpoint's success schema. That schema documents
 * the response (OpenAPI) and decodes it (the typed client), but encoding through it on every
 * request would only re-check what the views produce, at a cost `docs/performance.md` measures.
 * The views are checked against their schemas by core's tests, and every end-to-end test decodes
 * the server's answers through the typed client. Both envelopes' wire form is defined once
 * (`api/Envelope.ts`, `api/ApiErrors.ts`).
 */
import { type DomainError, MarketClock, toIso } from "@swapdesk/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { type ApiErrorOf, toApiError } from "../api/ApiErrors.ts"
import { type Enveloped, successEnvelope, successEnvelopeJson } from "../api/Envelope.ts"
import { Principal } from "../api/Security.ts"

/** The success statuses a handler answers with. */
export type SuccessStatus = 200 | 201

/** `use` asked for the calling account (the `Principal` authentication provided): what every account route runs. */
export const forAccount = <A, E, R>(use: (accountId: string) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Principal, (principal) => use(principal.accountId))

const noContentResponse = HttpServerResponse.empty({ status: 204 })

/** An envelope as the response carrying it. */
export const envelopeResponse = <A>(envelope: Enveloped<A>, status: SuccessStatus = 200) =>
  HttpServerResponse.jsonUnsafe(envelope, { status })

/** How a handler group answers (`makeResponder`). */
export interface Responder {
  /** Wraps `data` in the success envelope. */
  readonly envelope: <A>(data: A) => Effect.Effect<Enveloped<A>>
  /** Answers `data` in the success envelope. */
  readonly ok: <A>(data: A, status?: SuccessStatus) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** Maps every domain error of `effect` to its HTTP error response. */
  readonly orApiError: <A, E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, ApiErrorOf<E>, R>
  /** Runs a use case whose success has nothing to say (a delete, a revocation) and answers 204. */
  readonly noContent: <E extends DomainError, R>(
    effect: Effect.Effect<unknown, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiErrorOf<E>, R>
  /** Runs a use case and answers its result, shaped by `view`, in the success envelope. */
  readonly respond: <A, B, E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>,
    view: (a: A) => B,
    status?: SuccessStatus
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiErrorOf<E>, R>
  /**
   * A responder like `respond` for a use case that answers the same object until its data changes
   * (market data between two ticks, a trade between two of its events), with a view that is a
   * function of that object alone: each object's view is rendered to JSON once, and a response
   * only wraps that JSON in the envelope; requests answered at the same market millisecond share
   * one response. Made once per view, when the handlers are built.
   */
  readonly stableView: <A extends object, B>(
    view: (a: A) => B
  ) => <E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, ApiErrorOf<E>, R>
}

/** An object's view rendered once (`stableView`), and the last response made of it, stamped at `ms`. */
interface Rendered {
  readonly json: string
  ms: number
  response: HttpServerResponse.HttpServerResponse | undefined
}

const enveloped = <A>(data: A, ms: number): Enveloped<A> => successEnvelope(data, toIso(ms))

/** A group's `Responder`, stamping with the market clock: made once per group, when the handlers are built. */
export const makeResponder: Effect.Effect<Responder, never, MarketClock> = Effect.map(MarketClock, (clock) => {
  const envelope = <A>(data: A) => Effect.map(clock.now, (ms) => enveloped(data, ms))
  const ok = <A>(data: A, status: SuccessStatus = 200) =>
    Effect.map(clock.now, (ms) => envelopeResponse(enveloped(data, ms), status))
  const apiError = <E extends DomainError>(error: E) =>
    Effect.flatMap(clock.now, (ms) => Effect.fail(toApiError(error, ms)))
  const orApiError = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.catch(effect, apiError)
  const noContent = <E extends DomainError, R>(effect: Effect.Effect<unknown, E, R>) =>
    Effect.as(orApiError(effect), noContentResponse)
  // One step for either outcome rather than a recovery around a continuation: a handler's answer
  // is on every request's path.
  const respond = <A, B, E extends DomainError, R>(
    effect: Effect.Effect<A, E, R>,
    view: (a: A) => B,
    status: SuccessStatus = 200
  ) => Effect.matchEffect(effect, { onFailure: apiError, onSuccess: (a) => ok(view(a), status) })
  const stableView = <A extends object, B>(view: (a: A) => B) => {
    // Per object: its view's JSON, and the last response made of it with the time it was stamped.
    // The market clock moves by the millisecond at most (not at all on a manual clock), so requests
    // between two moves share one response; a response is never changed once made.
    const rendered = new WeakMap<A, Rendered>()
    const responseOf = (data: A, ms: number): HttpServerResponse.HttpServerResponse => {
      let entry = rendered.get(data)
      if (entry === undefined) {
        rendered.set(data, entry = { json: JSON.stringify(view(data)), ms: 0, response: undefined })
      }
      if (entry.response !== undefined && entry.ms === ms) return entry.response
      const response = HttpServerResponse.text(successEnvelopeJson(entry.json, toIso(ms)), {
        contentType: "application/json"
      })
      entry.ms = ms
      entry.response = response
      return response
    }
    return <E extends DomainError, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.matchEffect(effect, {
        onFailure: apiError,
        onSuccess: (data) => Effect.map(clock.now, (ms) => responseOf(data, ms))
      })
  }
  return { envelope, noContent, ok, orApiError, respond, stableView }
})
