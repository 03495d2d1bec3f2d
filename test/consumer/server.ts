/**
 * A consumer of the published packages over HTTP. Two servers on ephemeral ports:
 * - `@swapdesk/server`'s `simulatorApp` (the standalone server's composition) on a manual-clock
 *   scenario, driven with the typed clients: a swap, the clock advanced through `/v1/sim`, the
 *   confirmed trade read back, a missing trade matched with `Effect.catchTag("NotFound", …)`, and
 *   the version `/v1/health` reports;
 * - `@swapdesk/http`'s `routes` on the simulator's layers without the `/v1/sim` routes, as a
 *   service with its own adapters would compose it, with `@swapdesk/http/node`'s `ClientErrors` on
 *   its Node server: public market data, an unknown key refused as `Unauthorized`, no control
 *   routes, and a malformed request answered in the error envelope.
 * Prints one JSON line for the test to check.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { makeClient, routes, serve } from "@swapdesk/http"
import { ClientErrors, NodeServerPlatform } from "@swapdesk/http/node"
import { makeSimulatorClient, simulatorApp } from "@swapdesk/server"
import { decodeScenario, layerSimulator } from "@swapdesk/simulator"
import { Context, Effect, Layer } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import { createServer, type Server } from "node:http"
import { connect } from "node:net"

const KEY = `sd_test_${"Consumer".padEnd(40, "0")}`

const scenario = decodeScenario({
  seed: 11,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  historyDays: 1,
  networks: { solana: { failureRate: 0 } },
  accounts: [{
    id: "acct_consumer",
    apiKeys: [{ name: "consumer", key: KEY, scopes: ["read", "trade", "alerts", "account"] }],
    wallets: [{
      network: "solana",
      address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
      delegatedSigning: true,
      balances: { SOL: "10", USDC: "1000" }
    }]
  }]
})

/** Serves `app` on 127.0.0.1 at a port the system picks, for the enclosing scope; answers its URL. */
const listen = <E>(app: Layer.Layer<never, E, HttpServer.HttpServer>, server: Server = createServer()) =>
  Layer.build(app.pipe(Layer.provideMerge(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" })))).pipe(
    Effect.map((context) => HttpServer.formatAddress(Context.get(context, HttpServer.HttpServer).address))
  )

const standalone = Effect.gen(function*() {
  const baseUrl = yield* listen(serve(simulatorApp(scenario)).pipe(Layer.provide(NodeServerPlatform)))
  const client = yield* makeSimulatorClient({ baseUrl, apiKey: KEY })
  const health = yield* client.system.health()
  const created = yield* client.trades.create({
    headers: {},
    payload: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1.5", network: "solana" }
  })
  yield* client.sim.advance({ payload: { ms: 30_000 } })
  const trade = yield* client.trades.get({ params: { id: created.data.id } })
  const missing = yield* client.trades.get({ params: { id: "trd_doesnotexist" } }).pipe(
    Effect.map(() => "found"),
    Effect.catchTag("NotFound", (error) => Effect.succeed(`${error._tag} ${error.error.code}: ${error.error.message}`))
  )
  return { version: health.data.version, created: created.data.status, confirmed: trade.data, missing }
})

/** Sends `request` as raw bytes and answers the response's status line and error code. */
const rawCall = (baseUrl: string, request: string) =>
  Effect.promise(() =>
    new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl)
      const socket = connect(Number(port), hostname, () => socket.end(request))
      let received = ""
      socket.on("data", (chunk) => (received += chunk))
      socket.on("error", reject)
      socket.on("close", () => {
        const [head = "", body = ""] = received.split("\r\n\r\n")
        resolve(`${head.split("\r\n")[0]} ${(JSON.parse(body) as { error: { code: string } }).error.code}`)
      })
    })
  )

const ownAdapters = Effect.gen(function*() {
  const world = layerSimulator(decodeScenario({ seed: 3, clock: { mode: "manual" }, historyDays: 1 }))
  const server = createServer()
  const app = serve(Layer.merge(routes, ClientErrors(server)).pipe(Layer.provide(world)))
  const baseUrl = yield* listen(app.pipe(Layer.provide(NodeServerPlatform)), server)
  const anonymous = yield* makeClient({ baseUrl })
  const market = yield* anonymous.market.marketData({ query: { token: "SOL" } })
  const stranger = yield* makeClient({ baseUrl, apiKey: `sd_live_${"x".repeat(40)}` })
  const refused = yield* stranger.trades.list({ query: {} }).pipe(
    Effect.map(() => "listed"),
    Effect.catchTag("Unauthorized", (error) => Effect.succeed(`${error._tag} ${error.error.code}`))
  )
  const control = yield* Effect.promise(() => fetch(`${baseUrl}/v1/sim/clock`))
  const malformed = yield* rawCall(baseUrl, "GET /v1/health HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n")
  return { price: market.data.price, refused, simRoutes: control.status, malformed }
})

const program = Effect.gen(function*() {
  return { node: process.versions.node, standalone: yield* standalone, ownAdapters: yield* ownAdapters }
}).pipe(Effect.scoped, Effect.provide(FetchHttpClient.layer))

console.log(JSON.stringify(await Effect.runPromise(program)))
