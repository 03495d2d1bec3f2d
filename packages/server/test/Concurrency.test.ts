// Proves that what the contract limits holds under concurrent requests, through a real server: 1,000
// concurrent trades against funds for exactly 100 accept exactly 100 (the rest 422
// INSUFFICIENT_BALANCE) and spend exactly the funds; 100 concurrent duplicates under one
// Idempotency-Key create one trade; 20 concurrent alert creations on a Free account create exactly
// 5. Every request is sent at once, so the server sees them interleaved.
import { assert, layer } from "@effect/vitest"
import type { ScenarioFile } from "@swapdesk/simulator"
import { Effect } from "effect"
import { advance, call, testScenario, testServer } from "./harness.ts"

const raceKey = `sd_test_${"Race".padEnd(40, "0")}`
const freeKey = `sd_test_${"RaceFree".padEnd(40, "0")}`

const scenario: ScenarioFile = {
  ...testScenario,
  accounts: [
    {
      id: "acct_race",
      plan: "pro",
      apiKeys: [{ name: "all", key: raceKey, scopes: ["read", "trade", "alerts", "account"] }],
      wallets: [{
        network: "solana",
        address: "RaceSolanaWallet111111111111111111111111111",
        delegatedSigning: true,
        // Funds for exactly 100 trades of 1 USDC; SOL pays the gas.
        balances: { SOL: "10", USDC: "100" }
      }]
    },
    {
      id: "acct_race_free",
      plan: "free",
      apiKeys: [{ name: "all", key: freeKey, scopes: ["read", "trade", "alerts", "account"] }],
      notifications: { email: "free@example.com" }
    }
  ]
}

const oneUsdc = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "1", network: "solana" }

const all = <A, E, R>(effects: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.all(effects, { concurrency: "unbounded" })

layer(testServer(scenario), { excludeTestServices: true })("concurrent requests", (it) => {
  it.effect("1,000 concurrent trades against funds for 100: exactly 100 accepted, the funds spent exactly", () =>
    Effect.gen(function*() {
      const replies = yield* all(
        Array.from({ length: 1000 }, () => call("POST", "/v1/trades", { key: raceKey, body: oneUsdc }))
      )
      const accepted = replies.filter((r) => r.status === 201)
      assert.lengthOf(accepted, 100)
      for (const reply of replies.filter((r) => r.status !== 201)) {
        assert.strictEqual(reply.status, 422, reply.text)
        assert.strictEqual(reply.body.error.code, "INSUFFICIENT_BALANCE")
      }
      assert.strictEqual(new Set(accepted.map((r) => r.body.data.id)).size, 100)
      yield* advance(60_000)
      const listed = yield* call("GET", "/v1/trades?limit=1", { key: raceKey })
      assert.strictEqual(listed.body.data.total, 100)
      const confirmed = yield* call("GET", "/v1/trades?status=confirmed&limit=1", { key: raceKey })
      assert.strictEqual(confirmed.body.data.total, 100, "every accepted trade confirmed, none refunded")
      // Nothing is left to spend: one more trade is refused.
      const more = yield* call("POST", "/v1/trades", { key: raceKey, body: oneUsdc })
      assert.strictEqual(more.body.error.code, "INSUFFICIENT_BALANCE")
    }))

  it.effect("100 concurrent duplicates under one Idempotency-Key create one trade", () =>
    Effect.gen(function*() {
      const before = (yield* call("GET", "/v1/trades?limit=1", { key: raceKey })).body.data.total
      const swap = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.01", network: "solana" }
      const replies = yield* all(
        Array.from({ length: 100 }, () =>
          call("POST", "/v1/trades", { key: raceKey, body: swap, headers: { "idempotency-key": "race-dup" } }))
      )
      const ids = new Set(
        replies.filter((r) =>
          r.status === 201
        ).map((r) => r.body.data.id)
      )
      assert.strictEqual(ids.size, 1)
      for (const reply of replies) {
        if (reply.status === 409) assert.strictEqual(reply.body.error.code, "IDEMPOTENCY_CONFLICT")
        else assert.strictEqual(reply.status, 201, reply.text)
      }
      const after = (yield* call("GET", "/v1/trades?limit=1", { key: raceKey })).body.data.total
      assert.strictEqual(after, before + 1)
    }))

  it.effect("20 concurrent alert creations on a Free account create exactly 5", () =>
    Effect.gen(function*() {
      const replies = yield* all(
        Array.from({ length: 20 }, (_, i) =>
          call("POST", "/v1/alerts", {
            key: freeKey,
            body: { type: "price", token: "SOL", condition: "above", targetPrice: 1000 + i, channel: "email" }
          }))
      )
      assert.lengthOf(replies.filter((r) => r.status === 201), 5)
      for (const reply of replies.filter((r) => r.status !== 201)) {
        assert.strictEqual(reply.status, 403, reply.text)
        assert.strictEqual(reply.body.error.code, "ALERT_LIMIT_EXCEEDED")
      }
      const listed = yield* call("GET", "/v1/alerts?limit=100", { key: freeKey })
      assert.strictEqual(listed.body.data.total, 5)
    }))
})
