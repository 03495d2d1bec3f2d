// Proves the composition example: the contract's routes served on ports the caller provides answer
// public market data, refuse keys they do not know, and do not expose the simulator's control routes;
// on a Node server, a request Node's parser refuses is answered in the error envelope at market time;
// and run as its header says (a Node process on the file), it prints the address it listens on,
// which then answers.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { app, nodeApp } from "../server.ts"

const get = (path: string, key?: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.get(path)
    const response = yield* client.execute(key === undefined ? request : HttpClientRequest.bearerToken(request, key))
    return { status: response.status, body: (yield* response.json) as any }
  })

layer(app.pipe(Layer.provideMerge(NodeHttpServer.layerTest)), { excludeTestServices: true })(
  "composed server",
  (it) => {
    it.effect("serves public market data from the provided ports", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/market-data?token=ETH&currency=EUR")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.body.data.currency, "EUR")
        assert.isAbove(reply.body.data.price, 0)
      }))

    it.effect("knows no keys until the service stores some", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/trades", `sd_live_${"x".repeat(40)}`)
        assert.strictEqual(reply.status, 401)
      }))

    it.effect("has no simulator control routes", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/sim/clock")
        assert.strictEqual(reply.status, 404)
        assert.strictEqual(reply.body.error.code, "NOT_FOUND")
      }))
  }
)

it.live("on a Node server, a malformed request gets the error envelope at market time", () =>
  Effect.gen(function*() {
    const server = createServer()
    yield* Layer.build(
      nodeApp(server).pipe(Layer.provide(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" })))
    )
    const port = (server.address() as AddressInfo).port
    const raw = yield* Effect.callback<string>((resume) => {
      const socket = connect(port, "127.0.0.1")
      let received = ""
      socket.setEncoding("latin1")
      socket.on("data", (chunk: string) => (received += chunk))
      socket.on("close", () => resume(Effect.succeed(received)))
      socket.write("GARBAGE\r\n\r\n")
    })
    const [head = "", body = ""] = raw.split("\r\n\r\n")
    assert.match(head, /^HTTP\/1\.1 400 /)
    assert.match(head, /\r\nx-request-id: [0-9a-f-]{36}\r\n/)
    const envelope = JSON.parse(body)
    assert.strictEqual(envelope.error.code, "VALIDATION_ERROR")
    const health = yield* Effect.promise(() =>
      fetch(`http://127.0.0.1:${port}/v1/health`).then((r) => r.json() as Promise<any>)
    )
    assert.strictEqual(envelope.timestamp, health.timestamp)
  }).pipe(Effect.scoped))

it.live("run as a program, it prints where it listens, and answers there", () =>
  Effect.gen(function*() {
    const program = spawn(process.execPath, [new URL("../server.ts", import.meta.url).pathname], {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => program.kill("SIGTERM")))
    const firstLine = yield* Effect.callback<string, Error>((resume) => {
      let printed = ""
      program.stdout.on("data", (chunk: Buffer) => {
        printed += chunk.toString()
        if (printed.includes("\n")) resume(Effect.succeed(printed.split("\n")[0]!))
      })
      program.once("exit", (code) => resume(Effect.fail(new Error(`exited ${code} before printing: ${printed}`))))
    })
    const address = /^listening on (http:\/\/127\.0\.0\.1:\d+): try /.exec(firstLine)?.[1]
    assert.isString(address, firstLine)
    const health = yield* Effect.promise(() => fetch(`${address}/v1/health`).then((r) => r.json() as Promise<any>))
    assert.strictEqual(health.data.backend, "custom")
  }).pipe(Effect.scoped))
