// Proves the authentication answers on every route, through a real server, with the routes read
// from the API definition itself (HttpApi.reflect), so a route added to the definition is in the
// matrix without a line here. Behind Authentication: no key, a malformed header, an unknown key, a
// revoked key and an expired key are 401 UNAUTHORIZED with WWW-Authenticate; a valid key lacking the
// route's scope is 403 INSUFFICIENT_SCOPE naming it, once for each key that lacks it; on every route
// with an id, another account's key gets the resource's 404 for a real resource of Alice's (each kind
// is made here, and a route whose kind has no maker fails the test), sent with a valid body, and
// Alice's resource is left as it was. Public and control routes refuse a present invalid key (401,
// the revoked one included) and take a request without one.
import { assert, layer } from "@effect/vitest"
import type { ApiScope } from "@swapdesk/core"
import { Authentication, RequiredScope } from "@swapdesk/http"
import { Context, Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { SimulatorBackedApi } from "../src/api/SimulatorApi.ts"
import { call, keys, type Reply, testServer } from "./harness.ts"

/** Makes one of Alice's resources through `path`; the id it answers. */
function make(path: string, body: unknown): Effect.Effect<string, never, any> {
  return Effect.map(call("POST", path, { key: keys.aliceAll, body }), (reply) => {
    assert.strictEqual(reply.status, 201, `${path}: ${reply.text}`)
    return reply.body.data.id as string
  })
}

interface Route {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly scope: ApiScope | undefined
  readonly authenticated: boolean
}

const routes: Array<Route> = []
HttpApi.reflect(SimulatorBackedApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, group, middleware }) => {
    routes.push({
      method: endpoint.method as Route["method"],
      path: endpoint.path,
      scope: Context.get(endpoint.annotations, RequiredScope) ?? Context.get(group.annotations, RequiredScope),
      authenticated: [...middleware].some((m) => m.key === Authentication.key)
    })
  }
})

/** Alice's single-scope keys: each route's scope is missing from all but one. */
const singleScopeKeys: Record<ApiScope, string> = {
  read: keys.aliceRead,
  trade: keys.aliceTrade,
  alerts: keys.aliceAlerts,
  account: keys.aliceAccount
}

/** How to make one of Alice's resources, by the path its routes start with; the id it answers. */
const aliceResources: Record<string, Effect.Effect<string, never, any>> = {
  "/v1/trades/": make("/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.01", network: "solana" }),
  "/v1/alerts/": make("/v1/alerts", {
    type: "price",
    token: "SOL",
    condition: "above",
    targetPrice: 100_000,
    channel: "email"
  }),
  "/v1/orders/": make("/v1/orders", {
    tokenIn: "SOL",
    tokenOut: "USDC",
    amountIn: "0.01",
    minAmountOut: "100",
    network: "solana"
  }),
  // An event no test here causes, so nothing is ever delivered.
  "/v1/webhooks/": make("/v1/webhooks", { url: "https://hooks.example.com/swapdesk", events: ["order.expired"] }),
  "/v1/auth/api-keys/": make("/v1/auth/api-keys", { name: "matrix", scopes: ["read"] })
}

/** How Alice sees each kind of resource, to show another account's attempts left it as it was. */
const aliceView = (prefix: string, id: string) =>
  Effect.gen(function*() {
    if (prefix === "/v1/webhooks/" || prefix === "/v1/auth/api-keys/") {
      // These have no single read: the item in the list.
      const list = yield* call("GET", prefix.slice(0, -1), { key: keys.aliceAll })
      const items: Array<{ id: string }> = Object.values(list.body.data).find(Array.isArray) ?? []
      const item = items.find((i) => i.id === id)
      assert.isDefined(item, `${prefix}${id} is in Alice's list: ${list.text}`)
      return JSON.stringify(item)
    }
    const own = yield* call("GET", `${prefix}${id}`, { key: keys.aliceAll })
    assert.strictEqual(own.status, 200, `${prefix}${id}: ${own.text}`)
    return JSON.stringify(own.body.data)
  })

/** A body each PATCH, PUT or POST route with an id takes, so that only the owner decides the answer. */
const validBodies: Record<string, unknown> = {
  "PATCH /v1/alerts/:id": { status: "disabled" },
  "POST /v1/trades/:id/approval": { reject: true },
  "POST /v1/orders/:id/signature": { signature: `0x${"ab".repeat(65)}` }
}

/** A key of Alice's with every scope, revoked. */
const revokedKey = Effect.gen(function*() {
  const created = yield* call("POST", "/v1/auth/api-keys", {
    key: keys.aliceAll,
    body: { name: "revoked", scopes: ["read", "trade", "alerts", "account"] }
  })
  assert.strictEqual(created.status, 201, created.text)
  const revoked = yield* call("DELETE", `/v1/auth/api-keys/${created.body.data.id}`, { key: keys.aliceAll })
  assert.strictEqual(revoked.status, 204, revoked.text)
  return `Bearer ${created.body.data.key as string}`
})

const withId = (path: string, id: string) => path.replace(/:[A-Za-z]+/g, encodeURIComponent(id))

const send = (route: Route, path: string, authorization: string | undefined) =>
  call(route.method, path, {
    ...(authorization === undefined ? {} : { headers: { authorization } }),
    ...(route.method === "GET" || route.method === "DELETE"
      ? {}
      : { body: validBodies[`${route.method} ${route.path}`] ?? {} })
  })

const assertUnauthorized = (reply: Reply, label: string) => {
  assert.strictEqual(reply.status, 401, `${label}: ${reply.text}`)
  assert.strictEqual(reply.body.error.code, "UNAUTHORIZED", label)
  assert.strictEqual(reply.headers["www-authenticate"], "Bearer", label)
}

const invalidCredentials = {
  "malformed header": "Basic YWxpY2U6c2VjcmV0",
  "malformed key": "Bearer not-a-key",
  "unknown key": `Bearer ${keys.unknown}`,
  "expired key": `Bearer ${keys.aliceExpired}`
}

layer(testServer(), { excludeTestServices: true })("the authentication matrix", (it) => {
  it("reads routes of every kind from the definition", () => {
    assert.isAbove(routes.filter((r) => r.authenticated).length, 5)
    assert.isAbove(routes.filter((r) => !r.authenticated).length, 5)
    for (const route of routes.filter((r) => r.authenticated)) {
      assert.isDefined(route.scope, `${route.method} ${route.path} needs a key but names no scope`)
    }
  })

  it.effect("behind a key: no key or an invalid one (revoked included) is 401, a key without the scope 403 naming it", () =>
    Effect.gen(function*() {
      const credentials = { ...invalidCredentials, "revoked key": yield* revokedKey }
      for (const route of routes.filter((r) => r.authenticated)) {
        const path = withId(route.path, "x")
        const label = `${route.method} ${route.path}`
        assertUnauthorized(yield* send(route, path, undefined), `${label}, no key`)
        for (const [name, header] of Object.entries(credentials)) {
          assertUnauthorized(yield* send(route, path, header), `${label}, ${name}`)
        }
        for (const [scope, key] of Object.entries(singleScopeKeys)) {
          if (scope === route.scope) continue
          const reply = yield* send(route, path, `Bearer ${key}`)
          assert.strictEqual(reply.status, 403, `${label} with only ${scope}: ${reply.text}`)
          assert.strictEqual(reply.body.error.code, "INSUFFICIENT_SCOPE")
          assert.include(reply.body.error.message, route.scope!)
        }
      }
    }))

  it.effect("another account's resource is the resource's 404 on every route with an id, and stays as it was", () =>
    Effect.gen(function*() {
      const ids: Record<string, string> = {}
      for (const [prefix, makeOne] of Object.entries(aliceResources)) ids[prefix] = yield* makeOne
      const before: Record<string, string> = {}
      for (const [prefix, id] of Object.entries(ids)) before[prefix] = yield* aliceView(prefix, id)
      const withIds = routes.filter((r) => r.authenticated && r.path.includes("/:"))
      assert.isAbove(withIds.length, 8)
      for (const route of withIds) {
        const label = `${route.method} ${route.path}`
        const prefix = Object.keys(ids).find((p) => route.path.startsWith(p))
        assert.isDefined(prefix, `${label}: no maker for its resource in aliceResources`)
        const reply = yield* send(route, withId(route.path, ids[prefix!]!), `Bearer ${keys.bobAll}`)
        assert.strictEqual(reply.status, 404, `${label}: ${reply.text}`)
        assert.match(reply.body.error.code, /^[A-Z_]+_NOT_FOUND$/, label)
        assert.notStrictEqual(reply.body.error.code, "NOT_FOUND", `${label}: the route's own code`)
      }
      for (const [prefix, id] of Object.entries(ids)) {
        assert.strictEqual(yield* aliceView(prefix, id), before[prefix], `Alice's ${prefix}${id} is as it was`)
      }
    }))

  it.effect("public and control routes refuse a present invalid key, and take a request without one", () =>
    Effect.gen(function*() {
      const credentials = { ...invalidCredentials, "revoked key": yield* revokedKey }
      for (const route of routes.filter((r) => !r.authenticated)) {
        const path = withId(route.path, "SOL")
        const label = `${route.method} ${route.path}`
        for (const [name, header] of Object.entries(credentials)) {
          assertUnauthorized(yield* send(route, path, header), `${label}, ${name}`)
        }
        const anonymous = yield* send(route, path, undefined)
        assert.notStrictEqual(anonymous.status, 401, `${label}, no key: ${anonymous.text}`)
        assert.isBelow(anonymous.status, 500, `${label}, no key: ${anonymous.text}`)
      }
    }))
})
