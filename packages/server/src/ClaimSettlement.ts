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
import {
  type DomainError,
  type IdempotencyStore,
  orderView,
  type StoredResponse,
  toIso,
  tradeCreatedView
} from "@swapdesk/core"
import { type IdempotentClaim, keptResponse, successEnvelope, toApiError } from "@swapdesk/http"
import type { JournalEntry, UnansweredClaim } from "@swapdesk/store"
import { Effect, Exit } from "effect"

// The journaled calls an `Idempotency-Key` covers, with the view their handler answers success with.
const views: Readonly<Record<string, (value: any) => unknown>> = {
  "trades.create": tradeCreatedView,
  "orders.create": orderView
}

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
    /** Keeps the response of a replayed call (`exit`, at market time `atMs`) that a claim waits for. */
    record: (entry: JournalEntry, exit: Exit.Exit<unknown, unknown>, atMs: number): void => {
      const view = views[entry.op]
      const args = entry.args as { readonly accountId?: string; readonly idempotency?: IdempotentClaim }
      if (view === undefined || args.idempotency === undefined || args.accountId === undefined) return
      const id = identity(args.accountId, args.idempotency)
      if (!waiting.has(id)) return
      const timestamp = toIso(atMs)
      const enveloped = Exit.mapBoth(exit, {
        onSuccess: (value) => successEnvelope(view(value), timestamp),
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
