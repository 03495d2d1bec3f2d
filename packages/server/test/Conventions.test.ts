// Proves the contract's conventions end to end through a real server on an ephemeral port: the
// envelopes, request ids, unknown routes and methods, body limits and media types, malformed JSON,
// validation details, and authentication (401 with a challenge, 403 naming the scope).
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, keys, testServer } from "./harness.ts"

const isIso = (s: unknown) => typeof s === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s)

layer(testServer(), { excludeTestServices: true })("conventions", (it) => {
  it.effect("a success carries success, data and an ISO timestamp in market time", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/health")
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.body.success, true)
      assert.strictEqual(reply.body.data.status, "ok")
      assert.strictEqual(reply.body.data.backend, "simulator")
      assert.strictEqual(reply.body.timestamp, "2026-01-01T00:00:00.000Z")
    }))

  it.effect("every response has an X-Request-Id; a client's valid one is echoed", () =>
    Effect.gen(function*() {
      const generated = yield* call("GET", "/v1/health")
      assert.match(generated.headers["x-request-id"] ?? "", /^[0-9a-f-]{36}$/)
      const echoed = yield* call("GET", "/v1/health", { headers: { "x-request-id": "trace-abc_123" } })
      assert.strictEqual(echoed.headers["x-request-id"], "trace-abc_123")
      const tooLong = yield* call("GET", "/v1/health", { headers: { "x-request-id": "x".repeat(129) } })
      assert.notStrictEqual(tooLong.headers["x-request-id"], "x".repeat(129))
      const onError = yield* call("GET", "/v1/nowhere", { headers: { "x-request-id": "err-1" } })
      assert.strictEqual(onError.headers["x-request-id"], "err-1")
    }))

  it.effect("an unknown route is 404 NOT_FOUND in the error envelope, under /v1 and outside it", () =>
    Effect.gen(function*() {
      // The interface addresses its screens by the URL's hash: no path outside its files is its page.
      for (const path of ["/v1/nowhere", "/v1/market-data/nowhere", "/nowhere", "/market", "/assets/missing.js"]) {
        const reply = yield* call("GET", path)
        assert.strictEqual(reply.status, 404, path)
        assert.strictEqual(reply.body.success, false, path)
        assert.strictEqual(reply.body.error.code, "NOT_FOUND", path)
        assert.isTrue(isIso(reply.body.timestamp), path)
      }
    }))

  it.effect("a known route with the wrong method is 405 METHOD_NOT_ALLOWED with Allow", () =>
    Effect.gen(function*() {
      const reply = yield* call("DELETE", "/v1/trades", { key: keys.aliceAll })
      assert.strictEqual(reply.status, 405)
      assert.strictEqual(reply.body.error.code, "METHOD_NOT_ALLOWED")
      assert.include(reply.headers["allow"] ?? "", "GET")
      assert.include(reply.headers["allow"] ?? "", "POST")
    }))

  it.effect("HEAD on a GET route answers as GET does, without a body; OPTIONS is 405 with Allow", () =>
    Effect.gen(function*() {
      const head = yield* call("HEAD", "/v1/health")
      assert.strictEqual(head.status, 200)
      assert.strictEqual(head.body, undefined)
      assert.match(head.headers["x-request-id"] ?? "", /^[0-9a-f-]{36}$/)
      const options = yield* call("OPTIONS", "/v1/alerts", { key: keys.aliceAll })
      assert.strictEqual(options.status, 405)
      assert.strictEqual(options.body.error.code, "METHOD_NOT_ALLOWED")
      assert.include(options.headers["allow"] ?? "", "GET")
    }))

  it.effect("paths the router cannot take are 404 NOT_FOUND, never an error or another resource", () =>
    Effect.gen(function*() {
      const paths = [
        "/v1/trades/%ZZ", // not a percent-escape
        "/v1/trades/%C0%AF", // not UTF-8
        "/v1/trades/;", // the router would end the path at ';' and list trades
        "/v1/alerts/x;y"
      ]
      for (const path of paths) {
        const reply = yield* call("GET", path, { key: keys.aliceAll })
        assert.strictEqual(reply.status, 404, path)
        assert.strictEqual(reply.body.error.code, "NOT_FOUND", path)
      }
      // An id longer than any the server issues is an unknown id like any other.
      const long = `trd_${"x".repeat(300)}`
      assert.strictEqual((yield* call("GET", `/v1/trades/${long}`)).status, 401)
      const trade = yield* call("GET", `/v1/trades/${long}`, { key: keys.aliceAll })
      assert.strictEqual(trade.status, 404)
      assert.strictEqual(trade.body.error.code, "TRADE_NOT_FOUND")
      const alert = yield* call("DELETE", `/v1/alerts/${"x".repeat(5000)}`, { key: keys.aliceAll })
      assert.strictEqual(alert.status, 404)
      assert.strictEqual(alert.body.error.code, "ALERT_NOT_FOUND")
      // HEAD answers as GET does here too: not found, rather than a method its GET route lacks.
      assert.strictEqual((yield* call("HEAD", "/v1/trades/%ZZ", { key: keys.aliceAll })).status, 404)
      // Paths compare case-sensitively; a trailing slash is forgiven.
      const shouted = yield* call("GET", "/v1/HEALTH")
      assert.strictEqual(shouted.status, 404)
      assert.strictEqual(shouted.body.error.code, "NOT_FOUND")
      assert.strictEqual((yield* call("GET", "/v1/health/")).status, 200)
      const removal = yield* call("DELETE", "/v1/alerts/;", { key: keys.aliceAll })
      assert.strictEqual(removal.status, 404)
      const query = yield* call("GET", "/v1/market-data?token=SOL&note=a;b")
      assert.strictEqual(query.status, 200)
    }))

  it.effect("a body over 64 KiB is 413 PAYLOAD_TOO_LARGE", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/alerts", {
        key: keys.aliceAll,
        rawBody: JSON.stringify({ type: "price", pad: "x".repeat(70_000) })
      })
      assert.strictEqual(reply.status, 413)
      assert.strictEqual(reply.body.error.code, "PAYLOAD_TOO_LARGE")
    }))

  it.effect("a chunked body is held to 64 KiB by the bytes read, with no length announced", () =>
    Effect.gen(function*() {
      const over = yield* call("POST", "/v1/sim/clock/advance", {
        chunkedBody: JSON.stringify({ ms: 1000, pad: "x".repeat(70_000) })
      })
      assert.strictEqual(over.status, 413)
      assert.strictEqual(over.body.error.code, "PAYLOAD_TOO_LARGE")
      const under = yield* call("POST", "/v1/sim/clock/advance", { chunkedBody: JSON.stringify({ ms: 1 }) })
      assert.strictEqual(under.status, 200, JSON.stringify(under.body))
    }))

  it.effect("a body is read only as application/json, with a utf-8 charset at most, and unencoded", () =>
    Effect.gen(function*() {
      const body = JSON.stringify({ ms: 1 })
      for (
        const type of ["application/json", "application/json; charset=utf-8", "Application/JSON;charset=\"UTF-8\""]
      ) {
        const reply = yield* call("POST", "/v1/sim/clock/advance", { rawBody: body, headers: { "content-type": type } })
        assert.strictEqual(reply.status, 200, `${type}: ${reply.text}`)
      }
      const refused = [
        { "content-type": "application/merge-patch+json" },
        { "content-type": "application/vnd.api+json" },
        { "content-type": "application/json; charset=utf-16" },
        { "content-type": "application/json; boundary=x" },
        { "content-type": "text/plain" },
        { "content-type": "application/json", "content-encoding": "gzip" },
        { "content-type": "application/json", "content-encoding": "identity" }
      ]
      for (const headers of refused) {
        const reply = yield* call("POST", "/v1/sim/clock/advance", { rawBody: body, headers })
        assert.strictEqual(reply.status, 415, JSON.stringify(headers))
        assert.strictEqual(reply.body.error.code, "UNSUPPORTED_MEDIA_TYPE")
        assert.isString(reply.headers["x-request-id"])
      }
    }))

  it.effect("a body without Content-Type is 415; a request with no body needs none", () =>
    Effect.gen(function*() {
      const withBody = yield* call("POST", "/v1/sim/clock/advance", {
        rawBody: JSON.stringify({ ms: 1 }),
        headers: { "content-type": "" }
      })
      // The client drops an empty header: a length and no type is what reaches the server.
      assert.strictEqual(withBody.status, 415, withBody.text)
      assert.strictEqual(withBody.body.error.code, "UNSUPPORTED_MEDIA_TYPE")
      const chunked = yield* call("POST", "/v1/sim/clock/advance", {
        chunkedBody: JSON.stringify({ ms: 1 }),
        headers: { "content-type": "" }
      })
      assert.strictEqual(chunked.status, 415, chunked.text)
      const empty = yield* call("POST", "/v1/sim/clock/advance")
      assert.strictEqual(empty.status, 400, empty.text)
      assert.strictEqual(empty.body.error.code, "VALIDATION_ERROR")
    }))

  it.effect("a body that is not JSON by content type is 415 UNSUPPORTED_MEDIA_TYPE", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/alerts", {
        key: keys.aliceAll,
        rawBody: "type=price",
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })
      assert.strictEqual(reply.status, 415)
      assert.strictEqual(reply.body.error.code, "UNSUPPORTED_MEDIA_TYPE")
    }))

  it.effect("unparseable JSON is 400 MALFORMED_JSON", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/alerts", { key: keys.aliceAll, rawBody: "{\"type\": \"price\"," })
      assert.strictEqual(reply.status, 400)
      assert.strictEqual(reply.body.error.code, "MALFORMED_JSON")
    }))

  it.effect("an endpoint that needs a body and gets none is 400 VALIDATION_ERROR saying so", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/trades", { key: keys.aliceAll, rawBody: "" })
      const message = "the request body is empty; send a JSON object"
      assert.strictEqual(reply.status, 400)
      assert.strictEqual(reply.body.error.code, "VALIDATION_ERROR")
      assert.strictEqual(reply.body.error.message, message)
      assert.deepStrictEqual(reply.body.error.details, [{ path: "", message }])
    }))

  it.effect("schema failures are 400 VALIDATION_ERROR with one detail per problem, unknown fields named", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { tokenIn: "SOL", amountIn: "1e3", network: "moon", slippage: 80, evil: true }
      })
      assert.strictEqual(reply.status, 400)
      assert.strictEqual(reply.body.error.code, "VALIDATION_ERROR")
      const paths = (reply.body.error.details as Array<{ path: string }>).map((d) => d.path).sort()
      assert.deepStrictEqual(paths, ["amountIn", "evil", "network", "slippage", "tokenOut"])
    }))

  it.effect("query parameters are validated, not clamped; unknown ones are ignored", () =>
    Effect.gen(function*() {
      const over = yield* call("GET", "/v1/trades?limit=101", { key: keys.aliceAll })
      assert.strictEqual(over.status, 400)
      assert.strictEqual(over.body.error.details[0].path, "limit")
      const negative = yield* call("GET", "/v1/trades?offset=-1", { key: keys.aliceAll })
      assert.strictEqual(negative.status, 400)
      const trending = yield* call("GET", "/v1/market-data/trending?limit=51")
      assert.strictEqual(trending.status, 400)
      const ignored = yield* call("GET", "/v1/trades?colour=blue", { key: keys.aliceAll })
      assert.strictEqual(ignored.status, 200)
    }))

  it.effect("a query value that is not a number says so, not that it is out of range", () =>
    Effect.gen(function*() {
      const quote = "/v1/quote?tokenIn=SOL&tokenOut=USDC&amountIn=1&network=solana"
      const slippage = yield* call("GET", `${quote}&slippage=abc`, { key: keys.aliceRead })
      assert.strictEqual(slippage.status, 400)
      assert.strictEqual(slippage.body.error.message, "slippage: must be a number")
      const page = yield* call("GET", "/v1/trades?limit=abc&offset=x", { key: keys.aliceRead })
      assert.deepStrictEqual(page.body.error.details, [
        { path: "limit", message: "must be a whole number" },
        { path: "offset", message: "must be a whole number" }
      ])
    }))

  it.effect("a missing, malformed, unknown or expired key is 401 with WWW-Authenticate: Bearer", () =>
    Effect.gen(function*() {
      for (const key of [undefined, "not-a-key", keys.unknown, keys.aliceExpired]) {
        const reply = yield* call("GET", "/v1/trades", key === undefined ? {} : { key })
        assert.strictEqual(reply.status, 401, `key ${key}`)
        assert.strictEqual(reply.body.error.code, "UNAUTHORIZED")
        assert.strictEqual(reply.headers["www-authenticate"], "Bearer")
      }
    }))

  it.effect("the OpenAPI document and Swagger UI are public, but refuse a present invalid key", () =>
    Effect.gen(function*() {
      for (const path of ["/v1/openapi.json", "/docs"]) {
        assert.strictEqual((yield* call("GET", path)).status, 200, path)
        assert.strictEqual((yield* call("GET", path, { key: keys.aliceRead })).status, 200, path)
        const refused = yield* call("GET", path, { key: keys.unknown })
        assert.strictEqual(refused.status, 401, path)
        assert.strictEqual(refused.body.error.code, "UNAUTHORIZED")
        assert.strictEqual(refused.headers["www-authenticate"], "Bearer")
      }
    }))

  it.effect("a present but invalid key is 401 even on a public route", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/market-data?token=SOL", { key: keys.unknown })
      assert.strictEqual(reply.status, 401)
      const basic = yield* call("GET", "/v1/health", { headers: { authorization: "Basic Zm9vOmJhcg==" } })
      assert.strictEqual(basic.status, 401)
    }))
})

describe("scopes", () => {
  // Every authenticated route against keys holding exactly one scope: only the right one passes.
  const routes: ReadonlyArray<
    { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; scope: string; body?: unknown }
  > = [
    { method: "GET", path: "/v1/trades", scope: "read" },
    { method: "GET", path: "/v1/trades/trd_missing", scope: "read" },
    { method: "GET", path: "/v1/quote?tokenIn=SOL&tokenOut=USDC&amountIn=1&network=solana", scope: "read" },
    { method: "GET", path: "/v1/market-data/chart?token=SOL&timeframe=1h", scope: "read" },
    {
      method: "POST",
      path: "/v1/trades",
      scope: "trade",
      body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.01", network: "solana" }
    },
    { method: "GET", path: "/v1/alerts", scope: "alerts" },
    { method: "GET", path: "/v1/alerts/alrt_missing", scope: "alerts" },
    { method: "PATCH", path: "/v1/alerts/alrt_missing", scope: "alerts", body: { status: "disabled" } },
    { method: "DELETE", path: "/v1/alerts/alrt_missing", scope: "alerts" },
    {
      method: "POST",
      path: "/v1/alerts",
      scope: "alerts",
      body: { type: "price", token: "SOL", condition: "above", targetPrice: 1000000, channel: "email" }
    }
  ]
  const keyOfScope: Record<string, string> = {
    read: keys.aliceRead,
    trade: keys.aliceTrade,
    alerts: keys.aliceAlerts,
    account: keys.aliceAccount
  }
  layer(testServer(), { excludeTestServices: true })("matrix", (it) => {
    for (const route of routes) {
      for (const [scope, key] of Object.entries(keyOfScope)) {
        it.effect(`${route.method} ${route.path.split("?")[0]} with only '${scope}'`, () =>
          Effect.gen(function*() {
            const reply = yield* call(route.method, route.path, {
              key,
              ...(route.body === undefined ? {} : { body: route.body })
            })
            if (scope === route.scope) {
              assert.notStrictEqual(reply.status, 403, JSON.stringify(reply.body))
              assert.notStrictEqual(reply.status, 401)
            } else {
              assert.strictEqual(reply.status, 403, JSON.stringify(reply.body))
              assert.strictEqual(reply.body.error.code, "INSUFFICIENT_SCOPE")
              assert.include(reply.body.error.message, route.scope)
            }
          }))
      }
    }
  })
})
