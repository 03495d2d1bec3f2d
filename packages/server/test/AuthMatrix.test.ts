// Proves the authentication answers on every route, through a real server, with the routes read
// from the API definition itself (HttpApi.reflect), so a route added to the definition is in the
// matrix without a line here. Behind Authentication: no key, a malformed header, an unknown key and
// an expired key are 401 UNAUTHORIZED with WWW-Authenticate; a valid key lacking the route's scope
// is 403 INSUFFICIENT_SCOPE naming it, once for each key that lacks it; on a route with an id,
// another account's key is the resource's 404 (its own resource where the test knows how to make
// one, else an id no one has: the contract answers both alike). Public and control routes refuse a
// present invalid key (401) and take a request without one.
import { assert, layer } from "@effect/vitest"
import type { ApiScope } from "@swapdesk/core"
import { Authentication, RequiredScope } from "@swapdesk/http"
import { Context, Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { SimulatorBackedApi } from "../src/api/SimulatorApi.ts"
import { call, keys, type Reply, testServer } from "./harness.ts"

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
  "/v1/trades/": Effect.map(
    call("POST", "/v1/trades", {
      key: keys.aliceAll,
      body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.01", network: "solana" }
    }),
    (reply) => reply.body.data.id
  ),
  "/v1/alerts/": Effect.map(
    call("POST", "/v1/alerts", {
      key: keys.aliceAll,
      body: { type: "price", token: "SOL", condition: "above", targetPrice: 100_000, channel: "email" }
    }),
    (reply) => reply.body.data.id
  )
}

const withId = (path: string, id: string) => path.replace(/:[A-Za-z]+/g, encodeURIComponent(id))

const send = (route: Route, path: string, authorization: string | undefined) =>
  call(route.method, path, {
    ...(authorization === undefined ? {} : { headers: { authorization } }),
    ...(route.method === "GET" || route.method === "DELETE" ? {} : { body: {} })
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

  it.effect("behind a key: no key or an invalid one is 401, a key without the scope 403 naming it", () =>
    Effect.gen(function*() {
      for (const route of routes.filter((r) => r.authenticated)) {
        const path = withId(route.path, "x")
        const label = `${route.method} ${route.path}`
        assertUnauthorized(yield* send(route, path, undefined), `${label}, no key`)
        for (const [name, header] of Object.entries(invalidCredentials)) {
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

  it.effect("another account's resource is the resource's 404", () =>
    Effect.gen(function*() {
      const ids: Record<string, string> = {}
      for (const [prefix, make] of Object.entries(aliceResources)) ids[prefix] = yield* make
      const withIds = routes.filter((r) =>
        r.authenticated && r.path.includes("/:") && (r.method === "GET" || r.method === "DELETE")
      )
      assert.isAbove(withIds.length, 2)
      for (const route of withIds) {
        const prefix = Object.keys(ids).find((p) => route.path.startsWith(p))
        const id = prefix === undefined ? "res_nobody0000000000" : ids[prefix]!
        const reply = yield* send(route, withId(route.path, id), `Bearer ${keys.bobAll}`)
        assert.strictEqual(reply.status, 404, `${route.method} ${route.path}: ${reply.text}`)
        assert.match(reply.body.error.code, /_NOT_FOUND$/)
        // Alice still has it.
        if (prefix !== undefined && route.method === "GET") {
          const own = yield* call("GET", withId(route.path, id), { key: keys.aliceAll })
          assert.strictEqual(own.status, 200, `${route.path}: ${own.text}`)
        }
      }
    }))

  it.effect("public and control routes refuse a present invalid key, and take a request without one", () =>
    Effect.gen(function*() {
      for (const route of routes.filter((r) => !r.authenticated)) {
        const path = withId(route.path, "SOL")
        const label = `${route.method} ${route.path}`
        for (const [name, header] of Object.entries(invalidCredentials)) {
          assertUnauthorized(yield* send(route, path, header), `${label}, ${name}`)
        }
        const anonymous = yield* send(route, path, undefined)
        assert.notStrictEqual(anonymous.status, 401, `${label}, no key: ${anonymous.text}`)
        assert.isBelow(anonymous.status, 500, `${label}, no key: ${anonymous.text}`)
      }
    }))
})
