/**
 * The `POST` that creates a resource under an optional `Idempotency-Key` (a trade, a limit order):
 * the calling account's use case, its result through the resource's view, answered 201 in the
 * envelope, at most once per key (`makeIdempotency`).
 */
import type { DomainError } from "@swapdesk/core"
import { Effect } from "effect"
import { makeIdempotency } from "../Idempotency.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** What a creation request brings: the optional key, and the body it fingerprints. */
export interface CreationRequest<Body> {
  readonly headers: { readonly "idempotency-key"?: string | undefined }
  readonly payload: Body
}

/** Made once per handler group: `create(operation, request, use, view)` answers one creation request. */
export const makeIdempotentCreate = Effect.gen(function*() {
  const { envelope, orApiError } = yield* makeResponder
  const idempotent = yield* makeIdempotency
  return <Body, A, B, E extends DomainError, R>(
    /** The method and route, as the key's fingerprint names the operation. */
    operation: string,
    request: CreationRequest<Body>,
    use: (accountId: string, body: Body) => Effect.Effect<A, E, R>,
    view: (created: A) => B
  ) =>
    forAccount((accountId) =>
      idempotent({
        accountId,
        key: request.headers["idempotency-key"],
        operation,
        body: request.payload,
        successStatus: 201,
        work: orApiError(Effect.flatMap(use(accountId, request.payload), (created) => envelope(view(created))))
      })
    )
})
