/**
 * The `Idempotency-Key` claims that hold no response: requests still running, or, when read by a
 * simulator server starting up (it holds the simulator lock, and nothing is served yet), requests a
 * crash cut short. That server answers each one after its journal's replay, with the response its
 * call produced again, or releases it when the call never ran (docs/storage.md#what-a-restart-restores).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** A claim without a response, as stored. */
export interface UnansweredClaim {
  readonly accountId: string
  readonly key: string
  readonly fingerprint: string
  /** Market time (ms) of the claim. */
  readonly claimedAt: number
}

export class UnansweredClaims extends Context.Service<UnansweredClaims, {
  /** Every claim without a response, oldest first. */
  readonly list: Effect.Effect<ReadonlyArray<UnansweredClaim>>
}>()("@swapdesk/store/UnansweredClaims") {
  /** The claims of the store's `swapdesk_idempotency` table. */
  static readonly layerSql = Layer.effect(
    UnansweredClaims,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return {
        list: Effect.orDie(Effect.map(
          sql<{
            readonly account_id: string
            readonly idempotency_key: string
            readonly fingerprint: string
            readonly claimed_at: number | string
          }>`SELECT account_id, idempotency_key, fingerprint, claimed_at FROM swapdesk_idempotency
          WHERE response_status IS NULL ORDER BY claimed_at, account_id, idempotency_key`,
          (rows) =>
            rows.map((row) => ({
              accountId: row.account_id,
              key: row.idempotency_key,
              fingerprint: row.fingerprint,
              claimedAt: Number(row.claimed_at)
            }))
        ))
      }
    })
  )
}
