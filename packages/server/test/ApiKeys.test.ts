// Proves API key management end to end through a real server on the simulator: the creation and list views field by
// field (the secret only at creation, sd_test_ + 40 base62, prefix and last4 from it), that a new key authenticates with
// exactly its scopes, the subset-of-scopes rule, expiresAt in the future and the key refused from the instant it
// expires in market time, lastUsedAt moving with use, revocation taking effect on the very next request (a key may
// revoke itself), another account's key being invisible, the per-account limit, and the scope and validation errors.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { advance, call, keys, testServer } from "./harness.ts"

const create = (body: unknown, key: string = keys.aliceAll) => call("POST", "/v1/auth/api-keys", { key, body })
const list = (key: string = keys.aliceAccount) => call("GET", "/v1/auth/api-keys", { key })

layer(testServer(), { excludeTestServices: true })("API keys", (it) => {
  it.effect("creation answers 201 with the secret once; the list never shows it", () =>
    Effect.gen(function*() {
      const reply = yield* create({ name: "bot", scopes: ["trade", "read"] })
      assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
      const data = reply.body.data
      assert.deepStrictEqual(Object.keys(data).sort(), [
        "createdAt",
        "expiresAt",
        "id",
        "key",
        "name",
        "prefix",
        "scopes"
      ])
      assert.match(data.id, /^key_[0-9A-Za-z]+$/)
      assert.match(data.key, /^sd_test_[0-9A-Za-z]{40}$/)
      assert.strictEqual(data.prefix, data.key.slice(0, 12))
      assert.deepStrictEqual(data.scopes, ["read", "trade"], "each scope once, in canonical order")
      assert.strictEqual(data.createdAt, "2026-01-01T00:00:00.000Z")
      assert.isNull(data.expiresAt)

      const listed = yield* list()
      assert.strictEqual(listed.status, 200)
      const entry = listed.body.data.keys.find((k: { id: string }) => k.id === data.id)
      assert.deepStrictEqual(entry, {
        id: data.id,
        name: "bot",
        prefix: data.prefix,
        last4: data.key.slice(-4),
        scopes: ["read", "trade"],
        createdAt: data.createdAt,
        lastUsedAt: null,
        expiresAt: null
      })
      assert.strictEqual(listed.body.data.total, listed.body.data.keys.length)
      assert.notInclude(listed.text, data.key, "never the secret")
      assert.notInclude(listed.text, "secretHash")
    }))

  it.effect("a new key works with exactly its scopes, and its lastUsedAt follows its use", () =>
    Effect.gen(function*() {
      const created = (yield* create({ name: "reader", scopes: ["read"] })).body.data
      const trades = yield* call("GET", "/v1/trades", { key: created.key })
      assert.strictEqual(trades.status, 200)
      const forbidden = yield* call("POST", "/v1/trades", {
        key: created.key,
        body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" }
      })
      assert.strictEqual(forbidden.status, 403)
      assert.strictEqual(forbidden.body.error.code, "INSUFFICIENT_SCOPE")
      const usedAt = (yield* call("GET", "/v1/sim/clock")).body.data.now
      const entry = (yield* list()).body.data.keys.find((k: { id: string }) => k.id === created.id)
      assert.strictEqual(entry.lastUsedAt, usedAt)
      yield* advance(5_000)
      yield* call("GET", "/v1/portfolio", { key: created.key })
      const later = (yield* list()).body.data.keys.find((k: { id: string }) => k.id === created.id)
      assert.isAbove(Date.parse(later.lastUsedAt), Date.parse(entry.lastUsedAt))
    }))

  it.effect("a key can only create keys with a subset of its own scopes", () =>
    Effect.gen(function*() {
      const refused = yield* create({ name: "escalate", scopes: ["account", "trade"] }, keys.aliceAccount)
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.error.code, "INSUFFICIENT_SCOPE")
      assert.include(refused.body.error.message, "'trade'")
      const allowed = yield* create({ name: "keys only", scopes: ["account"] }, keys.aliceAccount)
      assert.strictEqual(allowed.status, 201)
    }))

  it.effect("expiresAt must be in the future; the key is refused from the instant it expires", () =>
    Effect.gen(function*() {
      const past = yield* create({ name: "old", scopes: ["read"], expiresAt: "2025-06-01T00:00:00Z" })
      assert.strictEqual(past.status, 400)
      assert.strictEqual(past.body.error.code, "VALIDATION_ERROR")
      assert.deepStrictEqual(past.body.error.details.map((d: { path: string }) => d.path), ["expiresAt"])

      const now = Date.parse((yield* call("GET", "/v1/sim/clock")).body.data.now)
      const expiresAt = new Date(now + 10_000).toISOString()
      const created = (yield* create({ name: "brief", scopes: ["read"], expiresAt })).body.data
      assert.strictEqual(created.expiresAt, expiresAt)
      yield* advance(9_999)
      assert.strictEqual((yield* call("GET", "/v1/trades", { key: created.key })).status, 200)
      yield* advance(1)
      const expired = yield* call("GET", "/v1/trades", { key: created.key })
      assert.strictEqual(expired.status, 401)
      assert.strictEqual(expired.body.error.code, "UNAUTHORIZED")
      assert.strictEqual(expired.headers["www-authenticate"], "Bearer")
      // An expired key stays listed (so that it can be seen and revoked) until it is revoked.
      const entry = (yield* list()).body.data.keys.find((k: { id: string }) => k.id === created.id)
      assert.strictEqual(entry.expiresAt, expiresAt)
    }))

  it.effect("revocation is immediate, also of the key making the request; a revoked key is gone", () =>
    Effect.gen(function*() {
      const created = (yield* create({ name: "temp", scopes: ["read", "account"] })).body.data
      assert.strictEqual((yield* list(created.key)).status, 200)
      const revoked = yield* call("DELETE", `/v1/auth/api-keys/${created.id}`, { key: created.key })
      assert.strictEqual(revoked.status, 204)
      assert.strictEqual(revoked.text, "")
      const after = yield* list(created.key)
      assert.strictEqual(after.status, 401)
      assert.strictEqual(after.body.error.code, "UNAUTHORIZED")
      const again = yield* call("DELETE", `/v1/auth/api-keys/${created.id}`, { key: keys.aliceAccount })
      assert.strictEqual(again.status, 404)
      assert.strictEqual(again.body.error.code, "API_KEY_NOT_FOUND")
      const listed = (yield* list()).body.data.keys.map((k: { id: string }) => k.id)
      assert.notInclude(listed, created.id)
    }))

  it.effect("another account's key is not found, and its list is its own", () =>
    Effect.gen(function*() {
      const bobKey = (yield* create({ name: "bob's", scopes: ["read"] }, keys.bobAll)).body.data
      const refused = yield* call("DELETE", `/v1/auth/api-keys/${bobKey.id}`, { key: keys.aliceAccount })
      assert.strictEqual(refused.status, 404)
      assert.strictEqual(refused.body.error.code, "API_KEY_NOT_FOUND")
      assert.strictEqual((yield* call("GET", "/v1/trades", { key: bobKey.key })).status, 200, "still works")
      const aliceIds = (yield* list()).body.data.keys.map((k: { id: string }) => k.id)
      assert.notInclude(aliceIds, bobKey.id)
      const unknown = yield* call("DELETE", "/v1/auth/api-keys/key_nope", { key: keys.aliceAccount })
      assert.strictEqual(unknown.status, 404)
    }))

  it.effect("an account holds at most 20 usable keys", () =>
    Effect.gen(function*() {
      const usable = (yield* list(keys.bobAll)).body.data.total as number
      for (let i = usable; i < 20; i++) {
        assert.strictEqual((yield* create({ name: `k${i}`, scopes: ["read"] }, keys.bobAll)).status, 201)
      }
      const refused = yield* create({ name: "one too many", scopes: ["read"] }, keys.bobAll)
      assert.strictEqual(refused.status, 403)
      assert.strictEqual(refused.body.error.code, "API_KEY_LIMIT_EXCEEDED")
      const last = (yield* list(keys.bobAll)).body.data.keys[0]
      assert.strictEqual((yield* call("DELETE", `/v1/auth/api-keys/${last.id}`, { key: keys.bobAll })).status, 204)
      assert.strictEqual((yield* create({ name: "room again", scopes: ["read"] }, keys.bobAll)).status, 201)
    }))

  it.effect("scope account is required, a key is required, and bodies are validated strictly", () =>
    Effect.gen(function*() {
      const wrongScope = yield* list(keys.aliceRead)
      assert.strictEqual(wrongScope.status, 403)
      assert.strictEqual(wrongScope.body.error.code, "INSUFFICIENT_SCOPE")
      assert.strictEqual((yield* call("GET", "/v1/auth/api-keys")).status, 401)
      const bad = yield* create({ name: "", scopes: [], extra: true })
      assert.strictEqual(bad.status, 400)
      assert.strictEqual(bad.body.error.code, "VALIDATION_ERROR")
      assert.sameMembers(bad.body.error.details.map((d: { path: string }) => d.path), ["name", "scopes", "extra"])
      const badScope = yield* create({ name: "x", scopes: ["admin"] })
      assert.strictEqual(badScope.status, 400)
      assert.deepStrictEqual(badScope.body.error.details.map((d: { path: string }) => d.path), ["scopes.0"])
    }))
})
