// Proves the routes of the methods a path lacks (src/middleware/Preflight.ts): they cover every method the platform's
// parser lets through (on Node, every one of node:http's METHODS; by default, HTTP's own); on a served path, another method is 405 METHOD_NOT_ALLOWED with
// Allow naming the path's methods in the order served, HEAD is left to the router where GET is served (answered as
// GET) and is 405 where it is not; a CORS preflight from an allowed origin is 204 with the path's methods (HEAD beside
// GET) and the headers the API reads, and from another origin 405; an unknown path is no route at all. Served by a web
// handler with the routes beside two real ones, on the router's own matching (trailing slash, parameters).
import { MarketClock } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { METHODS } from "node:http"
import { afterAll, describe, expect, it } from "vitest"
import { CORS_ALLOWED_HEADERS, CorsOrigins } from "../src/Cors.ts"
import { unservedMethods } from "../src/middleware/Preflight.ts"
import { NodeServerPlatform } from "../src/node/NodeServerPlatform.ts"

const served = [
  { method: "GET", path: "/things" },
  { method: "POST", path: "/things" },
  { method: "POST", path: "/things/:id/approve" }
]

const routes = Layer.mergeAll(
  HttpRouter.add("GET", "/things", HttpServerResponse.text("list")),
  HttpRouter.add("POST", "/things", HttpServerResponse.text("created")),
  HttpRouter.add("POST", "/things/:id/approve", HttpServerResponse.text("approved")),
  unservedMethods(served)
).pipe(
  Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(0) })),
  Layer.provide(Layer.succeed(CorsOrigins, new Set(["https://app.example"])))
)

const { dispose, handler } = HttpRouter.toWebHandler(routes, { disableLogger: true })
const onNode = HttpRouter.toWebHandler(routes.pipe(Layer.provide(NodeServerPlatform)), { disableLogger: true })

const sendTo = (to: typeof handler) => async (method: string, path: string, headers: Record<string, string> = {}) => {
  const response = await to(new Request(`http://test${path}`, { method, headers }))
  const text = await response.text()
  return { status: response.status, headers: Object.fromEntries(response.headers), text }
}
const send = sendTo(handler)

describe("the routes of the methods a path lacks", () => {
  afterAll(async () => {
    await dispose()
    await onNode.dispose()
  })

  it("cover every method the platform's parser lets through: on Node all of node:http's, by default HTTP's", async () => {
    // `fetch` refuses to make these three; Node's parser takes them, and they are HTTP's too.
    const unsendable = new Set(["CONNECT", "TRACE", "TRACK"])
    const lacked = METHODS.filter((method) => !["GET", "HEAD", "POST"].includes(method) && !unsendable.has(method))
    const onNodeSend = sendTo(onNode.handler)
    for (const method of lacked) expect([method, (await onNodeSend(method, "/things")).status]).toEqual([method, 405])
    expect((await send("PATCH", "/things")).status).toBe(405)
    // Not a method of HTTP's: without a platform that parses it, no route takes it.
    expect((await send("PROPFIND", "/things")).status).toBe(404)
  })

  it("answer 405 with Allow on a served path, however the router matches it", async () => {
    for (const path of ["/things", "/things/", "/things?x=1"]) {
      const reply = await send("DELETE", path)
      expect(reply.status).toBe(405)
      expect(reply.headers["allow"]).toBe("GET, POST")
      expect(JSON.parse(reply.text).error.code).toBe("METHOD_NOT_ALLOWED")
    }
    const approve = await send("GET", "/things/42/approve")
    expect([approve.status, approve.headers["allow"]]).toEqual([405, "POST"])
    expect(JSON.parse(approve.text).error.message).toBe("GET is not allowed on /things/42/approve; use POST")
  })

  it("leave HEAD to the router where GET is served, and refuse it where it is not", async () => {
    expect((await send("HEAD", "/things")).status).toBe(200)
    expect((await send("HEAD", "/things/1/approve")).status).toBe(405)
  })

  it("answer a preflight from an allowed origin with 204, and another origin's with 405", async () => {
    const preflight = { origin: "https://app.example", "access-control-request-method": "POST" }
    const allowed = await send("OPTIONS", "/things", preflight)
    expect(allowed.status).toBe(204)
    expect(allowed.headers).toMatchObject({
      "access-control-allow-methods": "GET, POST, HEAD",
      "access-control-allow-headers": CORS_ALLOWED_HEADERS
    })
    expect((await send("OPTIONS", "/things", { ...preflight, origin: "https://evil.example" })).status).toBe(405)
  })

  it("leave an unknown path without a route", async () => {
    expect((await send("DELETE", "/nothing")).status).toBe(404)
    expect((await send("DELETE", "/things/1")).status).toBe(404)
  })
})
