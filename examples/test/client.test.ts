// Proves the typed-client example does what its header says against a real server: the server runs
// in-process on the demo scenario with a manual clock, the example starts a swap through the client
// and waits for it, and only once the market clock has moved far enough (advanced here while the
// example polls) does it answer the trade, confirmed, as the server reports it.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, it } from "@effect/vitest"
import { serve } from "@swapdesk/http"
import { NodeServerPlatform } from "@swapdesk/http/node"
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
        Layer.provide(NodeServerPlatform),
        Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
      )
    )
    const baseUrl = HttpServer.formatAddress(Context.get(server, HttpServer.HttpServer).address)
    const client = yield* makeSimulatorClient({ baseUrl, apiKey: demoKeys.proAll })
    // The market clock moves 5 s at a time while the example waits; it never moves on its own.
    let advancedMs = 0
    const moveClock = client.sim.advance({ payload: { ms: 5_000 } }).pipe(
      Effect.tap(() => Effect.sync(() => (advancedMs += 5_000))),
      Effect.andThen(Effect.sleep("300 millis")),
      Effect.forever
    )
    const settled = yield* Effect.raceFirst(tour(baseUrl), moveClock)
    assert.strictEqual(settled.status, "confirmed")
    assert.isString(settled.amountOut)
    assert.isString(settled.txHash)
    // The example waited for the chain: a pending answer would have come before any advance.
    assert.isAbove(advancedMs, 0)
    const stored = yield* client.trades.get({ params: { id: settled.id } })
    assert.deepStrictEqual(stored.data, settled)
  }).pipe(Effect.provide(FetchHttpClient.layer), Effect.scoped))
