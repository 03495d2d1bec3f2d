// Proves the typed-client example works against a real server: the server runs in-process on the
// demo scenario with a manual clock, the example starts a swap through the client, and after the
// clock advances the client reads the trade back as confirmed.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, it } from "@effect/vitest"
import { serve } from "@swapdesk/http"
import { makeSimulatorClient, simulatorApp } from "@swapdesk/server"
import { demoKeys, demoScenario } from "@swapdesk/simulator"
import { Context, Effect, Layer } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { createServer } from "node:http"
import { tour } from "../client.ts"

const manualDemo = { ...demoScenario, clock: { mode: "manual" as const, start: "2026-01-01T00:00:00Z" } }

it.live("the client example trades through a running server", () =>
  Effect.gen(function*() {
    const server = yield* Layer.build(
      serve(simulatorApp(manualDemo)).pipe(
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
      )
    )
    const baseUrl = HttpServer.formatAddress(Context.get(server, HttpServer.HttpServer).address)
    const tradeId = yield* tour(baseUrl)
    const client = yield* makeSimulatorClient({ baseUrl, apiKey: demoKeys.proAll })
    yield* client.sim.advance({ payload: { ms: 60_000 } })
    const trade = yield* client.trades.get({ params: { id: tradeId } })
    assert.strictEqual(trade.data.status, "confirmed")
    assert.isString(trade.data.amountOut)
  }).pipe(Effect.provide(FetchHttpClient.layer), Effect.scoped))
