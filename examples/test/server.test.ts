// Proves the composition example: the contract's routes served on ports the caller provides answer
// public market data, refuse keys they do not know, and do not expose the simulator's control routes.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { app } from "../server.ts"

const get = (path: string, key?: string) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const request = HttpClientRequest.get(path)
    const response = yield* client.execute(key === undefined ? request : HttpClientRequest.bearerToken(request, key))
    return { status: response.status, body: (yield* response.json) as any }
  })

layer(app.pipe(Layer.provideMerge(NodeHttpServer.layerTest)), { excludeTestServices: true })(
  "composed server",
  (it) => {
    it.effect("serves public market data from the provided ports", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/market-data?token=ETH&currency=EUR")
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.body.data.currency, "EUR")
        assert.isAbove(reply.body.data.price, 0)
      }))

    it.effect("knows no keys until the service stores some", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/trades", `sd_live_${"x".repeat(40)}`)
        assert.strictEqual(reply.status, 401)
      }))

    it.effect("has no simulator control routes", () =>
      Effect.gen(function*() {
        const reply = yield* get("/v1/sim/clock")
        assert.strictEqual(reply.status, 404)
        assert.strictEqual(reply.body.error.code, "NOT_FOUND")
      }))
  }
)
