// Proves `GET /v1/tokens` through a real server on the simulator: it answers the simulator's registry
// (`simulatorTokens`) in its order, each token's symbol, name, decimals, stablecoin flag and address
// per network; `network` keeps only the tokens on that network; an unknown network is 400; the route
// is public like the market data (no key, or a valid key of any scope, gets the same list), and a
// present but invalid key is 401.
import { assert, layer } from "@effect/vitest"
import { simulatorTokens } from "@swapdesk/core"
import { Effect } from "effect"
import { call, keys, testServer } from "./harness.ts"

const wire = simulatorTokens.map(({ addresses, decimals, name, stablecoin, symbol }) => ({
  symbol,
  name,
  decimals,
  stablecoin,
  networks: { ...addresses }
}))

layer(testServer(), { excludeTestServices: true })("the token catalogue", (it) => {
  it.effect("is the simulator's registry, filtered by network on request", () =>
    Effect.gen(function*() {
      const all = yield* call("GET", "/v1/tokens", { key: keys.aliceRead })
      assert.strictEqual(all.status, 200)
      assert.deepStrictEqual(all.body.data, wire)
      const base = yield* call("GET", "/v1/tokens?network=base", { key: keys.aliceRead })
      assert.deepStrictEqual(base.body.data, wire.filter((token) => token.networks.base !== undefined))
      assert.isAbove(base.body.data.length, 0)
      assert.isBelow(base.body.data.length, wire.length)
      const unknown = yield* call("GET", "/v1/tokens?network=moon", { key: keys.aliceRead })
      assert.strictEqual(unknown.status, 400)
    }))

  it.effect("is public: no key and a key of any scope read the same list, an invalid key is 401", () =>
    Effect.gen(function*() {
      const anonymous = yield* call("GET", "/v1/tokens")
      assert.strictEqual(anonymous.status, 200, anonymous.text)
      assert.deepStrictEqual(anonymous.body.data, wire)
      for (const key of [keys.aliceAlerts, keys.aliceTrade, keys.aliceAccount]) {
        const reply = yield* call("GET", "/v1/tokens", { key })
        assert.strictEqual(reply.status, 200, reply.text)
        assert.deepStrictEqual(reply.body.data, wire)
      }
      const invalid = yield* call("GET", "/v1/tokens", {
        headers: { authorization: `Bearer sd_test_${"x".repeat(40)}` }
      })
      assert.strictEqual(invalid.status, 401)
      assert.strictEqual(invalid.body.error.code, "UNAUTHORIZED")
    }))
})
