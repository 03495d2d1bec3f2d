// Proves the rate limiter's table stays bounded (docs/security.md#resource-exhaustion): it holds the
// current minute's callers only (emptied when the minute turns, on the test clock), and within one
// minute at most MAX_TRACKED_CALLERS, forgetting the earliest caller first, while every caller still
// tracked keeps its count. The limiter is driven directly through its service, with no HTTP request
// around it (the headers it adds are exercised end to end in packages/server/test/RateLimits.test.ts).
import { assert, it } from "@effect/vitest"
import { RateLimited } from "@swapdesk/core"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { addressCaller, MAX_TRACKED_CALLERS, RateLimiter, RateLimits } from "../src/RateLimiter.ts"

const settings = { enabled: true, perMinute: { free: 2, pro: 5, unauthenticated: 3 } }

/** One request from `address`: whether it was admitted. */
const request = (limiter: RateLimiter["Service"], address: string) =>
  limiter.admitThen(
    addressCaller(address),
    Effect.succeed(true),
    (refused: RateLimited) => Effect.fail(refused)
  ).pipe(Effect.catchTag("RateLimited", () => Effect.succeed(false)))

const withLimiter = <A, E>(use: (limiter: RateLimiter["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    return yield* use(yield* RateLimiter)
  }).pipe(
    Effect.provide(RateLimiter.layer),
    Effect.provideService(RateLimits, settings)
  )

it.effect("holds only the current minute's callers: the table empties when the minute turns", () =>
  withLimiter((limiter) =>
    Effect.gen(function*() {
      for (let i = 0; i < 1_000; i++) yield* request(limiter, `10.0.${i >> 8}.${i & 255}`)
      assert.strictEqual(limiter.tracked(), 1_000)
      // The same caller, over its limit of 3 in this minute...
      const admitted = []
      for (let i = 0; i < 4; i++) admitted.push(yield* request(limiter, "192.0.2.1"))
      assert.deepStrictEqual(admitted, [true, true, true, false])
      yield* TestClock.adjust("1 minute")
      // ...starts again in the next one, and the last minute's callers are gone.
      assert.isTrue(yield* request(limiter, "192.0.2.1"))
      assert.strictEqual(limiter.tracked(), 1)
    })
  ))

it.effect("tracks at most MAX_TRACKED_CALLERS in one minute, forgetting the earliest first", () =>
  withLimiter((limiter) =>
    Effect.gen(function*() {
      // The first caller uses up its budget; a flood of others follows within the same minute.
      for (let i = 0; i < 3; i++) yield* request(limiter, "first")
      assert.isFalse(yield* request(limiter, "first"))
      yield* request(limiter, "second")
      yield* request(limiter, "second")
      for (let i = 0; i < MAX_TRACKED_CALLERS - 2; i++) yield* request(limiter, `flood-${i}`)
      assert.strictEqual(limiter.tracked(), MAX_TRACKED_CALLERS)
      // One more new caller: the table stays at its bound, and the earliest caller was forgotten.
      yield* request(limiter, "late")
      assert.strictEqual(limiter.tracked(), MAX_TRACKED_CALLERS)
      // A caller still tracked kept its count: "second" has one request left, then none.
      assert.isTrue(yield* request(limiter, "second"))
      assert.isFalse(yield* request(limiter, "second"))
      // The forgotten one starts afresh.
      assert.isTrue(yield* request(limiter, "first"))
      assert.strictEqual(limiter.tracked(), MAX_TRACKED_CALLERS)
    })
  ))
