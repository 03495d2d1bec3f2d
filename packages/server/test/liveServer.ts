/**
 * The standalone server as `main.ts` builds it (a Node server whose parser's refusals `ClientErrors`
 * answers), on an ephemeral port, with the harness's `call` pointed at it, and the records behind it
 * (the simulation, the trade and order repositories) that the funds check (`fundsProblems`) reads.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { OrderRepository, TradeRepository } from "@swapdesk/core"
import { serve } from "@swapdesk/http"
import { ClientErrors, NodeServerPlatform } from "@swapdesk/http/node"
import { type ScenarioFile, type Simulation, SimulationState, type SimulatorRepositories } from "@swapdesk/simulator"
import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { simulatorApp } from "../src/SimulatorServer.ts"

/** What a test reads behind the HTTP API: the simulation and the repositories the server writes. */
export interface World {
  readonly server: Server
  readonly sim: Simulation
  readonly trades: TradeRepository["Service"]
  readonly orders: OrderRepository["Service"]
}

/** The port the server listens on. */
export const portOf = (world: World): number => (world.server.address() as AddressInfo).port

/**
 * A real server on `scenario` and 127.0.0.1:0, built as `main.ts` builds it, with `call` pointed at
 * it, keeping its records in `repositories` (in memory unless given); `world` is filled in when the
 * layer is built.
 */
export const liveServer = <E = never>(scenario: ScenarioFile, repositories?: SimulatorRepositories<E>) => {
  const server = createServer({ requireHostHeader: false })
  const world: { current?: World } = {}
  const app = simulatorApp(scenario, repositories === undefined ? {} : { repositories })
  const capture = Layer.effectDiscard(Effect.gen(function*() {
    world.current = {
      server,
      sim: yield* SimulationState,
      trades: yield* TradeRepository,
      orders: yield* OrderRepository
    }
  }))
  const layer = HttpServer.layerTestClient.pipe(
    Layer.provide(FetchHttpClient.layer),
    Layer.provideMerge(serve(ClientErrors(server).pipe(Layer.provideMerge(capture), Layer.provideMerge(app)))),
    Layer.provide(NodeServerPlatform),
    Layer.provideMerge(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" }))
  )
  const get = (): World => {
    if (world.current === undefined) throw new Error("the server's layer is not built yet")
    return world.current
  }
  return { layer, world: get }
}
