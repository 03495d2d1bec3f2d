// Proves that the simulator's price and whale routes keep market data readable: a price outside 1e-12 to 1e12 USD
// or a whale over 1e12 USD is 400 VALIDATION_ERROR, and after prices swing between the bounds and whales far larger
// than a pool, every figure of market data (basic and extended, in any currency), chart and trending is a finite
// number. One real server on its own scenario, since the swings would disturb other suites.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, keys, testServer } from "./harness.ts"

/** Every number in a JSON value; `null` counts as one that is not finite (JSON's spelling of Infinity and NaN). */
const numbers = (value: unknown): Array<number> =>
  value === null
    ? [Number.NaN]
    : typeof value === "number"
    ? [value]
    : typeof value === "object"
    ? Object.values(value as object).flatMap(numbers)
    : []

const setPrice = (token: string, price: number) => call("PUT", `/v1/sim/prices/${token}`, { body: { price } })
const whale = (valueUsd: number) =>
  call("POST", "/v1/sim/whales", { body: { token: "BONK", network: "solana", valueUsd } })

layer(testServer(), { excludeTestServices: true })("simulator prices", (it) => {
  it.effect("a price outside 1e-12 to 1e12 USD, or a whale over 1e12 USD, is 400 VALIDATION_ERROR", () =>
    Effect.gen(function*() {
      for (const price of [1e300, 1e-300, 1.5e12, 9e-13, 0, -1]) {
        const reply = yield* setPrice("USDT", price)
        assert.strictEqual(reply.status, 400, `${price}: ${JSON.stringify(reply.body)}`)
        assert.strictEqual(reply.body.error.code, "VALIDATION_ERROR")
        assert.strictEqual(reply.body.error.details[0].path, "price")
      }
      const huge = yield* whale(1e13)
      assert.strictEqual(huge.status, 400)
      assert.strictEqual(huge.body.error.details[0].path, "valueUsd")
    }))

  it.effect("after swings between the bounds and whales beyond the pool, every market figure is a finite number", () =>
    Effect.gen(function*() {
      for (let round = 0; round < 5; round++) {
        assert.strictEqual((yield* setPrice("USDT", 1e12)).status, 200)
        assert.strictEqual((yield* setPrice("USDT", 1e-12)).status, 200)
        assert.strictEqual((yield* whale(1e12)).status, 200)
      }
      const reads = [
        "/v1/market-data?token=USDT",
        "/v1/market-data?token=USDT&currency=JPY",
        "/v1/market-data?token=BONK&network=solana",
        "/v1/market-data/chart?token=USDT&timeframe=1m&from=2026-01-01T00:00:00Z&to=2026-01-01T00:10:00Z",
        "/v1/market-data/chart?token=BONK&timeframe=1h&currency=AUD",
        "/v1/market-data/trending?limit=50"
      ]
      for (const path of reads) {
        const reply = yield* call("GET", path, { key: keys.aliceRead })
        assert.strictEqual(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`)
        const found = numbers(reply.body.data)
        assert.isAbove(found.length, 0, path)
        assert.isTrue(found.every(Number.isFinite), `${path}: ${JSON.stringify(reply.body.data)}`)
      }
    }))
})
