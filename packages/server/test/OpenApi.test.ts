// Proves the OpenAPI document served at /v1/openapi.json is the reviewed snapshot in
// docs/reference/openapi.json (contract drift shows as a diff), that it names every route of the
// contract with its methods, statuses and the bearer scheme, that the response headers it documents
// are sent, and that it states the version /v1/health reports. The test command lints the snapshot with @redocly/cli. After an intended API
// change: UPDATE_OPENAPI=1 pnpm test:unit.
import { assert, layer } from "@effect/vitest"
import { decodeQueryResult, ListTradesQuery, QuoteQuery, type RequestSchema, TrendingQuery } from "@swapdesk/core"
import { Effect, Result } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { call, keys, testServer } from "./harness.ts"

const snapshotPath = fileURLToPath(new URL("../../../docs/reference/openapi.json", import.meta.url))
const packagePath = fileURLToPath(new URL("../package.json", import.meta.url))

layer(testServer(), { excludeTestServices: true })("openapi", (it) => {
  it.effect("the served document equals the committed snapshot", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/openapi.json")
      assert.strictEqual(reply.status, 200)
      const served = JSON.stringify(reply.body, null, 2) + "\n"
      if (process.env["UPDATE_OPENAPI"] === "1") writeFileSync(snapshotPath, served)
      assert.strictEqual(
        served,
        readFileSync(snapshotPath, "utf8"),
        "run UPDATE_OPENAPI=1 pnpm test:unit and review the diff"
      )
    }))

  it.effect("the document states the version /v1/health reports: the http package's", () =>
    Effect.gen(function*() {
      const { version } = JSON.parse(readFileSync(packagePath, "utf8")) as { version: string }
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      const health = (yield* call("GET", "/v1/health")).body
      assert.strictEqual(doc.info.version, version)
      assert.strictEqual(health.data.version, version)
    }))

  it.effect("every contract route is described with its methods and success status", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      const expected: ReadonlyArray<[string, string, string]> = [
        ["/v1/health", "get", "200"],
        ["/v1/market-data", "get", "200"],
        ["/v1/market-data/chart", "get", "200"],
        ["/v1/market-data/trending", "get", "200"],
        ["/v1/quote", "get", "200"],
        ["/v1/trades", "post", "201"],
        ["/v1/trades", "get", "200"],
        ["/v1/trades/{id}", "get", "200"],
        ["/v1/alerts", "post", "201"],
        ["/v1/alerts", "get", "200"],
        ["/v1/alerts/{id}", "get", "200"],
        ["/v1/alerts/{id}", "patch", "200"],
        ["/v1/alerts/{id}", "delete", "204"],
        ["/v1/sim/clock", "get", "200"],
        ["/v1/sim/clock/advance", "post", "200"],
        ["/v1/sim/prices/{token}", "put", "200"],
        ["/v1/sim/faults", "post", "200"],
        ["/v1/sim/approvals", "post", "200"],
        ["/v1/sim/whales", "post", "200"],
        ["/v1/sim/outbox", "get", "200"],
        ["/v1/sim/events", "get", "200"]
      ]
      for (const [path, method, status] of expected) {
        assert.property(doc.paths, path)
        assert.property(doc.paths[path], method, `${method} ${path}`)
        assert.property(doc.paths[path][method].responses, status, `${method} ${path} ${status}`)
      }
      const schemes = Object.values(doc.components.securitySchemes) as Array<{ type: string; scheme: string }>
      assert.isTrue(schemes.some((s) => s.type === "http" && s.scheme.toLowerCase() === "bearer"))
      assert.property(doc.paths["/v1/trades"].post.responses, "401")
      // A key is required exactly where the contract says so.
      const publicPaths = ["/v1/health", "/v1/market-data", "/v1/market-data/trending"]
      for (const [path, method] of expected) {
        const keyless = publicPaths.includes(path) || path.startsWith("/v1/sim/")
        assert.deepStrictEqual(doc.paths[path][method].security, keyless ? [] : [{ bearer: [] }], `${method} ${path}`)
      }
      // Every endpoint with a body declares the answers to a body no endpoint may see.
      for (const [path, method] of expected) {
        const operation = doc.paths[path][method]
        if (operation.requestBody === undefined) continue
        assert.property(operation.responses, "413", `${method} ${path}`)
        assert.property(operation.responses, "415", `${method} ${path}`)
      }
      // 429 is declared exactly where the rate limits may apply (the control routes: off loopback).
      for (const [path, method] of expected) {
        const exempt = path === "/v1/health"
        assert.strictEqual("429" in doc.paths[path][method].responses, !exempt, `${method} ${path} 429`)
      }
      assert.property(doc.paths["/v1/trades"].post.responses, "403")
    }))

  it.effect("no number in a response is documented as possibly a string (JSON has no Infinity or NaN)", () =>
    Effect.gen(function*() {
      const served = JSON.stringify((yield* call("GET", "/v1/openapi.json")).body)
      assert.notInclude(served, "Infinity")
      assert.notInclude(served, "NaN")
    }))

  it.effect("states Idempotent-Replayed on the replayable responses of exactly the operations taking an Idempotency-Key", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      type Operation = {
        readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
        readonly responses: Record<string, { readonly headers?: Record<string, unknown> }>
      }
      const withKey: Array<string> = []
      for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
        for (const [method, operation] of Object.entries(item)) {
          const takesKey = (operation.parameters ?? []).some((p) => p.in === "header" && p.name === "idempotency-key")
          if (takesKey) withKey.push(`${method} ${path}`)
          for (const [status, response] of Object.entries(operation.responses)) {
            const replays = takesKey && ["201", "400", "422"].includes(status)
            assert.strictEqual(
              response.headers?.["Idempotent-Replayed"] !== undefined,
              replays,
              `${method} ${path} ${status}`
            )
          }
        }
      }
      assert.sameMembers(withKey, ["post /v1/trades", "post /v1/orders"])
    }))

  it.effect("a documented query pattern admits only values the server accepts, and all it accepts", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      const patternOf = (path: string, name: string) => {
        const parameter = (doc.paths[path].get.parameters as Array<{ name: string; schema: { pattern?: string } }>)
          .find((p) => p.name === name)
        assert.isString(parameter?.schema.pattern, `${path} ${name}`)
        return new RegExp(parameter!.schema.pattern!, "u")
      }
      const quote = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" }
      const cases: ReadonlyArray<[string, string, RequestSchema, (value: string) => object, boolean]> = [
        // [path, parameter, schema, query with the value, whether the pattern is the whole accepted set]
        ["/v1/trades", "limit", ListTradesQuery, (limit) => ({ limit }), true],
        ["/v1/trades", "offset", ListTradesQuery, (offset) => ({ offset }), false],
        ["/v1/market-data/trending", "limit", TrendingQuery, (limit) => ({ limit }), true],
        ["/v1/quote", "slippage", QuoteQuery, (slippage) => ({ ...quote, slippage }), false],
        ["/v1/quote", "amountIn", QuoteQuery, (amountIn) => ({ ...quote, amountIn }), false],
        ["/v1/trades", "from", ListTradesQuery, (from) => ({ from }), false]
      ]
      const samples = [
        ...Array.from({ length: 130 }, (_, n) => String(n - 10)),
        "",
        "abc",
        "1.5",
        "0.5",
        "0.0",
        "0.01",
        "49.99",
        "50",
        "50.0",
        "50.5",
        "51",
        "1e1",
        "0x10",
        " 5",
        "+5",
        "999999999999999",
        "1000000000000000",
        "2026-01-01",
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00"
      ]
      for (const [path, name, schema, queryWith, exact] of cases) {
        const pattern = patternOf(path, name)
        const decode = decodeQueryResult(schema)
        for (const value of samples) {
          const accepted = Result.isSuccess(decode(queryWith(value)))
          if (pattern.test(value)) assert.isTrue(accepted, `${path} ${name}=${JSON.stringify(value)} is documented`)
          else if (exact) assert.isFalse(accepted, `${path} ${name}=${JSON.stringify(value)} is not documented`)
        }
      }
    }))

  it.effect("a path parameter over 100 characters gets a status its operation documents", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      const long = "x".repeat(101)
      const cases: ReadonlyArray<["GET" | "PATCH" | "DELETE" | "PUT", string, string, unknown]> = [
        ["GET", "/v1/trades/{id}", `/v1/trades/${long}`, undefined],
        ["GET", "/v1/alerts/{id}", `/v1/alerts/${long}`, undefined],
        ["PATCH", "/v1/alerts/{id}", `/v1/alerts/${long}`, { status: "disabled" }],
        ["DELETE", "/v1/alerts/{id}", `/v1/alerts/${long}`, undefined],
        ["PUT", "/v1/sim/prices/{token}", `/v1/sim/prices/${long}`, { price: 1 }]
      ]
      for (const [method, template, path, body] of cases) {
        const reply = yield* call(method, path, { key: keys.aliceAll, body })
        const documented = Object.keys(doc.paths[template][method.toLowerCase()].responses)
        assert.include(documented, String(reply.status), `${method} ${template}: ${JSON.stringify(reply.body)}`)
      }
    }))

  it.effect("the response headers it documents are the ones sent", () =>
    Effect.gen(function*() {
      const doc = (yield* call("GET", "/v1/openapi.json")).body
      const samples: ReadonlyArray<[string, "get" | "post", string, Parameters<typeof call>[2]]> = [
        ["/v1/health", "get", "/v1/health", {}],
        ["/v1/market-data", "get", "/v1/market-data?token=SOL", {}],
        ["/v1/market-data", "get", "/v1/market-data?token=NOPE", {}],
        ["/v1/trades", "get", "/v1/trades", {}],
        ["/v1/trades", "post", "/v1/trades", { key: keys.aliceAll, body: {} }],
        ["/v1/trades/{id}", "get", "/v1/trades/trd_unknown", { key: keys.aliceAll }]
      ]
      for (const [template, method, path, options] of samples) {
        const reply = yield* call(method === "get" ? "GET" : "POST", path, options)
        const documented = doc.paths[template][method].responses[String(reply.status)]
        assert.isDefined(documented, `${method} ${path} answered ${reply.status}`)
        for (const [name, ref] of Object.entries(documented.headers as Record<string, { $ref: string }>)) {
          const header = doc.components.headers[ref.$ref.split("/").pop()!]
          assert.isDefined(header, ref.$ref)
          if (header.required === true) assert.isDefined(reply.headers[name.toLowerCase()], `${path}: ${name}`)
        }
        if (reply.status === 401) {
          assert.property(documented.headers, "WWW-Authenticate")
          assert.strictEqual(reply.headers["www-authenticate"], "Bearer")
        }
      }
    }))
})
