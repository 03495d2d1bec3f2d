// Proves how the global middleware logs, through Effect's loggers: a defect is logged once at Error, annotated with
// the X-Request-Id that its 500 INTERNAL_ERROR carries and quotes; a request whose client went away (the platform
// interrupts it as a client abort) is not logged at all, since nothing failed on the server; at the default minimum
// level no answered request is logged, and at Debug each is, once, with its request id, route and status. Routes
// served by a web handler, with a logger that keeps what it is given; a real connection hanging up mid-body is in
// Process.test.ts.
import { MarketClock } from "@swapdesk/core"
import { Effect, Layer, Logger, type LogLevel, References } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { afterAll, beforeEach, describe, expect, it } from "vitest"
import { KeyAuthenticator } from "../src/Authentication.ts"
import { GlobalMiddleware } from "../src/GlobalMiddleware.ts"
import { noteRoute } from "../src/middleware/RequestNotes.ts"

interface Entry {
  readonly level: LogLevel.LogLevel
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

const entries: Array<Entry> = []
const keeping = Logger.make<unknown, void>(({ fiber, logLevel, message }) => {
  entries.push({ level: logLevel, message, annotations: fiber.getRef(References.CurrentLogAnnotations) })
})

/** Resolved once the endless route runs: the request is in the handler's hands from then on. */
let endlessStarted = () => {}
const endlessRunning = new Promise<void>((resolve) => (endlessStarted = resolve))

const serve = (level: LogLevel.LogLevel) =>
  HttpRouter.toWebHandler(
    Layer.mergeAll(
      HttpRouter.add("GET", "/broken", Effect.die(new Error("an invariant broke"))),
      HttpRouter.add("GET", "/endless", Effect.andThen(Effect.sync(() => endlessStarted()), Effect.never)),
      HttpRouter.add(
        "GET",
        "/fine/:id",
        Effect.withFiber((fiber) => {
          noteRoute(fiber, "GET /fine/:id")
          return Effect.succeed(HttpServerResponse.text("fine"))
        })
      ),
      GlobalMiddleware(new Set(), "/docs")
    ).pipe(
      Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(0) })),
      Layer.provide(
        Layer.succeed(KeyAuthenticator, {
          authenticate: () => Effect.die("unused"),
          fromHeader: () => Effect.die("unused")
        })
      ),
      Layer.provideMerge(Logger.layer([keeping])),
      Layer.provideMerge(Layer.succeed(References.MinimumLogLevel, level))
    ),
    { disableLogger: true }
  )

const atInfo = serve("Info")
const atDebug = serve("Debug")

describe("GlobalMiddleware's logging", () => {
  beforeEach(() => {
    entries.length = 0
  })
  afterAll(async () => {
    await atInfo.dispose()
    await atDebug.dispose()
  })

  it("logs a defect once, under the request id its 500 INTERNAL_ERROR carries and quotes", async () => {
    const response = await atInfo.handler(new Request("http://test/broken"))
    const requestId = response.headers.get("x-request-id")!
    const body = await response.json() as { error: { code: string; message: string } }
    expect(response.status).toBe(500)
    expect(body.error.code).toBe("INTERNAL_ERROR")
    expect(body.error.message).toContain(requestId)
    expect(entries).toHaveLength(1)
    expect(entries[0]!.level).toBe("Error")
    expect(entries[0]!.annotations).toEqual({ requestId, route: "none", status: 500 })
    expect(JSON.stringify(entries[0]!.message)).toContain("request failed")
  })

  it("logs nothing for a request whose client went away", async () => {
    const client = new AbortController()
    const answered = atInfo.handler(new Request("http://test/endless", { signal: client.signal }))
    await endlessRunning
    client.abort()
    const response = await answered
    expect(response.status).toBe(499)
    expect(entries).toEqual([])
  })

  it("logs no answered request at the default level, and each once at Debug", async () => {
    expect((await atInfo.handler(new Request("http://test/fine/1"))).status).toBe(200)
    expect(entries).toEqual([])
    const missing = await atDebug.handler(new Request("http://test/nowhere?x=1"))
    const fine = await atDebug.handler(new Request("http://test/fine/7", { headers: { "x-request-id": "req-7" } }))
    expect([missing.status, fine.status]).toEqual([404, 200])
    expect(entries).toEqual([
      {
        level: "Debug",
        message: ["GET /nowhere 404"],
        annotations: { requestId: missing.headers.get("x-request-id"), route: "none", status: 404 }
      },
      {
        level: "Debug",
        message: ["GET /fine/7 200"],
        annotations: { requestId: "req-7", route: "GET /fine/:id", status: 200 }
      }
    ])
  })
})
