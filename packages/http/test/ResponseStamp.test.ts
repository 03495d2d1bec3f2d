// Proves what the global middleware's one-step stamp relies on (src/ResponseStamp.ts): on the
// installed Effect, `withHeaders` answers exactly what `HttpServerResponse.setHeaders` answers (the
// same prototype, the same fields in the same order, the same headers, bodies and cookies) for
// every kind of response the server sends, and leaves the original untouched, so that an Effect
// upgrade which changes how a response is built fails here, by name; and the rate limiter's figures
// recorded on a request become its headers, with `Retry-After` only over the limit. Real responses
// and requests of the installed Effect; the headers end to end are in packages/server/test.
import { Cookies, HttpServerRequest, HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { addRateLimitHeaders, recordRateLimit, withHeaders } from "../src/ResponseStamp.ts"

const extra = { "x-request-id": "req-1", "x-content-type-options": "nosniff", "cache-control": "no-store" }

const responses = {
  text: () => HttpServerResponse.text("{\"a\":1}", { contentType: "application/json" }),
  json: () => HttpServerResponse.jsonUnsafe({ a: 1 }, { status: 404, headers: { allow: "GET" } }),
  bytes: () =>
    HttpServerResponse.uint8Array(new Uint8Array([1, 2, 3]), {
      contentType: "text/html; charset=utf-8",
      headers: { "cache-control": "no-cache", "x-frame-options": "DENY" }
    }),
  empty: () => HttpServerResponse.empty({ status: 204 }),
  withCookie: () =>
    HttpServerResponse.mergeCookies(HttpServerResponse.text("x"), Cookies.fromSetCookie(["a=b; Path=/"]))
}

/** Everything of a response that is sent, in a comparable form. */
const shape = (response: HttpServerResponse.HttpServerResponse) => ({
  prototype: Object.getPrototypeOf(response),
  fields: Reflect.ownKeys(response),
  headersPrototype: Object.getPrototypeOf(response.headers),
  headers: Object.entries(response.headers),
  status: response.status,
  statusText: response.statusText,
  body: response.body,
  cookies: response.cookies
})

describe("withHeaders", () => {
  for (const [kind, make] of Object.entries(responses)) {
    it(`answers what setHeaders answers for a ${kind} response, without touching the original`, () => {
      const original = make()
      const before = Object.entries(original.headers)
      const stamped = withHeaders(original, extra)
      expect(shape(stamped)).toEqual(shape(HttpServerResponse.setHeaders(original, extra)))
      expect(HttpServerResponse.isHttpServerResponse(stamped)).toBe(true)
      expect(Object.entries(original.headers)).toEqual(before)
      expect(original.headers["x-request-id"]).toBeUndefined()
    })
  }

  it("lets the stamp win over a header the route set, as setHeaders does", () => {
    const stamped = withHeaders(responses.bytes(), { "cache-control": "no-store" })
    expect(stamped.headers["cache-control"]).toBe("no-store")
    expect(stamped.headers["x-frame-options"]).toBe("DENY")
  })
})

const request = () => HttpServerRequest.fromWeb(new Request("http://swapdesk.test/v1/health"))

describe("the rate limiter's figures", () => {
  it("add nothing to a request the limiter did not count", () => {
    const headers: Record<string, string> = {}
    addRateLimitHeaders(request(), headers)
    expect(headers).toEqual({})
  })

  it("become the RateLimit headers, the last decision recorded winning", () => {
    const counted = request()
    recordRateLimit(counted, { limit: 60, remaining: 59, resetSeconds: 41, over: false })
    recordRateLimit(counted, { limit: 600, remaining: 598, resetSeconds: 40, over: false })
    const headers: Record<string, string> = {}
    addRateLimitHeaders(counted, headers)
    expect(headers).toEqual({ "ratelimit-limit": "600", "ratelimit-remaining": "598", "ratelimit-reset": "40" })
  })

  it("add Retry-After, the seconds to the window's end, over the limit", () => {
    const refused = request()
    recordRateLimit(refused, { limit: 60, remaining: 0, resetSeconds: 12, over: true })
    const headers: Record<string, string> = {}
    addRateLimitHeaders(refused, headers)
    expect(headers).toEqual({
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "12",
      "retry-after": "12"
    })
  })
})
