// Proves the rate limits (docs/reference/http-api.md#rate-limits) through a real server: a key's plan sets its
// per-minute limit, calls without a key are limited per client address, every limited response
// carries the RateLimit headers, the call over the limit is 429 RATE_LIMITED with Retry-After, and
// health checks and the simulator's control routes are not limited. A key has one budget across
// every route, and a refused key counts against the caller's address.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, keys, testScenario, testServer } from "./harness.ts"

const limited = { ...testScenario, rateLimits: { free: 3, pro: 5, unauthenticated: 2 } }

layer(testServer(limited), { excludeTestServices: true })("rate limits", (it) => {
  it.effect("a Free key gets its plan's limit, then 429 with Retry-After", () =>
    Effect.gen(function*() {
      const replies = []
      for (let i = 0; i < 4; i++) replies.push(yield* call("GET", "/v1/trades", { key: keys.aliceRead }))
      assert.deepStrictEqual(replies.map((r) => r.status), [200, 200, 200, 429])
      assert.deepStrictEqual(replies.map((r) => r.headers["ratelimit-remaining"]), ["2", "1", "0", "0"])
      for (const reply of replies) {
        assert.strictEqual(reply.headers["ratelimit-limit"], "3")
        assert.match(reply.headers["ratelimit-reset"] ?? "", /^\d+$/)
      }
      const over = replies[3]!
      assert.strictEqual(over.body.error.code, "RATE_LIMITED")
      assert.match(over.headers["retry-after"] ?? "", /^\d+$/)
    }))

  it.effect("a Pro key has its own, larger budget", () =>
    Effect.gen(function*() {
      const first = yield* call("GET", "/v1/trades", { key: keys.bobAll })
      assert.strictEqual(first.headers["ratelimit-limit"], "5")
      assert.strictEqual(first.headers["ratelimit-remaining"], "4")
    }))

  it.effect("calls without a key are limited per address; health and simulator routes are not", () =>
    Effect.gen(function*() {
      const statuses = []
      for (let i = 0; i < 3; i++) statuses.push((yield* call("GET", "/v1/market-data?token=SOL")).status)
      assert.deepStrictEqual(statuses, [200, 200, 429])
      for (let i = 0; i < 5; i++) {
        const health = yield* call("GET", "/v1/health")
        assert.strictEqual(health.status, 200)
        assert.isUndefined(health.headers["ratelimit-limit"])
        assert.strictEqual((yield* call("GET", "/v1/sim/clock")).status, 200)
      }
    }))
})

layer(testServer(limited), { excludeTestServices: true })("one budget per caller", (it) => {
  it.effect("a key's calls to public and authenticated routes share its budget", () =>
    Effect.gen(function*() {
      assert.strictEqual(
        (yield* call("GET", "/v1/trades", { key: keys.aliceRead })).headers["ratelimit-remaining"],
        "2"
      )
      const market = yield* call("GET", "/v1/market-data?token=SOL", { key: keys.aliceRead })
      assert.strictEqual(market.headers["ratelimit-remaining"], "1")
      assert.strictEqual((yield* call("GET", "/v1/market-data/trending", { key: keys.aliceRead })).status, 200)
      assert.strictEqual((yield* call("GET", "/v1/trades", { key: keys.aliceRead })).status, 429)
    }))

  it.effect("a refused key is counted against the caller's address, and guessing ends in 429", () =>
    Effect.gen(function*() {
      const unknown = yield* call("GET", "/v1/trades", { key: keys.unknown })
      assert.strictEqual(unknown.status, 401)
      assert.strictEqual(unknown.headers["ratelimit-limit"], "2")
      assert.strictEqual(unknown.headers["ratelimit-remaining"], "1")
      const malformed = yield* call("GET", "/v1/market-data?token=SOL", { headers: { authorization: "Basic abc" } })
      assert.strictEqual(malformed.status, 401)
      assert.strictEqual(malformed.headers["ratelimit-remaining"], "0")
      const over = yield* call("GET", "/v1/alerts", { key: keys.unknown })
      assert.strictEqual(over.status, 429)
      assert.strictEqual(over.body.error.code, "RATE_LIMITED")
      assert.strictEqual((yield* call("GET", "/v1/market-data?token=SOL")).status, 429)
      // Valid keys keep their own budgets.
      assert.strictEqual((yield* call("GET", "/v1/trades", { key: keys.bobAll })).status, 200)
    }))
})
