// Proves `responsesInFlight` knows, from what Node documents alone, which responses a connection
// still owes and which one Node is writing: two requests pipelined on one raw socket to a real Node
// server are listed in order, the second becomes the current one once the first has finished, and
// the list empties as they close; and that `gracefulShutdown`'s drain closes a connection whose
// response had already sent its head, once that response ends.
import { assert, describe, it } from "@effect/vitest"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { type AddressInfo, connect } from "node:net"
import { gracefulShutdown } from "../../src/node/GracefulShutdown.ts"
import { responsesInFlight } from "../../src/node/ResponsesInFlight.ts"

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  assert.isTrue(condition(), "in time")
}

/** A listening server whose handler keeps each response until the test ends it, and a raw client. */
const heldServer = async (server: Server = createServer()) => {
  const inFlight = responsesInFlight(server)
  const held: Array<ServerResponse<IncomingMessage>> = []
  server.on("request", (_request, response: ServerResponse<IncomingMessage>) => void held.push(response))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1")
  let received = ""
  client.on("data", (chunk) => (received += chunk))
  const closed = new Promise<void>((resolve) => client.on("close", () => resolve()))
  return { server, inFlight, held, client, received: () => received, closed }
}

describe("responsesInFlight", () => {
  it("lists a connection's owed responses in order, the first unfinished as current, until they close", async () => {
    const { client, held, inFlight, server } = await heldServer()
    client.write("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
    await until(() => held.length === 2)
    const socket = held[0]!.req.socket
    assert.strictEqual(held[1]!.req.socket, socket, "one connection")
    assert.deepStrictEqual(inFlight.on(socket), held)
    assert.strictEqual(inFlight.current(socket), held[0])

    held[0]!.end("a")
    await until(() => inFlight.on(socket).length === 1)
    assert.strictEqual(inFlight.current(socket), held[1])

    held[1]!.end("b")
    await until(() => inFlight.on(socket).length === 0)
    assert.isUndefined(inFlight.current(socket))
    client.destroy()
    server.close()
  })

  it("is one tracker per server, however many ask", () => {
    const server = createServer()
    assert.strictEqual(responsesInFlight(server), responsesInFlight(server))
    assert.strictEqual(server.listenerCount("request"), 1)
  })
})

describe("gracefulShutdown", () => {
  it("closes a connection after a response whose head was already sent when the drain began", async () => {
    // Idle keep-alive connections would close only after 30 s: the close seen here is the drain's.
    const server = createServer({ keepAliveTimeout: 30_000 })
    const shutdown = gracefulShutdown(server)
    const { client, closed, held, received } = await heldServer(server)
    client.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
    await until(() => held.length === 1)
    held[0]!.writeHead(200, { "content-type": "text/plain", "transfer-encoding": "chunked" })
    held[0]!.write("first ")
    await until(() => received().includes("first"))

    const drained = shutdown.drain(5_000)
    held[0]!.end("last")
    const inTime = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000))
    ])
    assert.isTrue(inTime, "closed within a second of its last response")
    await drained
    assert.include(received(), "first ")
    assert.include(received(), "last")
    assert.notInclude(received(), "connection: close", "the head had gone out before the drain")
  })
})
