// Proves a key's hash has one definition: a server given its own `SecretHasher` (here SHA-256 of a
// peppered secret, which no plain SHA-256 matches) stores the scenario's keys and the keys created
// through the API by it, and authenticates every request by it too, so a deployment whose hasher
// differs from Node's still signs its keys in. The hasher records what it hashed, and a real
// server on the simulator is called over HTTP.
import { assert, layer } from "@effect/vitest"
import { sha256Hex } from "@swapdesk/http/node"
import { Effect } from "effect"
import { call, keys, testScenario, testServer } from "./harness.ts"

const hashed: Array<string> = []
const pepperedHasher = {
  sha256Hex: (secret: string) => {
    hashed.push(secret)
    return sha256Hex(`pepper:${secret}`)
  }
}

layer(testServer(testScenario, { secretHasher: pepperedHasher }), { excludeTestServices: true })(
  "a server's own SecretHasher",
  (it) => {
    it.effect("hashes the scenario's keys and authenticates them by it", () =>
      Effect.gen(function*() {
        assert.include(hashed, keys.aliceAccount, "the seeded key was hashed by it")
        const before = hashed.filter((secret) => secret === keys.aliceAccount).length
        const listed = yield* call("GET", "/v1/auth/api-keys", { key: keys.aliceAccount })
        assert.strictEqual(listed.status, 200, listed.text)
        assert.strictEqual(hashed.filter((secret) => secret === keys.aliceAccount).length, before + 1)
      }))

    it.effect("hashes a key created through the API, and the new key signs in by the same hash", () =>
      Effect.gen(function*() {
        const created = yield* call("POST", "/v1/auth/api-keys", {
          key: keys.aliceAll,
          body: { name: "peppered", scopes: ["read"] }
        })
        assert.strictEqual(created.status, 201, created.text)
        const secret: string = created.body.data.key
        assert.deepStrictEqual(hashed.filter((s) => s === secret).length, 1, "hashed once, at creation")
        const trades = yield* call("GET", "/v1/trades", { key: secret })
        assert.strictEqual(trades.status, 200, trades.text)
        assert.deepStrictEqual(hashed.filter((s) => s === secret).length, 2, "and again to sign in")
      }))

    it.effect("a secret it never hashed at creation is still refused", () =>
      Effect.gen(function*() {
        const refused = yield* call("GET", "/v1/trades", { key: keys.unknown })
        assert.strictEqual(refused.status, 401)
        assert.strictEqual(refused.body.error.code, "UNAUTHORIZED")
      }))
  }
)
