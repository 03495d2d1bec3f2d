// Proves `ClientErrors` states the header limit of the server it is given, which Node does not
// expose: a real Node server created with a 1 KiB `maxHeaderSize` and told so refuses a 2 KiB head
// with the envelope naming 1024 bytes, and without being told names Node's own limit. Raw bytes
// over a real socket, a fixed market clock.
import { assert, describe, it } from "@effect/vitest"
import { MarketClock } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { createServer, maxHeaderSize } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { ClientErrors, type ClientErrorsOptions } from "../../src/node/ClientErrors.ts"

const clock = Layer.succeed(MarketClock, { now: Effect.succeed(Date.parse("2026-01-01T00:00:00Z")) })

/** The refusal's status line and message for a 2 KiB head sent to a server with a 1 KiB limit. */
const refusalOfLongHead = (options: ClientErrorsOptions | undefined) =>
  Effect.scoped(Effect.gen(function*() {
    const server = createServer({ maxHeaderSize: 1024 })
    yield* Layer.build(ClientErrors(server, options).pipe(Layer.provide(clock)))
    yield* Effect.acquireRelease(
      Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))),
      () => Effect.sync(() => server.close())
    )
    const received = yield* Effect.promise(() =>
      new Promise<string>((resolve) => {
        const socket = connect(
          (server.address() as AddressInfo).port,
          "127.0.0.1",
          () => socket.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Long: ${"a".repeat(2048)}\r\n\r\n`)
        )
        let text = ""
        socket.on("data", (chunk) => (text += chunk))
        socket.on("error", () => {})
        socket.on("close", () => resolve(text))
      })
    )
    const [head = "", body = ""] = received.split("\r\n\r\n")
    return {
      status: head.split("\r\n")[0],
      message: (JSON.parse(body) as { error: { message: string } }).error.message
    }
  }))

describe("ClientErrors", () => {
  it.effect("states the header limit it is told the server has", () =>
    Effect.gen(function*() {
      const refusal = yield* refusalOfLongHead({ maxHeaderSize: 1024 })
      assert.strictEqual(refusal.status, "HTTP/1.1 400 Bad Request")
      assert.strictEqual(refusal.message, "the request's headers are over 1024 bytes")
    }))

  it.effect("states Node's own limit when it is not told", () =>
    Effect.gen(function*() {
      const refusal = yield* refusalOfLongHead(undefined)
      assert.strictEqual(refusal.message, `the request's headers are over ${maxHeaderSize} bytes`)
    }))
})
