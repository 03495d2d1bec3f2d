// Proves what ApiRoutes promises beyond what the contract's end-to-end tests already drive through
// it: the definition's parse options reach each request part, a query text is decoded once while it
// is remembered, the part a failure names, a handler's API error answered with its code's status,
// and the refusals at build time and per request for what it does not serve (a group without
// handlers, a group missing a handler, a non-JSON body, a handler answering a value). Served by a
// web handler on a test API with ApiHandlers tables.
import { MarketClock } from "@swapdesk/core"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema } from "effect/http-api"
import { afterAll, describe, expect, it } from "vitest"
import { errorBody, NotFound } from "../../src/api/ApiErrors.ts"
import * as ApiHandlers from "../../src/requestPath/ApiHandlers.ts"
import * as ApiRoutes from "../../src/requestPath/ApiRoutes.ts"

const Clock = Layer.succeed(MarketClock, { now: Effect.succeed(0) })

/** Answers each decoding failure as 400 with the failing part and the number of issues. */
class Reported extends HttpApiMiddleware.Service<Reported>()("test/Reported") {}
const ReportedLive = HttpApiMiddleware.layerSchemaErrorTransform(Reported, (error) =>
  Effect.succeed(
    HttpServerResponse.jsonUnsafe(
      { kind: error.kind, issues: error.cause.issue._tag === "Composite" ? error.cause.issue.issues.length : 1 },
      { status: 400 }
    )
  ))

const Pair = { a: Schema.FiniteFromString, b: Schema.FiniteFromString }

/** How many times a query's `n` has been decoded. */
let decodedQueries = 0
const Counted = Schema.FiniteFromString.check(Schema.makeFilter((n) => {
  decodedQueries++
  return n >= 0
}))

const TestApi = HttpApi.make("test")
  .add(
    HttpApiGroup.make("things")
      .add(HttpApiEndpoint.get("every", "/every", { query: Pair }))
      .add(HttpApiEndpoint.get("first", "/first", { query: Pair }).annotate(HttpApi.QueryParseOptions, {}))
      .add(HttpApiEndpoint.get("read", "/things/:id", { params: { id: Schema.FiniteFromString }, query: Pair }))
      .add(HttpApiEndpoint.post("create", "/things", { payload: Schema.Struct(Pair) }))
      .add(HttpApiEndpoint.get("missing", "/missing", { error: NotFound }))
      .add(HttpApiEndpoint.get("value", "/value", { success: Schema.String }))
      .add(HttpApiEndpoint.get("counted", "/counted", { query: { n: Counted } }))
  )
  .middleware(Reported)
  .annotate(HttpApi.ParseOptions, { errors: "all" })

const ok = HttpServerResponse.jsonUnsafe({ ok: true })

const ThingsLive = ApiHandlers.group(TestApi, "things", (handlers) =>
  Effect.succeed(
    handlers
      .handle("every", () => Effect.succeed(ok))
      .handle("first", () => Effect.succeed(ok))
      .handle("read", ({ params, query }) => Effect.succeed(HttpServerResponse.jsonUnsafe({ params, query })))
      .handle("create", ({ payload }) => Effect.succeed(HttpServerResponse.jsonUnsafe(payload, { status: 201 })))
      .handle("missing", () => Effect.fail(new NotFound(errorBody("NOT_FOUND", "no such thing", 0))))
      // A value where a response is due, as a handler typed loosely could answer.
      .handle("value", () => Effect.succeed("a value, not a response") as never)
      .handle("counted", ({ query }) => Effect.succeed(HttpServerResponse.jsonUnsafe(query)))
  ))

const serve = (routes: Layer.Layer<never, never, HttpRouter.HttpRouter>) =>
  HttpRouter.toWebHandler(routes, { disableLogger: true })

const { handler, dispose } = serve(
  ApiRoutes.layer(TestApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide(ThingsLive),
    Layer.provide(ReportedLive),
    Layer.provide(Clock)
  )
)

const request = async (path: string, init?: RequestInit) => {
  const response = await handler(new Request(`http://test${path}`, init))
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

const post = (body: string) =>
  request("/things", { method: "POST", body, headers: { "content-type": "application/json" } })

/** Builds `routes` on a router: "built", or the defect that stopped it. */
const buildFailure = (routes: Layer.Layer<never, never, HttpRouter.HttpRouter>) =>
  Effect.runPromise(
    Layer.build(routes.pipe(Layer.provide(HttpRouter.layer))).pipe(
      Effect.scoped,
      Effect.catchDefect((defect) => Effect.succeed(String(defect))),
      Effect.map((outcome) => typeof outcome === "string" ? outcome : "built")
    )
  )

describe("ApiRoutes", () => {
  afterAll(dispose)

  it("decodes params and query by the endpoint's schemas", async () => {
    expect(await request("/things/7?a=1&b=2")).toEqual({
      status: 200,
      body: { params: { id: 7 }, query: { a: 1, b: 2 } }
    })
  })

  it("decodes a query text once, while it is among the last it saw; a failing one every time", async () => {
    const before = decodedQueries
    for (let i = 0; i < 3; i++) expect(await request("/counted?n=1")).toEqual({ status: 200, body: { n: 1 } })
    expect(decodedQueries - before).toBe(1)
    expect(await request("/counted?n=2")).toEqual({ status: 200, body: { n: 2 } })
    expect(decodedQueries - before).toBe(2)
    for (let i = 0; i < 2; i++) {
      expect(await request("/counted?n=-1")).toEqual({ status: 400, body: { kind: "Query", issues: 1 } })
    }
    expect(decodedQueries - before).toBe(4)
    // Past 256 other texts, the first is forgotten and decoded again.
    for (let n = 100; n < 356; n++) await request(`/counted?n=${n}`)
    const afterMany = decodedQueries
    expect(await request("/counted?n=1")).toEqual({ status: 200, body: { n: 1 } })
    expect(decodedQueries - afterMany).toBe(1)
  })

  it("remembers a query under its text as the router reads it, never under another request's", async () => {
    // The router ends this path at ';' and reads `n=5&x=?n=1` as the query: n is 5.
    expect(await request("/counted;n=5&x=?n=1")).toEqual({ status: 200, body: { n: 5 } })
    expect(await request("/counted?n=1")).toEqual({ status: 200, body: { n: 1 } })
  })

  it("applies the API's parse options, and a slot's own options over them", async () => {
    expect(await request("/every?a=x&b=y")).toEqual({ status: 400, body: { kind: "Query", issues: 2 } })
    expect(await request("/first?a=x&b=y")).toEqual({ status: 400, body: { kind: "Query", issues: 1 } })
  })

  it("names the part that failed, params before query", async () => {
    expect(await request("/things/x?a=x")).toEqual({ status: 400, body: { kind: "Params", issues: 1 } })
  })

  it("decodes a JSON body, and reports one that is not JSON with the unparseable-body issue", async () => {
    expect(await post(JSON.stringify({ a: "1", b: "2" }))).toEqual({ status: 201, body: { a: 1, b: 2 } })
    expect(await post("{not json")).toEqual({ status: 400, body: { kind: "Payload", issues: 1 } })
  })

  it("answers a handler's API error with its envelope and its code's status", async () => {
    const reply = await request("/missing")
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "no such thing" },
      timestamp: "1970-01-01T00:00:00.000Z"
    })
  })

  it("serves the definition's OpenAPI document", async () => {
    const reply = await request("/openapi.json")
    expect(reply.status).toBe(200)
    expect(Object.keys(reply.body.paths)).toContain("/things/{id}")
  })

  it("treats a handler answering a value instead of a response as a defect (500)", async () => {
    expect((await request("/value")).status).toBe(500)
  })

  it("refuses to build without a group's handlers, with one missing, or with a body that is not JSON", async () => {
    expect(
      await buildFailure(
        ApiRoutes.layer(TestApi, { openapiPath: "/openapi.json" }).pipe(
          Layer.provide(ReportedLive),
          Layer.provide(Clock)
        ) as Layer.Layer<never, never, HttpRouter.HttpRouter>
      )
    ).toContain("no handlers for the API group \"things\"")

    const Partial = ApiHandlers.group(
      TestApi,
      "things",
      (handlers) => Effect.succeed(handlers.handle("every", () => Effect.succeed(ok)) as never)
    )
    expect(
      await buildFailure(
        ApiRoutes.layer(TestApi, { openapiPath: "/openapi.json" }).pipe(
          Layer.provide(Partial),
          Layer.provide(ReportedLive),
          Layer.provide(Clock)
        ) as Layer.Layer<never, never, HttpRouter.HttpRouter>
      )
    ).toContain("the group \"things\" has no handler for first, read, create, missing, value, counted")

    const TextApi = HttpApi.make("text").add(
      HttpApiGroup.make("notes").add(
        HttpApiEndpoint.post("add", "/notes", { payload: Schema.String.pipe(HttpApiSchema.asText()) })
      )
    )
    const NotesLive = ApiHandlers.group(
      TextApi,
      "notes",
      (handlers) => Effect.succeed(handlers.handle("add", () => Effect.succeed(ok)))
    )
    expect(
      await buildFailure(
        ApiRoutes.layer(TextApi, { openapiPath: "/openapi.json" }).pipe(Layer.provide(NotesLive), Layer.provide(Clock))
      )
    )
      .toContain("only application/json bodies are served")
  })
})
