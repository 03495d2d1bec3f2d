// Proves the response stamp (src/middleware/ResponseStamp.ts): every answer gets its request id and
// the security headers of SecurityHeaders.ts, no-store when the request carried a key, the Bearer
// challenge on a 401, what an allowed origin's page may read (and Vary: Origin whenever origins are
// allowed), Swagger UI's policy on its page only, over what the route set, leaving the route's own
// response untouched (a stable view's response is shared by requests); and the rate limiter's
// decision noted for a request (RequestNotes.ts, the last one noted winning, through a request a
// router modified too) becomes its headers, with Retry-After only over the limit. Real responses and
// requests of the installed Effect; the headers end to end are in packages/server/test.
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { attachRequestNotes, noteRateLimit, type RateLimitFigures } from "../src/middleware/RequestNotes.ts"
import { addRateLimitHeaders, type HeaderPairs, makeStamp } from "../src/middleware/ResponseStamp.ts"
import { SECURITY_HEADERS } from "../src/SecurityHeaders.ts"

const request = (path = "/v1/health", headers: Record<string, string> = {}) =>
  HttpServerRequest.fromWeb(new Request(`http://swapdesk.test${path}`, { headers }))

/** The rate-limit headers the stamp adds for a decision. */
const rateLimitHeaders = (figures: RateLimitFigures | undefined) => {
  const headers: HeaderPairs = []
  addRateLimitHeaders(figures, headers)
  return headers
}

/** The notes a request's fiber leaves after the rate limiter decided `decisions`, in order. */
const notedAfter = (decisions: ReadonlyArray<RateLimitFigures>) => {
  const counted = request()
  const notes = attachRequestNotes(counted)
  Effect.runSync(
    Effect.withFiber((fiber) => Effect.sync(() => decisions.forEach((figures) => noteRateLimit(fiber, figures))))
      .pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, counted))
  )
  return notes
}

const page = "<html><script>go()</script><style>p{}</style></html>"

describe("the response stamp", () => {
  const stamp = makeStamp(new Set(["https://app.example"]), "/docs")

  it("adds the request id and the security headers over the route's, leaving its response as it was", () => {
    const original = HttpServerResponse.text("{}", {
      contentType: "application/json",
      headers: { "x-request-id": "x" }
    })
    const stamped = stamp(request(), "req-1", original)
    expect(stamped.headers).toMatchObject({ "x-request-id": "req-1", ...SECURITY_HEADERS, vary: "Origin" })
    expect(stamped.headers["cache-control"]).toBeUndefined()
    expect(stamped.headers["access-control-allow-origin"]).toBeUndefined()
    expect(original.headers["x-request-id"]).toBe("x")
    expect(original.headers["x-content-type-options"]).toBeUndefined()
  })

  it("adds no-store for a keyed request, the challenge on a 401 and what an allowed origin may read", () => {
    const keyed = request("/v1/trades", { authorization: "Bearer k", origin: "https://app.example" })
    const stamped = stamp(keyed, "req-2", HttpServerResponse.empty({ status: 401 }))
    expect(stamped.headers).toMatchObject({
      "cache-control": "no-store",
      "www-authenticate": "Bearer",
      "access-control-allow-origin": "https://app.example"
    })
    expect(stamp(request("/v1/trades", { origin: "https://other.example" }), "r", HttpServerResponse.empty()).headers)
      .not.toHaveProperty("access-control-allow-origin")
  })

  it("gives Swagger UI's page a policy naming its own script and style, and nothing else one", () => {
    const docs = stamp(request("/docs"), "r", HttpServerResponse.html(page))
    expect(docs.headers["content-security-policy"]).toMatch(
      /^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-/
    )
    expect(docs.headers["x-frame-options"]).toBe("DENY")
    expect(stamp(request("/v1/health"), "r", HttpServerResponse.html(page)).headers).not.toHaveProperty(
      "content-security-policy"
    )
  })
})

describe("the rate limiter's figures", () => {
  it("add nothing to a request the limiter did not count", () => {
    expect(rateLimitHeaders(attachRequestNotes(request()).rateLimit)).toEqual([])
  })

  it("become the RateLimit headers the stamp sends, the last decision noted winning", () => {
    const notes = notedAfter([
      { limit: 60, remaining: 59, resetSeconds: 41, over: false },
      { limit: 600, remaining: 598, resetSeconds: 40, over: false }
    ])
    expect(makeStamp(new Set(), "/docs")(request(), "r", HttpServerResponse.empty(), notes).headers).toMatchObject({
      "ratelimit-limit": "600",
      "ratelimit-remaining": "598",
      "ratelimit-reset": "40"
    })
    expect(Object.fromEntries(rateLimitHeaders(notes.rateLimit))).toEqual({
      "ratelimit-limit": "600",
      "ratelimit-remaining": "598",
      "ratelimit-reset": "40"
    })
  })

  it("add Retry-After, the seconds to the window's end, over the limit", () => {
    const refused = notedAfter([{ limit: 60, remaining: 0, resetSeconds: 12, over: true }])
    expect(Object.fromEntries(rateLimitHeaders(refused.rateLimit))).toEqual({
      "ratelimit-limit": "60",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "12",
      "retry-after": "12"
    })
  })

  it("reach the request's notes from a request a router modified, and nowhere without notes", () => {
    const original = request("/v1/sim/clock")
    const notes = attachRequestNotes(original)
    const figures = { limit: 60, remaining: 58, resetSeconds: 30, over: false }
    const noteOn = (served: ReturnType<typeof request>) =>
      Effect.runSync(
        Effect.withFiber((fiber) => Effect.sync(() => noteRateLimit(fiber, figures)))
          .pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, served))
      )
    // A prefixed mount hands its routes the request modified, as `request.modify` does.
    noteOn(original.modify({ url: "/clock" }))
    expect(notes.rateLimit).toEqual(figures)
    expect(() => noteOn(request())).not.toThrow()
  })
})
