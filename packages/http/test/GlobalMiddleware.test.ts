// Proves how the global middleware reports a failure no endpoint answered: a defect is logged once, under the
// X-Request-Id that its 500 INTERNAL_ERROR carries and quotes; a request whose client went away (the platform
// interrupts it as a client abort) is not logged at all, since nothing failed on the server. Routes served by a web
// handler, with console.error spied on; a real connection hanging up mid-body is in Process.test.ts.
import { MarketClock } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { afterAll, afterEach, describe, expect, it, vi } from "vitest"
import { KeyAuthenticator } from "../src/Authentication.ts"
import { GlobalMiddleware, routeTable } from "../src/GlobalMiddleware.ts"

const paths = [{ method: "GET", path: "/broken" }, { method: "GET", path: "/endless" }]

/** Resolved once the endless route runs: the request is in the handler's hands from then on. */
let endlessStarted = () => {}
const endlessRunning = new Promise<void>((resolve) => (endlessStarted = resolve))

const { handler, dispose } = HttpRouter.toWebHandler(
  Layer.mergeAll(
    HttpRouter.add("GET", "/broken", Effect.die(new Error("an invariant broke"))),
    HttpRouter.add("GET", "/endless", Effect.andThen(Effect.sync(() => endlessStarted()), Effect.never)),
    GlobalMiddleware(routeTable({ groups: {} }, paths), new Set(), "/docs")
  ).pipe(
    Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(0) })),
    Layer.provide(
      Layer.succeed(KeyAuthenticator, {
        authenticate: () => Effect.die("unused"),
        fromHeader: () => Effect.die("unused")
      })
    )
  ),
  { disableLogger: true }
)

describe("GlobalMiddleware's unexpected failures", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined)
  afterEach(() => logged.mockClear())
  afterAll(async () => {
    logged.mockRestore()
    await dispose()
  })

  it("logs a defect once, under the request id its 500 INTERNAL_ERROR carries and quotes", async () => {
    const response = await handler(new Request("http://test/broken"))
    const requestId = response.headers.get("x-request-id")!
    const body = await response.json() as { error: { code: string; message: string } }
    expect(response.status).toBe(500)
    expect(body.error.code).toBe("INTERNAL_ERROR")
    expect(body.error.message).toContain(requestId)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(String(logged.mock.calls[0]![0])).toMatch(new RegExp(`^request ${requestId} failed:\\n.*an invariant broke`))
  })

  it("logs nothing for a request whose client went away", async () => {
    const client = new AbortController()
    const answered = handler(new Request("http://test/endless", { signal: client.signal }))
    await endlessRunning
    client.abort()
    const response = await answered
    expect(response.status).toBe(499)
    expect(logged).not.toHaveBeenCalled()
  })
})
