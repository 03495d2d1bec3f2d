/**
 * One of the servers the HTTP benchmark loads (`ServerProtocol.ts`, `ServerKind`), in a child
 * process of its own, so that the load generator (autocannon, in the parent) does not take its CPU
 * and no other server's load shapes its compiled code:
 *
 * - `api`: the swapdesk server on a manual-clock copy of the demo scenario, built and served as
 *   `packages/server/src/main.ts` serves it;
 * - `raw`: a raw `node:http` server answering the bytes the swapdesk server gave for
 *   `GET /v1/market-data?token=SOL`: the baseline, what this machine's Node can serve at all;
 * - `runtime`: the same server answering the same bytes from one Effect fiber per request, run on
 *   Node's server rather than Effect's: what Effect's runtime alone adds to a request;
 * - `router`: an `effect/http` router answering the same bytes from one route, with no HttpApi,
 *   middleware, schema or domain (the floor of the platform swapdesk is built on, which tells how
 *   much of the gap to raw is the framework's and how much is swapdesk's);
 * - `apiBuilder`, `apiRoutes`: an `effect/http-api` definition with one endpoint
 *   (`GET /v1/market-data`, its query decoded by a one-field schema) answering the same bytes, with
 *   no middleware or domain, served by Effect's `HttpApiBuilder` and by swapdesk's `ApiRoutes` (what
 *   each adds to a request).
 *
 * The kind is the first argument; every kind but `api` takes the bytes to answer, base64, as the
 * second. Spoken to over the IPC channel. Started by `http.ts`, `profile.ts` and `trees.ts`; not
 * meant to be run by hand.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { MarketClock } from "@swapdesk/core"
import { ApiHandlers, ApiRoutes, serve } from "@swapdesk/http"
import { ClientErrors, gracefulShutdown, NodeServerPlatform } from "@swapdesk/http/node"
import { simulatorApp } from "@swapdesk/server"
import { decodeScenario, demoScenario } from "@swapdesk/simulator"
import { Context, Effect, Exit, Layer, Schema, type Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { writeFileSync } from "node:fs"
import { createServer, type RequestListener } from "node:http"
import { Session } from "node:inspector/promises"
import type { AddressInfo } from "node:net"
import { performance } from "node:perf_hooks"
import type { ServerKind, ServerReply, ServerRequest } from "./ServerProtocol.ts"

const HOST = "127.0.0.1"

const reply = (message: ServerReply) => process.send!(message)

/** A `node:http` server answering every request with `listener`; answers its address. */
const startNode = (listener: RequestListener) =>
  new Promise<string>((resolve) => {
    const server = createServer(listener)
    server.listen(0, HOST, () => resolve(`http://${HOST}:${(server.address() as AddressInfo).port}`))
  })

const bodyHeaders = (body: Uint8Array) => ({
  "content-type": "application/json",
  "content-length": String(body.byteLength)
})

/** Serves `body` to every request, as fast as `node:http` can. */
const startRaw = (body: Uint8Array) => {
  const headers = bodyHeaders(body)
  return startNode((_request, response) => {
    response.writeHead(200, headers)
    response.end(body)
  })
}

/**
 * Serves `body` to every request from a fiber of its own, forked from Node's `request` event and
 * observed to its end, as a server on Effect's runtime without its HTTP server would: the request
 * path's cost that is Effect's runtime alone.
 */
const startRuntime = (body: Uint8Array) => {
  const headers = bodyHeaders(body)
  const answer = Effect.succeed(body)
  return startNode((_request, response) => {
    Effect.runFork(answer).addObserver((exit) => {
      if (Exit.isFailure(exit)) return response.destroy()
      response.writeHead(200, headers)
      response.end(exit.value)
    })
  })
}

const profiler = new Session()

const handle = async (message: ServerRequest) => {
  switch (message.type) {
    case "usage": {
      const { system, user } = process.cpuUsage()
      const { active, idle } = performance.eventLoopUtilization()
      return reply({
        type: "usage",
        cpuMicros: user + system,
        wallMs: performance.now(),
        loopActiveMs: active,
        loopIdleMs: idle
      })
    }
    case "profileStart": {
      profiler.connect()
      await profiler.post("Profiler.enable")
      await profiler.post("Profiler.start")
      return
    }
    case "profileStop": {
      const { profile } = await profiler.post("Profiler.stop")
      profiler.disconnect()
      writeFileSync(message.file, JSON.stringify(profile))
      return reply({ type: "profileSaved", file: message.file })
    }
    case "stop":
      return process.exit(0)
  }
}

/**
 * The demo world on a manual clock (no background ticking competes with requests), with rate limits
 * so high that none is reached: the limiter still runs on every request, as it does in production,
 * but a benchmark of 429 responses would measure nothing.
 */
const scenario = decodeScenario({
  ...demoScenario,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: { free: 1e9, pro: 1e9, unauthenticated: 1e9 }
})

const listen = () => NodeHttpServer.layer(createServer, { port: 0, host: HOST })
const noLogs = { disableLogger: true, disableListenLog: true } as const

/** The one-endpoint API the two HttpApi floors serve: `GET /v1/market-data` with a one-field query. */
const FloorApi = HttpApi.make("floor").add(
  HttpApiGroup.make("market").add(
    HttpApiEndpoint.get("marketData", "/v1/market-data", {
      query: { token: Schema.String },
      success: Schema.Unknown
    })
  )
)

/** Builds `app` on a server of its own; answers its address. */
const startOn = <E>(
  app: Layer.Layer<never, E, HttpRouter.HttpRouter | Layer.Success<ReturnType<typeof listen>>>
) =>
  Effect.map(
    Layer.build(HttpRouter.serve(app, noLogs).pipe(Layer.provideMerge(listen()))),
    (context) => HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)
  )

/**
 * The swapdesk server as `packages/server/src/main.ts` serves it: on a Node server that lets a
 * request without `Host` through to the envelope, with its graceful shutdown's `request` listener
 * and the envelope for requests Node's parser refuses (`ClientErrors`).
 */
const startApi = () => {
  const nodeServer = createServer({ requireHostHeader: false })
  gracefulShutdown(nodeServer)
  const server = NodeHttpServer.layer(() => nodeServer, { port: 0, host: HOST, gracefulShutdownTimeout: "5 seconds" })
  const app = ClientErrors(nodeServer).pipe(Layer.provideMerge(simulatorApp(scenario)))
  return Effect.map(
    Layer.build(serve(app).pipe(Layer.provide(NodeServerPlatform), Layer.provideMerge(server))),
    (context) => HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address)
  )
}

/** The `effect/http` floor: one route, the same bytes. */
const startFloor = (body: Uint8Array) =>
  startOn(
    HttpRouter.add("GET", "/v1/market-data", HttpServerResponse.uint8Array(body, { contentType: "application/json" }))
  )

/**
 * An HttpApi floor: `FloorApi` answering the same bytes, with no middleware or domain, served by
 * Effect's `HttpApiBuilder` or by swapdesk's `ApiRoutes` (what the swapdesk server runs on).
 */
const startApiFloor = (body: Uint8Array, builder: "HttpApiBuilder" | "ApiRoutes") => {
  const response = HttpServerResponse.uint8Array(body, { contentType: "application/json" })
  if (builder === "HttpApiBuilder") {
    const handlers = HttpApiBuilder.group(
      FloorApi,
      "market",
      (group) => group.handle("marketData", () => Effect.succeed(response))
    )
    return startOn(HttpApiBuilder.layer(FloorApi).pipe(Layer.provide(handlers)))
  }
  const handlers = ApiHandlers.group(
    FloorApi,
    "market",
    (group) => Effect.succeed(group.handle("marketData", () => Effect.succeed(response)))
  )
  return startOn(
    ApiRoutes.layer(FloorApi, { openapiPath: "/openapi.json" }).pipe(
      Layer.provide(handlers),
      Layer.provide(Layer.succeed(MarketClock, { now: Effect.succeed(0) }))
    )
  )
}

const [kind, bodyBase64] = process.argv.slice(2) as [ServerKind, string | undefined]
const body = (): Uint8Array => {
  if (bodyBase64 === undefined) throw new Error(`the ${kind} server needs the bytes to answer`)
  return new Uint8Array(Buffer.from(bodyBase64, "base64"))
}

/** Starts `kind`'s server; answers where it listens. */
const startKind = (): Effect.Effect<string, unknown, Scope.Scope> => {
  switch (kind) {
    case "api":
      return startApi()
    case "raw":
      return Effect.promise(() => startRaw(body()))
    case "runtime":
      return Effect.promise(() => startRuntime(body()))
    case "router":
      return startFloor(body())
    case "apiBuilder":
      return startApiFloor(body(), "HttpApiBuilder")
    case "apiRoutes":
      return startApiFloor(body(), "ApiRoutes")
  }
}

const program = Effect.gen(function*() {
  const url = yield* startKind()
  process.on("message", (message: ServerRequest) => void handle(message))
  // Nothing else keeps the child alive once the parent has gone.
  process.on("disconnect", () => process.exit(0))
  reply({ type: "ready", url })
  return yield* Effect.never
}).pipe(Effect.scoped)

Effect.runPromise(program).catch((error: unknown) => {
  console.error("bench server failed:", error)
  process.exit(1)
})
