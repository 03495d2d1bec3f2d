// Proves that the simulator takes test keys only: a well-formed `sd_live_` key, even one its
// scenario gives an account, is `401 UNAUTHORIZED` on it, saying which keys it takes, while the same
// account's `sd_test_` key opens it; and a key created through its API is a `sd_test_` key (the live
// server's side, where a `sd_test_` key is 401 and created keys are `sd_live_`, is LiveDevnet.test.ts).
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, keys, testScenario, testServer } from "./harness.ts"

const liveKey = `sd_live_${"L1ve".repeat(10)}`

const scenario = {
  ...testScenario,
  accounts: testScenario.accounts!.map((account) =>
    account.id === "acct_alice"
      ? { ...account, apiKeys: [...account.apiKeys!, { name: "live", key: liveKey, scopes: ["read"] as const }] }
      : account
  )
}

layer(testServer(scenario))("the simulator's keys", (it) => {
  it.effect("a live key is 401 on the simulator, a test key of the same account opens it", () =>
    Effect.gen(function*() {
      const refused = yield* call("GET", "/v1/trades", { key: liveKey })
      assert.strictEqual(refused.status, 401)
      assert.strictEqual(refused.body.error.code, "UNAUTHORIZED")
      assert.include(refused.body.error.message, "sd_test_")
      assert.strictEqual((yield* call("GET", "/v1/trades", { key: keys.aliceRead })).status, 200)
    }))

  it.effect("a key created through the API is a test key", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/v1/auth/api-keys", {
        key: keys.aliceAll,
        body: { name: "new", scopes: ["read"] }
      })
      assert.strictEqual(created.status, 201)
      assert.match(created.body.data.key, /^sd_test_[0-9A-Za-z]{40}$/)
    }))
})
