/**
 * A consumer of the typed clients against a server running elsewhere (the test starts the packed
 * `swapdesk-server` binary and passes its address in SWAPDESK_URL): with `@swapdesk/http`'s client,
 * the service's version, a price, a swap, the confirmed trade, and a missing alert matched by its
 * tag; with `@swapdesk/server`'s `makeSimulatorClient`, the clock moved through the simulator's
 * control route (that package loads on Node 20 too, where the test also runs this). Prints one
 * JSON line for the test to check.
 */
import { makeClient } from "@swapdesk/http"
import { makeSimulatorClient } from "@swapdesk/server"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"

const baseUrl = process.env["SWAPDESK_URL"] ?? "http://127.0.0.1:3000"
const apiKey = process.env["SWAPDESK_KEY"] ?? "sd_test_DemoProAllScopes000000000000000000000000"

const program = Effect.gen(function*() {
  const client = yield* makeClient({ baseUrl, apiKey })
  const health = yield* client.system.health()
  const market = yield* client.market.marketData({ query: { token: "SOL" } })
  const created = yield* client.trades.create({
    headers: { "idempotency-key": `consumer-${process.versions.node}` },
    payload: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.5", network: "solana" }
  })
  const simulator = yield* makeSimulatorClient({ baseUrl })
  yield* simulator.sim.advance({ payload: { ms: 30_000 } })
  const trade = yield* client.trades.get({ params: { id: created.data.id } })
  const missing = yield* client.alerts.get({ params: { id: "alrt_doesnotexist" } }).pipe(
    Effect.map(() => "found"),
    Effect.catchTag("NotFound", (error) => Effect.succeed(error.error.code))
  )
  return { version: health.data.version, price: market.data.price, status: trade.data.status, missing }
}).pipe(Effect.provide(FetchHttpClient.layer))

console.log(JSON.stringify({ node: process.versions.node, ...(await Effect.runPromise(program)) }))
