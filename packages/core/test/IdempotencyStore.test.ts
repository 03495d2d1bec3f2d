// Proves that the idempotency store, which forgets expired keys as the clock passes them, answers every claim as a
// table that forgets nothing would (fast-check, pinned seed, over claims, completions and abandons on a clock moving
// forward by up to a day and a half): the first claim wins, a repeat replays or conflicts, and a key is claimable
// again from 24 hours after its claim.
import { assert, describe } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Effect } from "effect"
import { layerMemoryIdempotencyStore } from "../src/MemoryRepositories.ts"
import { IDEMPOTENCY_TTL_MS, type IdempotencyClaim, IdempotencyStore } from "../src/Repositories.ts"

type Step = {
  readonly op: "claim" | "complete" | "abandon"
  readonly account: number
  readonly key: number
  readonly fingerprint: number
  readonly advance: number
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom("claim", "claim", "complete", "abandon"),
  account: fc.integer({ min: 0, max: 1 }),
  key: fc.integer({ min: 0, max: 3 }),
  fingerprint: fc.integer({ min: 0, max: 1 }),
  advance: fc.constantFrom(0, 1, 60_000, IDEMPOTENCY_TTL_MS / 2, IDEMPOTENCY_TTL_MS - 1, IDEMPOTENCY_TTL_MS)
})

describe("IdempotencyStore", () => {
  test.prop([fc.array(stepArb, { maxLength: 120 })], { seed: 1313, numRuns: 300 })(
    "claims answer as a table that never forgets, whatever expired keys it dropped",
    (steps) => {
      // The model: every claim ever made, with the same expiry rule, never evicted.
      const model = new Map<string, { fingerprint: string; claimedAt: number; response: unknown }>()
      const claimByModel = (id: string, fingerprint: string, now: number): IdempotencyClaim["_tag"] => {
        const entry = model.get(id)
        if (entry === undefined || now - entry.claimedAt >= IDEMPOTENCY_TTL_MS) {
          model.set(id, { fingerprint, claimedAt: now, response: undefined })
          return "Claimed"
        }
        return entry.fingerprint !== fingerprint || entry.response === undefined ? "Conflict" : "Replay"
      }
      Effect.runSync(
        Effect.gen(function*() {
          const store = yield* IdempotencyStore
          let now = 0
          for (const step of steps) {
            now += step.advance
            const account = `acct_${step.account}`
            const key = `key-${step.key}`
            const id = `${account}/${key}`
            if (step.op === "claim") {
              const fingerprint = `f${step.fingerprint}`
              const claim = yield* store.claim(account, key, fingerprint, now)
              assert.strictEqual(claim._tag, claimByModel(id, fingerprint, now))
              if (claim._tag === "Replay") assert.deepStrictEqual(claim.response, model.get(id)!.response)
            } else if (step.op === "complete") {
              const response = { status: 201, body: { n: now } }
              yield* store.complete(account, key, response)
              const entry = model.get(id)
              if (entry !== undefined) entry.response = response
            } else {
              yield* store.abandon(account, key)
              model.delete(id)
            }
          }
        }).pipe(Effect.provide(layerMemoryIdempotencyStore))
      )
    }
  )
})
