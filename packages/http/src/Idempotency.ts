/**
 * `Idempotency-Key` on creating requests (docs/reference/http-api.md#idempotency): the first request with a key runs
 * and its response is kept for 24 h; a repeat with the same body gets that response again and runs
 * nothing; a different body, or a repeat while the first is still running, is
 * `409 IDEMPOTENCY_CONFLICT`. The claim is atomic, so concurrent duplicates run the work once.
 */
import { errorCatalogue, IdempotencyConflict, IdempotencyStore, MarketClock, type StoredResponse } from "@swapdesk/core"
import { Context, Effect, Exit } from "effect"
import { HttpServerResponse } from "effect/http"
import { type ApiErrorOf, type ErrorEnvelope, toApiError } from "./api/ApiErrors.ts"
import type { Enveloped } from "./api/Envelope.ts"
import { sha256Hex } from "./Digest.ts"
import { envelopeResponse, type SuccessStatus } from "./handlers/Responder.ts"

/** Key order must not change the fingerprint: `{a,b}` and `{b,a}` are the same request. */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
        Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      )
      : v)

/** What makes two requests the same: the SHA-256 of the operation and the canonical body, as lower-case hex. */
export const fingerprint = (operation: string, body: unknown): string =>
  sha256Hex(`${operation}\u0000${canonicalJson(body)}`)

/** The claim a request holds while its work runs: which key, for which body, claimed when (market ms). */
export interface IdempotentClaim {
  readonly key: string
  readonly fingerprint: string
  readonly claimedAt: number
}

/**
 * The `Idempotency-Key` claim of the request whose work is running, if it has one. A durable
 * simulator server journals it with the call, so that a restart can answer a claim the crash left
 * without a response (docs/storage.md#what-a-restart-restores).
 */
export const IdempotentRequest = Context.Reference<IdempotentClaim | undefined>(
  "@swapdesk/http/IdempotentRequest",
  { defaultValue: () => undefined }
)

/**
 * The response kept for an outcome of idempotent work: its success envelope with `successStatus`,
 * or its API error's envelope with the error's status; undefined for a defect, which is not kept
 * (the claim is released, so the client may retry).
 */
export const keptResponse = <A, E extends ErrorEnvelope>(
  successStatus: SuccessStatus,
  exit: Exit.Exit<Enveloped<A>, E>
): StoredResponse | undefined => {
  if (Exit.isSuccess(exit)) return { status: successStatus, body: exit.value }
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  if (failure === undefined) return undefined
  const { error, success, timestamp } = failure.error
  return { status: errorCatalogue[error.code].status, body: { success, error, timestamp } }
}

/**
 * Runs `work` at most once per (account, key, body) and answers its success envelope with
 * `successStatus`. Its API errors are kept and replayed like successes (their status comes from
 * their code). A defect is not kept, so the client may retry.
 */
export const makeIdempotency = Effect.gen(function*() {
  const store = yield* IdempotencyStore
  const clock = yield* MarketClock
  return <A, E extends ErrorEnvelope, R>(options: {
    readonly accountId: string
    readonly key: string | undefined
    /** The operation and its body, fingerprinted only when a key asks for a claim. */
    readonly operation: string
    readonly body: unknown
    readonly successStatus: SuccessStatus
    readonly work: Effect.Effect<Enveloped<A>, E, R>
  }): Effect.Effect<HttpServerResponse.HttpServerResponse, E | ApiErrorOf<IdempotencyConflict>, R> =>
    Effect.gen(function*() {
      const { accountId, key, successStatus, work } = options
      if (key === undefined) return envelopeResponse(yield* work, successStatus)
      const now = yield* clock.now
      const requestFingerprint = fingerprint(options.operation, options.body)
      const claim = yield* store.claim(accountId, key, requestFingerprint, now)
      switch (claim._tag) {
        case "Conflict":
          return yield* Effect.fail(toApiError(new IdempotencyConflict({ reason: claim.reason }), yield* clock.now))
        case "Replay":
          return HttpServerResponse.jsonUnsafe(claim.response.body, {
            status: claim.response.status,
            headers: { "idempotent-replayed": "true" }
          })
        case "Claimed": {
          const claimed: IdempotentClaim = { key, fingerprint: requestFingerprint, claimedAt: now }
          const exit = yield* Effect.exit(Effect.provideService(work, IdempotentRequest, claimed))
          const response = keptResponse(successStatus, exit)
          if (response === undefined) yield* store.abandon(accountId, key)
          else yield* store.complete(accountId, key, response)
          return Exit.isSuccess(exit)
            ? envelopeResponse(exit.value, successStatus)
            : yield* Effect.failCause(exit.cause)
        }
      }
    })
})
