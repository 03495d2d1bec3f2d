// Proves a typed client's failures can be matched by tag and carry the error envelope, against a
// real server: each kind of refusal (404, 401, 403, and a 400 only the server detects) reaches
// `Effect.catchTag` under its class name with the code, message and details the body had, and the
// body on the wire is the envelope alone, with no `_tag` added.
import { assert, layer } from "@effect/vitest"
import { makeSimulatorClient } from "@swapdesk/server"
import { Effect } from "effect"
import { call, keys, testServer } from "./harness.ts"

const clientFor = (apiKey: string) => makeSimulatorClient({ baseUrl: "", apiKey })

layer(testServer(), { excludeTestServices: true })("typed client errors", (it) => {
  it.effect("NotFound: a missing trade, matched by catchTag with the envelope's fields", () =>
    Effect.gen(function*() {
      const client = yield* clientFor(keys.aliceAll)
      const caught = yield* client.trades.get({ params: { id: "trd_missing" } }).pipe(
        Effect.flatMap(() => Effect.die("a missing trade was found")),
        Effect.catchTag("NotFound", (error) => Effect.succeed(error))
      )
      const raw = yield* call("GET", "/v1/trades/trd_missing", { key: keys.aliceAll })
      assert.strictEqual(caught._tag, "NotFound")
      assert.strictEqual(caught.error.code, "TRADE_NOT_FOUND")
      assert.deepStrictEqual(
        { success: caught.success, error: caught.error, timestamp: caught.timestamp },
        raw.body
      )
      assert.deepStrictEqual(Object.keys(raw.body), ["success", "error", "timestamp"])
      assert.notInclude(raw.text, "_tag")
    }))

  it.effect("Unauthorized and Forbidden: an unknown key and a missing scope", () =>
    Effect.gen(function*() {
      const stranger = yield* clientFor(keys.unknown)
      const unauthorized = yield* stranger.trades.list({ query: {} }).pipe(
        Effect.flatMap(() => Effect.die("an unknown key was accepted")),
        Effect.catchTag("Unauthorized", (error) => Effect.succeed(error.error.code))
      )
      assert.strictEqual(unauthorized, "UNAUTHORIZED")
      const reader = yield* clientFor(keys.aliceRead)
      const forbidden = yield* reader.alerts.list({ query: {} }).pipe(
        Effect.flatMap(() => Effect.die("a read key listed alerts")),
        Effect.catchTag("Forbidden", (error) => Effect.succeed(error.error.code))
      )
      assert.strictEqual(forbidden, "INSUFFICIENT_SCOPE")
    }))

  it.effect("BadRequest: a rule only the server checks, with its details", () =>
    Effect.gen(function*() {
      const client = yield* clientFor(keys.aliceAll)
      const caught = yield* client.trades.create({
        headers: {},
        payload: { tokenIn: "SOL", tokenOut: "SOL", amountIn: "1", network: "solana" }
      }).pipe(
        Effect.flatMap(() => Effect.die("a swap of SOL for SOL was accepted")),
        Effect.catchTag("BadRequest", (error) => Effect.succeed(error))
      )
      const raw = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { tokenIn: "SOL", tokenOut: "SOL", amountIn: "1", network: "solana" }
      })
      assert.strictEqual(raw.status, 400)
      assert.deepStrictEqual(caught.error, raw.body.error)
      assert.strictEqual(caught.error.code, "VALIDATION_ERROR")
      assert.deepStrictEqual(caught.error.details, [{ path: "tokenOut", message: "must differ from tokenIn" }])
    }))
})
