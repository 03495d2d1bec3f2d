/**
 * Answers, at a restart, the `Idempotency-Key` claims a crash left without a response, so that a
 * retry gets the original answer or runs afresh instead of `409 IDEMPOTENCY_CONFLICT` for a day
 * (docs/storage.md#what-a-restart-restores). A request's claim is journaled with its call
 * (JournaledWorld), so after the replay each such claim is either
 *
 * - **answered** with the response its call produced again in the replay (the call's entry is in the
 *   journal: it ran, or was about to, and the replay re-ran it deterministically, its writes reaching
 *   the database), built as the handler builds it: the success envelope of the call's view with 201,
 *   or its API error's envelope, both stamped with the market time the call ran at; or
 * - **released** when the journal holds no entry for it (the call never ran), or its call died.
 *
 * Only a starting server settles claims: it holds the simulator lock (the database's only writer)
 * and serves nothing yet, so no claim it reads belongs to a live request.
 */
import { type DomainError, type IdempotencyStore, type StoredResponse, toIso } from "@swapdesk/core"
import { type IdempotentClaim, keptResponse, successEnvelope, toApiError } from "@swapdesk/http"
import type { UnansweredClaim } from "@swapdesk/store"
import { Effect, Exit } from "effect"
import type { DecodedEntry } from "./JournaledOperations.ts"

const identity = (accountId: string, claim: IdempotentClaim): string =>
  JSON.stringify([accountId, claim.key, claim.fingerprint, claim.claimedAt])

/** What the replay gathers for the claims found without a response, and how it settles them. */
export const makeClaimSettlement = (
  unanswered: ReadonlyArray<UnansweredClaim>,
  store: IdempotencyStore["Service"]
) => {
  const waiting = new Set(unanswered.map((claim) => identity(claim.accountId, claim)))
  const responses = new Map<string, StoredResponse | undefined>()
  return {
    /**
     * Keeps the response of a replayed call made for `claimed` (its outcome `exit`, whose success is
     * the response's data, at market time `atMs`) when the claim waits for one.
     */
    record: (claimed: DecodedEntry["claim"], exit: Exit.Exit<unknown, unknown>, atMs: number): void => {
      if (claimed === undefined) return
      const id = identity(claimed.accountId, claimed.claim)
      if (!waiting.has(id)) return
      const timestamp = toIso(atMs)
      const enveloped = Exit.mapBoth(exit, {
        onSuccess: (data) => successEnvelope(data, timestamp),
        onFailure: (error) => toApiError(error as DomainError, atMs)
      })
      responses.set(id, keptResponse(201, enveloped))
    },
    /** Answers each claim its call's response, or releases it. */
    settle: Effect.gen(function*() {
      for (const claim of unanswered) {
        const response = responses.get(identity(claim.accountId, claim))
        yield* response === undefined
          ? store.abandon(claim.accountId, claim.key)
          : store.complete(claim.accountId, claim.key, response)
      }
    })
  }
}
