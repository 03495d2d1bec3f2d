// Proves that requests Node's HTTP parser refuses before any route sees them (a malformed request
// line, oversized headers, a forbidden header character, a broken chunked body, CONNECT) are answered
// with the contract's error envelope in market time, an X-Request-Id and Connection: close, and the
// connection closed; that a refused request pipelined behind a valid one waits for its answer; that
// the server keeps serving; and that a request target with a fragment, which Node passes on, is
// refused before the router reads a query after it. A real server on an ephemeral port, written to through raw sockets,
// since an HTTP client cannot send a malformed request.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, layer } from "@effect/vitest"
import { serve } from "@swapdesk/http"
import { ClientErrors, NodeServerPlatform } from "@swapdesk/http/node"
import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { simulatorApp } from "../src/SimulatorServer.ts"
import { advance, call, testScenario } from "./harness.ts"

// As main.ts creates it: a request without Host reaches the routes. The time limits are short so
// that a request that never finishes is seen to time out within the test.
const nodeServer = createServer({
  requireHostHeader: false,
  headersTimeout: 1_000,
  requestTimeout: 1_000,
  connectionsCheckingInterval: 100
})

/** The standalone server's app with `ClientErrors` on the node server it runs on, and a client for it. */
const TestServer = HttpServer.layerTestClient.pipe(
  Layer.provide(FetchHttpClient.layer),
  Layer.provideMerge(
    serve(ClientErrors(nodeServer).pipe(Layer.provideMerge(simulatorApp(testScenario))))
  ),
  Layer.provide(NodeServerPlatform),
  Layer.provideMerge(NodeHttpServer.layer(() => nodeServer, { port: 0, host: "127.0.0.1" }))
)

interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

/** Writes `bytes` on a new connection; everything the server sent by the time it closed the connection. */
const exchange = (bytes: string) =>
  Effect.callback<string>((resume) => {
    const socket = connect((nodeServer.address() as AddressInfo).port, "127.0.0.1")
    let received = ""
    socket.setEncoding("latin1")
    socket.on("data", (chunk: string) => (received += chunk))
    // The server may close while bytes it will never read are still being sent.
    socket.on("error", () => undefined)
    socket.on("close", () => resume(Effect.succeed(received)))
    socket.write(bytes, "latin1")
  }).pipe(Effect.timeout("5 seconds"), Effect.orDie)

/** The responses in `text`, in order; each must declare its length. */
const parseResponses = (text: string): Array<RawResponse> => {
  const responses: Array<RawResponse> = []
  let rest = text
  while (rest !== "") {
    const headEnd = rest.indexOf("\r\n\r\n")
    assert.isAbove(headEnd, 0, `not an HTTP response: ${JSON.stringify(rest)}`)
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n")
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(":")
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = Number(headers["content-length"])
    assert.isTrue(Number.isInteger(length), `no Content-Length in ${JSON.stringify(statusLine)}`)
    const body = rest.slice(headEnd + 4, headEnd + 4 + length)
    rest = rest.slice(headEnd + 4 + length)
    const json = (headers["content-type"] ?? "").includes("json")
    responses.push({ status: Number(statusLine!.split(" ")[1]), headers, body: json ? JSON.parse(body) : body })
  }
  return responses
}

/** The one response to `bytes`. */
const refusal = (bytes: string) =>
  Effect.map(exchange(bytes), (text) => {
    const responses = parseResponses(text)
    assert.lengthOf(responses, 1, text)
    return responses[0]!
  })

/** What every refusal carries besides its code and status. */
const assertEnvelope = (response: RawResponse, timestamp: string) => {
  assert.strictEqual(response.headers["content-type"], "application/json")
  assert.strictEqual(response.headers["connection"], "close")
  assert.match(response.headers["x-request-id"] ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  assert.strictEqual(response.body.success, false)
  assert.isString(response.body.error.message)
  assert.strictEqual(response.body.timestamp, timestamp)
}

const START = "2026-01-01T00:00:00.000Z"

layer(TestServer, { excludeTestServices: true })("requests Node's parser refuses", (it) => {
  it.effect("a malformed request line is 400 VALIDATION_ERROR in the envelope, at the market clock's time", () =>
    Effect.gen(function*() {
      const response = yield* refusal("GARBAGE\r\n\r\n")
      assert.strictEqual(response.status, 400)
      assertEnvelope(response, START)
      assert.strictEqual(response.body.error.code, "VALIDATION_ERROR")
      assert.deepStrictEqual(response.body.error.details, [{ path: "", message: response.body.error.message }])
    }))

  it.effect("headers over Node's limit are 400 VALIDATION_ERROR naming the limit", () =>
    Effect.gen(function*() {
      const response = yield* refusal(`GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`)
      assert.strictEqual(response.status, 400)
      assertEnvelope(response, START)
      assert.strictEqual(response.body.error.code, "VALIDATION_ERROR")
      assert.include(response.body.error.message, "16384 bytes")
    }))

  it.effect("a forbidden character in a header name, or a broken chunked body, is 400 VALIDATION_ERROR", () =>
    Effect.gen(function*() {
      const header = yield* refusal("GET /v1/health HTTP/1.1\r\nHo\x01st: x\r\n\r\n")
      assert.strictEqual(header.status, 400)
      assertEnvelope(header, START)
      assert.strictEqual(header.body.error.code, "VALIDATION_ERROR")
      const chunked = yield* refusal(
        "POST /v1/sim/faults HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
      )
      assert.strictEqual(chunked.status, 400)
      assertEnvelope(chunked, START)
      assert.strictEqual(chunked.body.error.code, "VALIDATION_ERROR")
    }))

  it.effect("a broken body of a request that sent a valid X-Request-Id is refused under that id", () =>
    Effect.gen(function*() {
      const response = yield* refusal(
        "POST /v1/sim/faults HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\nContent-Type: application/json\r\n" +
          "Transfer-Encoding: chunked\r\n\r\nzz\r\n"
      )
      assert.strictEqual(response.status, 400)
      assert.strictEqual(response.headers["x-request-id"], "trace-42")
      assert.strictEqual(response.body.error.code, "VALIDATION_ERROR")
    }))

  it.effect("an Expect other than 100-continue is 417 EXPECTATION_FAILED in the envelope, under the client's id", () =>
    Effect.gen(function*() {
      const response = yield* refusal(
        "POST /v1/sim/faults HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: exp-1\r\n" +
          "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
      )
      assert.strictEqual(response.status, 417)
      assert.strictEqual(response.body.error.code, "EXPECTATION_FAILED")
      assert.strictEqual(response.headers["x-request-id"], "exp-1")
      assert.strictEqual(response.headers["x-content-type-options"], "nosniff")
      assert.strictEqual(response.body.timestamp, START)
    }))

  it.effect("an HTTP/1.1 request without Host is 400 VALIDATION_ERROR in the envelope; HTTP/1.0 needs none", () =>
    Effect.gen(function*() {
      const [missing] = parseResponses(yield* exchange("GET /v1/health HTTP/1.1\r\nConnection: close\r\n\r\n"))
      assert.strictEqual(missing!.status, 400)
      assert.strictEqual(missing!.body.error.code, "VALIDATION_ERROR")
      assert.match(missing!.body.error.message, /Host/)
      assert.isString(missing!.headers["x-request-id"])
      const [old] = parseResponses(yield* exchange("GET /v1/health HTTP/1.0\r\n\r\n"))
      assert.strictEqual(old!.status, 200)
    }))

  it.effect("a request that does not arrive in time is 408 REQUEST_TIMEOUT in the envelope", () =>
    Effect.gen(function*() {
      const response = yield* refusal("GET /v1/health HTTP/1.1\r\nHost: x\r\n")
      assert.strictEqual(response.status, 408)
      assertEnvelope(response, START)
      assert.strictEqual(response.body.error.code, "REQUEST_TIMEOUT")
    }))

  it.effect("CONNECT is 405 METHOD_NOT_ALLOWED with an empty Allow, not a dropped connection", () =>
    Effect.gen(function*() {
      const response = yield* refusal("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
      assert.strictEqual(response.status, 405)
      assertEnvelope(response, START)
      assert.strictEqual(response.body.error.code, "METHOD_NOT_ALLOWED")
      assert.strictEqual(response.headers["allow"], "")
    }))

  it.effect("a refused request pipelined behind a valid one is answered after it, in order", () =>
    Effect.gen(function*() {
      const text = yield* exchange("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n")
      const [health, refused, ...more] = parseResponses(text)
      assert.lengthOf(more, 0, text)
      assert.strictEqual(health!.status, 200)
      assert.strictEqual(health!.body.data.status, "ok")
      assert.strictEqual(refused!.status, 400)
      assertEnvelope(refused!, START)
    }))

  it.effect("the timestamp follows the market clock, and other connections are served as before", () =>
    Effect.gen(function*() {
      yield* advance(90_000)
      const response = yield* refusal("GARBAGE\r\n\r\n")
      assertEnvelope(response, "2026-01-01T00:01:30.000Z")
      const health = yield* call("GET", "/v1/health")
      assert.strictEqual(health.status, 200)
      assert.strictEqual(health.body.timestamp, "2026-01-01T00:01:30.000Z")
    }))

  it.effect("a request target with a '#' is 400 VALIDATION_ERROR, and leaves no trace on later queries", () =>
    Effect.gen(function*() {
      const [refused] = parseResponses(
        yield* exchange("GET /v1/market-data#token=ETH&x=?token=SOL HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      )
      assert.strictEqual(refused!.status, 400)
      assert.strictEqual(refused!.body.error.code, "VALIDATION_ERROR")
      assert.include(refused!.body.error.message, "#")
      const sol = yield* call("GET", "/v1/market-data?token=SOL")
      assert.strictEqual(sol.body.data.token, "SOL")
    }))
})
