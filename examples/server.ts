/**
 * Serving the contract from your own service: `routes` needs only implementations of the core's
 * ports and repositories. Here the simulator stands in for real market data and chains, but its
 * control routes are not mounted — this is the shape a production deployment composes, with its
 * own adapters in place of `layerSimulator`.
 *
 *   npx -y pnpm@12.21.0 exec node examples/server.ts        (from the repository's root; listens on PORT, default 3001)
 *
 * It prints where it listens once the socket is open, then serves until Ctrl-C.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { routes, serve } from "@swapdesk/http"
import { ClientErrors, NodeServerPlatform } from "@swapdesk/http/node"
import { decodeScenario, layerSimulator } from "@swapdesk/simulator"
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { createServer, type Server } from "node:http"

/** A tiny world: one manual-clock market and no accounts (public market data only). */
export const world = layerSimulator(decodeScenario({ seed: 3, clock: { mode: "manual" }, historyDays: 2 }))

/** The contract's routes on `world`, ready for any platform server. */
export const app = serve(routes.pipe(Layer.provide(world)))

/**
 * `app` for a Node server: what Node knows of a request beyond Effect's view of it (its HTTP
 * version, repeated header fields, the methods it parses) comes from `NodeServerPlatform`, and
 * requests Node's parser refuses never reach a route, so `ClientErrors` answers them on that same
 * server, in the error envelope at `world`'s market time.
 */
export const nodeApp = (server: Server) =>
  serve(Layer.merge(routes, ClientErrors(server)).pipe(Layer.provide(world))).pipe(Layer.provide(NodeServerPlatform))

/** Prints the address of the platform server it is given, once that server listens. */
export const logAddress = Layer.effectDiscard(Effect.gen(function*() {
  const address = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
  console.log(`listening on ${address}: try ${address}/v1/market-data?token=SOL`)
}))

if (import.meta.main) {
  const port = Number(process.env["PORT"] ?? 3001)
  const server = createServer()
  Layer.launch(
    Layer.merge(nodeApp(server), logAddress).pipe(
      Layer.provide(NodeHttpServer.layer(() => server, { port, host: "127.0.0.1" }))
    )
  ).pipe(NodeRuntime.runMain)
}
