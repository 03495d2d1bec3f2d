// Proves `onRequestArrival` is told of every request a real Node server receives: one with
// `Expect: 100-continue` too, whether the server has a `checkContinue` listener of its own (then
// Node never emits `request` for it) or not (then the request still gets `100 Continue` and reaches
// the server's `request` listeners, once, as Node would have sent it without the tracker).
import { assert, describe, it } from "@effect/vitest"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { onRequestArrival } from "../../src/node/RequestArrivals.ts"

/** Sends `head` then `body` on a raw connection and resolves with everything the server wrote. */
const exchange = async (server: Server, head: string, body: string) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1")
  let received = ""
  client.setEncoding("latin1")
  client.on("data", (chunk: string) => {
    received += chunk
    if (received === "HTTP/1.1 100 Continue\r\n\r\n") client.write(body)
  })
  client.write(head)
  await new Promise<void>((resolve) => client.on("close", () => resolve()))
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return received
}

const continued = (body: string) =>
  "POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n" +
  `Content-Length: ${body.length}\r\n\r\n`

/** Answers each request with its body, once it has all of it. */
const echo = (request: IncomingMessage, response: ServerResponse<IncomingMessage>) => {
  let text = ""
  request.setEncoding("utf8")
  request.on("data", (chunk: string) => (text += chunk))
  request.on("end", () => response.end(`echo ${text}`))
}

describe("onRequestArrival", () => {
  it("without a checkContinue listener: 100 Continue is sent and the request reaches `request` once", async () => {
    const server = createServer()
    const arrivals: Array<string> = []
    let requests = 0
    onRequestArrival(server, (request) => void arrivals.push(request.url ?? ""))
    server.on("request", (request: IncomingMessage, response: ServerResponse<IncomingMessage>) => {
      requests++
      echo(request, response)
    })
    const received = await exchange(server, continued("hello"), "hello")
    assert.isTrue(received.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"), received)
    assert.isTrue(received.endsWith("echo hello"), received)
    assert.deepStrictEqual(arrivals, ["/x"])
    assert.strictEqual(requests, 1)
  })

  it("with a checkContinue listener of the server's: the request is told, though `request` never fires", async () => {
    const server = createServer()
    const arrivals: Array<string> = []
    let requests = 0
    onRequestArrival(server, (request) => void arrivals.push(request.url ?? ""))
    server.on("request", () => requests++)
    server.on("checkContinue", (request: IncomingMessage, response: ServerResponse<IncomingMessage>) => {
      response.writeContinue()
      echo(request, response)
    })
    const received = await exchange(server, continued("hi"), "hi")
    assert.isTrue(received.endsWith("echo hi"), received)
    assert.deepStrictEqual(arrivals, ["/x"])
    assert.strictEqual(requests, 0)
  })
})
