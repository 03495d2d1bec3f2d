// Proves that each envelope has one definition on the wire. Success: the JSON a responder writes
// around data it rendered once (successEnvelopeJson) is byte for byte JSON.stringify of the
// envelope object (successEnvelope), for any JSON data and any instant (fast-check), and the
// schema documents the same keys in the same order. Errors: for every error code, an API error a
// handler fails with is answered byte for byte alike by ApiRoutes, which renders the envelope, and by
// Effect's HttpApiBuilder, which encodes it through the error's schema, and both bodies are
// JSON.stringify of errorBody. Served through web handlers of each.
import { fc, test } from "@fast-check/vitest"
import { errorCatalogue, type ErrorCode, MarketClock, toIso } from "@swapdesk/core"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { afterAll, describe, expect, it } from "vitest"
import {
  BadRequest,
  Conflict,
  errorBody,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  TooManyRequests,
  Unauthorized,
  Unprocessable,
  UnsupportedMediaType
} from "../src/api/ApiErrors.ts"
import { Envelope, successEnvelope, successEnvelopeJson } from "../src/api/Envelope.ts"
import * as ApiHandlers from "../src/requestPath/ApiHandlers.ts"
import * as ApiRoutes from "../src/requestPath/ApiRoutes.ts"

const instants = fc.integer({ min: Date.parse("1970-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59.999Z") })

describe("the success envelope", () => {
  test.prop([fc.jsonValue(), instants])(
    "written around rendered data, it is JSON.stringify of the object",
    (data, ms) => {
      const timestamp = toIso(ms)
      expect(successEnvelopeJson(JSON.stringify(data), timestamp)).toBe(
        JSON.stringify(successEnvelope(data, timestamp))
      )
    }
  )

  it("has the keys its schema documents, in the same order", () => {
    expect(Object.keys(successEnvelope(1, toIso(0)))).toEqual(Object.keys(Envelope(Schema.Number).fields))
  })
})

const byStatus = new Map<number, Schema.Top & (new(fields: never) => unknown)>([
  [400, BadRequest],
  [401, Unauthorized],
  [403, Forbidden],
  [404, NotFound],
  [409, Conflict],
  [413, PayloadTooLarge],
  [415, UnsupportedMediaType],
  [422, Unprocessable],
  [429, TooManyRequests]
])
const classes = [...byStatus.values()]

/** Every code an API error class answers, with the class. */
const codes = (Object.keys(errorCatalogue) as Array<ErrorCode>).flatMap((code) => {
  const ErrorClass = byStatus.get(errorCatalogue[code].status)
  return ErrorClass === undefined ? [] : [{ code, ErrorClass }]
})

const AT = Date.parse("2026-01-01T00:00:00Z")
const detailsOf = (code: ErrorCode) =>
  code === "VALIDATION_ERROR" ? [{ path: "a.b", message: "must be \"x\"" }] : undefined
const bodyOf = (code: ErrorCode) => errorBody(code, `${code} happened: "quoted" \u00e9`, AT, detailsOf(code))

const Failing = HttpApi.make("failing").add(
  HttpApiGroup.make("errors").add(
    HttpApiEndpoint.get("fail", "/fail/:code", { params: { code: Schema.String }, error: classes })
  )
)

const fail = ({ params }: { readonly params: { readonly code: string } }) => {
  const code = params.code as ErrorCode
  const ErrorClass = byStatus.get(errorCatalogue[code].status)! as unknown as new(
    fields: ReturnType<typeof bodyOf>
  ) => never
  return Effect.fail(new ErrorClass(bodyOf(code)))
}

const webHandler = (routes: Layer.Layer<never, never, never>) =>
  HttpRouter.toWebHandler(routes as never, { disableLogger: true })

const onApiRoutes = webHandler(
  ApiRoutes.layer(Failing, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide(ApiHandlers.group(Failing, "errors", (handlers) => Effect.succeed(handlers.handle("fail", fail)))),
    Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(0) }))
  ) as never
)
const onBuilder = webHandler(
  HttpApiBuilder.layer(Failing).pipe(
    Layer.provide(HttpApiBuilder.group(Failing, "errors", (handlers) => handlers.handle("fail", fail)))
  ) as never
)

describe("the error envelope", () => {
  afterAll(async () => {
    await onApiRoutes.dispose()
    await onBuilder.dispose()
  })

  it.each(codes)("$code: both request paths answer JSON.stringify(errorBody) byte for byte", async ({ code }) => {
    const answer = async (served: typeof onBuilder) => {
      const response = await served.handler(new Request(`http://test/fail/${code}`))
      return { status: response.status, text: await response.text() }
    }
    const expected = { status: errorCatalogue[code].status, text: JSON.stringify(bodyOf(code)) }
    expect(await answer(onApiRoutes)).toEqual(expected)
    expect(await answer(onBuilder)).toEqual(expected)
  })
})
