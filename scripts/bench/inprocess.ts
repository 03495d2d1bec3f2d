/**
 * The request path's JavaScript cost per request, without sockets:
 *
 *   node scripts/bench/inprocess.ts [rounds] [requests per round]
 *
 * Builds the swapdesk server as `serverProcess.ts api` does (`main.ts`'s Node server, graceful
 * shutdown's listener, `ClientErrors`, the demo world on a manual clock, rate limits out of reach)
 * and, beside it, an `effect/http` router answering 194 bytes from one route (the floor), a raw
 * `node:http` server answering them with two headers (raw) and with the nine a swapdesk answer
 * carries (raw, 9 headers). Each request is a real `IncomingMessage` and `ServerResponse` pair
 * emitted on the server's `request` event, as Node's parser would, over a stand-in socket that
 * takes the response's bytes and drops them: no system call, no other process, so the CPU time
 * per request is the JavaScript of the request path alone (Node's HTTP code, Effect's, swapdesk's)
 * and moves by a few percent between runs where the socket benchmarks move by tens. Ten requests
 * are in flight at a time. `ROUTES=market,trade` picks routes (default: all).
 *
 * Two checkouts compare by running this script in each, at the same time (each process is a
 * thread on its own core): `docs/performance.md`, "Round 8".
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { serve } from "@swapdesk/http"
import { ClientErrors, gracefulShutdown, NodeServerPlatform } from "@swapdesk/http/node"
import { simulatorApp } from "@swapdesk/server"
import { decodeScenario, demoScenario } from "@swapdesk/simulator"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { createServer, IncomingMessage, type Server, ServerResponse } from "node:http"
import { Duplex } from "node:stream"
import { createTrade, proKey } from "./http.ts"
import { median } from "./Report.ts"
import { MARKET_DATA_PATH } from "./ServerProtocol.ts"

const rounds = Number(process.argv[2] ?? 5)
const perRound = Number(process.argv[3] ?? 20_000)
const IN_FLIGHT = 10
const HOST = "127.0.0.1"
const BODY_BYTES = 194

const scenario = decodeScenario({
  ...demoScenario,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: { free: 1e9, pro: 1e9, unauthenticated: 1e9 }
})

const api = createServer({ requireHostHeader: false })
gracefulShutdown(api)
Effect.runFork(Layer.launch(
  serve(ClientErrors(api).pipe(Layer.provideMerge(simulatorApp(scenario)))).pipe(
    Layer.provide(NodeServerPlatform),
    Layer.provideMerge(NodeHttpServer.layer(() => api, { port: 0, host: HOST, gracefulShutdownTimeout: "5 seconds" }))
  )
))

const floor = createServer()
Effect.runFork(Layer.launch(
  HttpRouter.serve(
    HttpRouter.add(
      "GET",
      "/v1/market-data",
      HttpServerResponse.uint8Array(new Uint8Array(BODY_BYTES), { contentType: "application/json" })
    ),
    { disableLogger: true, disableListenLog: true }
  ).pipe(Layer.provideMerge(NodeHttpServer.layer(() => floor, { port: 0, host: HOST })))
))

const rawServer = (headers: Record<string, string>) =>
  createServer((_request, response) => {
    response.writeHead(200, headers)
    response.end(Buffer.alloc(BODY_BYTES, 32))
  })
const twoHeaders = { "content-type": "application/json", "content-length": String(BODY_BYTES) }
const raw = rawServer(twoHeaders)
const raw9 = rawServer({
  ...twoHeaders,
  "x-request-id": "8f0c7e52-8a4e-4a57-b7a5-1f3a2b4c5d6e",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "ratelimit-limit": "1000000000",
  "ratelimit-remaining": "999999999",
  "ratelimit-reset": "41"
})

while (!api.listening || !floor.listening) await new Promise((done) => setTimeout(done, 50))
const tradeId = await createTrade(`http://${HOST}:${(api.address() as { port: number }).port}`)

/** A connection's stand-in: takes whatever the response writes, sends it nowhere. */
class Sink extends Duplex {
  override _read() {}
  override _write(_chunk: Buffer, _encoding: string, done: () => void) {
    done()
  }
  override _writev(_chunks: Array<unknown>, done: () => void) {
    done()
  }
  /** What Node's server asks of a connection after each response; nothing to time out here. */
  setTimeout() {
    return this
  }
}

/** One request on `server`, as Node's parser hands it over; answers the status once the response finished. */
const send = (server: Server, url: string, headers: Readonly<Record<string, string>>, socket: Sink) =>
  new Promise<number>((done) => {
    const request = new IncomingMessage(socket as never)
    request.method = "GET"
    request.url = url
    request.httpVersion = "1.1"
    request.httpVersionMajor = 1
    request.httpVersionMinor = 1
    request.rawHeaders = Object.entries(headers).flat()
    request.headers = { ...headers }
    request.complete = true
    request.push(null)
    const response = new ServerResponse(request)
    response.assignSocket(socket as never)
    response.on("finish", () => {
      // What Node's server does once a response finished: frees the connection, then `close`.
      response.detachSocket(socket as never)
      process.nextTick(() => response.emit("close"))
      done(response.statusCode)
    })
    server.emit("request", request, response)
  })

const plain = { host: HOST, connection: "keep-alive" }
const routes = {
  market: { server: api, url: MARKET_DATA_PATH, headers: plain },
  trade: { server: api, url: `/v1/trades/${tradeId}`, headers: { ...plain, authorization: `Bearer ${proKey}` } },
  health: { server: api, url: "/v1/health", headers: plain },
  floor: { server: floor, url: MARKET_DATA_PATH, headers: plain },
  "raw, 9 headers": { server: raw9, url: MARKET_DATA_PATH, headers: plain },
  raw: { server: raw, url: MARKET_DATA_PATH, headers: plain }
} as const
type Route = keyof typeof routes
const chosen = (process.env.ROUTES?.split(",") ?? Object.keys(routes)) as ReadonlyArray<Route>

/** CPU microseconds per request over `count` requests of `route`. */
const run = async (route: Route, count: number) => {
  const { headers, server, url } = routes[route]
  const sockets = Array.from({ length: IN_FLIGHT }, () => new Sink())
  const start = process.cpuUsage()
  for (let sent = 0; sent < count; sent += IN_FLIGHT) {
    const statuses = await Promise.all(sockets.map((socket) => send(server, url, headers, socket)))
    if (statuses.some((status) => status !== 200)) throw new Error(`${route} answered ${statuses.join(", ")}`)
  }
  const used = process.cpuUsage(start)
  return (used.user + used.system) / count
}

for (const route of chosen) await run(route, perRound)
const figures = new Map<Route, Array<number>>(chosen.map((route) => [route, []]))
for (let round = 0; round < rounds; round++) {
  for (const route of chosen) figures.get(route)!.push(await run(route, perRound))
}
console.log(JSON.stringify(Object.fromEntries(
  [...figures].map((
    [route, values]
  ) => [route, { median: +median(values).toFixed(2), min: +Math.min(...values).toFixed(2) }])
)))
process.exit(0)
