// Proves the market-data routes end to end through a real server: the record's field set (basic for
// anyone, extended with a `read` key), currencies, the body written as plain JSON, figures that hold
// still between ticks and move with the clock; the chart's candles and its range errors; the trending
// ranking and its limit; and the errors each route answers.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { advance, call, keys, testServer } from "./harness.ts"

const basicFields = ["change24h", "currency", "marketCap", "price", "token", "volume24h"]
const extendedFields = ["buyVolume24h", "holders", "sellVolume24h", "volumeByNetwork", "whaleActivity"]

const iso = (ms: number) => new Date(ms).toISOString()

layer(testServer(), { excludeTestServices: true })("market data", (it) => {
  it.effect("anyone gets the basic record; a read key adds the extended fields", () =>
    Effect.gen(function*() {
      const anonymous = yield* call("GET", "/v1/market-data?token=SOL")
      assert.strictEqual(anonymous.status, 200)
      assert.deepStrictEqual(Object.keys(anonymous.body.data).sort(), basicFields)
      assert.strictEqual(anonymous.body.data.token, "SOL")
      assert.strictEqual(anonymous.body.data.currency, "USD")
      assert.isAbove(anonymous.body.data.price, 0)

      const read = yield* call("GET", "/v1/market-data?token=SOL", { key: keys.aliceRead })
      assert.deepStrictEqual(Object.keys(read.body.data).sort(), [...basicFields, "extended"].sort())
      assert.deepStrictEqual(Object.keys(read.body.data.extended).sort(), extendedFields)
      assert.deepStrictEqual(Object.keys(read.body.data.extended.holders).sort(), ["count", "top10Percent"])
      assert.deepStrictEqual(Object.keys(read.body.data.extended.whaleActivity).sort(), [
        "netFlow24h",
        "transactions24h"
      ])
      assert.strictEqual(read.body.data.price, anonymous.body.data.price)

      // A valid key without `read` gets the basic record.
      const trade = yield* call("GET", "/v1/market-data?token=SOL", { key: keys.aliceTrade })
      assert.deepStrictEqual(Object.keys(trade.body.data).sort(), basicFields)
    }))

  it.effect("the body is the envelope as JSON.stringify writes it", () =>
    Effect.gen(function*() {
      for (const key of [undefined, keys.aliceRead]) {
        const reply = yield* call("GET", "/v1/market-data?token=ETH", key === undefined ? {} : { key })
        assert.strictEqual(reply.headers["content-type"], "application/json")
        assert.strictEqual(reply.text, JSON.stringify(reply.body))
        assert.deepStrictEqual(Object.keys(reply.body), ["success", "data", "timestamp"])
      }
    }))

  it.effect("figures hold still while the clock does, and the record follows the clock when it moves", () =>
    Effect.gen(function*() {
      const first = yield* call("GET", "/v1/market-data?token=BONK")
      const again = yield* call("GET", "/v1/market-data?token=BONK")
      assert.deepStrictEqual(again.body, first.body)
      yield* advance(3_600_000)
      const later = yield* call("GET", "/v1/market-data?token=BONK")
      assert.strictEqual(later.body.timestamp, new Date(Date.parse(first.body.timestamp) + 3_600_000).toISOString())
      assert.notStrictEqual(later.body.data.price, first.body.data.price)
    }))

  it.effect("another currency converts every monetary figure at one rate, and leaves the change alone", () =>
    Effect.gen(function*() {
      const usd = (yield* call("GET", "/v1/market-data?token=SOL")).body.data
      const eur = (yield* call("GET", "/v1/market-data?token=SOL&currency=EUR")).body.data
      assert.strictEqual(eur.currency, "EUR")
      assert.strictEqual(eur.change24h, usd.change24h)
      const rate = eur.price / usd.price
      assert.isTrue(rate > 0 && rate !== 1)
      assert.closeTo(eur.marketCap / usd.marketCap, rate, rate * 1e-9)
      assert.closeTo(eur.volume24h / usd.volume24h, rate, rate * 1e-9)
    }))

  it.effect("an unknown token is 400 INVALID_TOKEN; a missing token or a currency outside the list is VALIDATION_ERROR", () =>
    Effect.gen(function*() {
      const unknown = yield* call("GET", "/v1/market-data?token=NOPE")
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(unknown.body.error.code, "INVALID_TOKEN")
      const missing = yield* call("GET", "/v1/market-data")
      assert.strictEqual(missing.status, 400)
      assert.strictEqual(missing.body.error.code, "VALIDATION_ERROR")
      const currency = yield* call("GET", "/v1/market-data?token=SOL&currency=XYZ")
      assert.strictEqual(currency.status, 400)
      assert.strictEqual(currency.body.error.code, "VALIDATION_ERROR")
      assert.include(JSON.stringify(currency.body.error.details), "currency")
      const network = yield* call("GET", "/v1/market-data?token=SOL&network=bitcoin")
      assert.strictEqual(network.body.error.code, "VALIDATION_ERROR")
    }))

  it.effect("the chart answers aligned candles, oldest first, in [from, to)", () =>
    Effect.gen(function*() {
      const reply = yield* call(
        "GET",
        "/v1/market-data/chart?token=SOL&timeframe=1h&from=2025-12-31T00:00:00Z&to=2025-12-31T06:00:00Z",
        { key: keys.aliceRead }
      )
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(Object.keys(reply.body.data).sort(), ["candles", "currency", "timeframe", "token"])
      const candles = reply.body.data.candles as Array<Record<string, unknown>>
      assert.deepStrictEqual(
        candles.map((c) => c.timestamp),
        [0, 1, 2, 3, 4, 5].map((h) => `2025-12-31T0${h}:00:00.000Z`)
      )
      for (const candle of candles) {
        assert.deepStrictEqual(Object.keys(candle).sort(), ["close", "high", "low", "open", "timestamp", "volume"])
        const { high, low, open, close } = candle as Record<string, number>
        assert.isTrue(low! <= Math.min(open!, close!) && high! >= Math.max(open!, close!))
      }
    }))

  it.effect("chart errors: no key 401, no read scope 403, from after to VALIDATION_ERROR, over 1500 candles RANGE_TOO_LARGE", () =>
    Effect.gen(function*() {
      const path = "/v1/market-data/chart?token=SOL&timeframe=1m"
      assert.strictEqual((yield* call("GET", path)).status, 401)
      const forbidden = yield* call("GET", path, { key: keys.aliceTrade })
      assert.strictEqual(forbidden.status, 403)
      const reversed = yield* call("GET", `${path}&from=2025-12-31T02:00:00Z&to=2025-12-31T01:00:00Z`, {
        key: keys.aliceRead
      })
      assert.strictEqual(reversed.status, 400)
      assert.strictEqual(reversed.body.error.code, "VALIDATION_ERROR")
      const wide = yield* call("GET", `${path}&from=2025-12-30T00:00:00Z&to=2025-12-31T02:00:00Z`, {
        key: keys.aliceRead
      })
      assert.strictEqual(wide.status, 400)
      assert.strictEqual(wide.body.error.code, "RANGE_TOO_LARGE")
      const timeframe = yield* call("GET", "/v1/market-data/chart?token=SOL&timeframe=2h", { key: keys.aliceRead })
      assert.strictEqual(timeframe.body.error.code, "VALIDATION_ERROR")
    }))

  it.effect("1m, 5m and 15m charts reaching before the last 30 days are VALIDATION_ERROR naming the window; 1h and longer are not", () =>
    Effect.gen(function*() {
      const now = Date.parse((yield* call("GET", "/v1/sim/clock")).body.data.now)
      const windowStart = now - 30 * 86_400_000
      for (const timeframe of ["1m", "5m", "15m"]) {
        const before = yield* call(
          "GET",
          `/v1/market-data/chart?token=SOL&timeframe=${timeframe}&from=${iso(windowStart - 1_000)}&to=${
            iso(windowStart + 3_600_000)
          }`,
          { key: keys.aliceRead }
        )
        assert.strictEqual(before.status, 400, timeframe)
        assert.strictEqual(before.body.error.code, "VALIDATION_ERROR")
        assert.deepStrictEqual(before.body.error.details, [{
          path: "from",
          message: `${timeframe} candles cover the last 30 days of market time, from ${
            iso(windowStart)
          }; use 1h, 4h or 1d candles for older history`
        }])
        // Without from, the day before an old `to` reaches before the window: named as `to`.
        const oldTo = yield* call(
          "GET",
          `/v1/market-data/chart?token=SOL&timeframe=${timeframe}&to=${iso(windowStart + 3_600_000)}`,
          { key: keys.aliceRead }
        )
        assert.strictEqual(oldTo.status, 400, timeframe)
        assert.strictEqual(oldTo.body.error.details[0].path, "to")
        const inside = yield* call(
          "GET",
          `/v1/market-data/chart?token=SOL&timeframe=${timeframe}&from=${iso(windowStart)}&to=${
            iso(windowStart + 3_600_000)
          }`,
          { key: keys.aliceRead }
        )
        assert.strictEqual(inside.status, 200, timeframe)
      }
      const hourly = yield* call(
        "GET",
        `/v1/market-data/chart?token=SOL&timeframe=1h&from=${iso(windowStart - 86_400_000)}&to=${iso(now)}`,
        { key: keys.aliceRead }
      )
      assert.strictEqual(hourly.status, 200)
    }))

  it.effect("trending ranks tokens from 1, honours limit and network, and refuses a limit over 50", () =>
    Effect.gen(function*() {
      const all = (yield* call("GET", "/v1/market-data/trending")).body.data
      assert.strictEqual(all.network, "all")
      assert.strictEqual(all.tokens.length, 10)
      assert.deepStrictEqual(all.tokens.map((t: { rank: number }) => t.rank), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      assert.deepStrictEqual(Object.keys(all.tokens[0]).sort(), [
        "change24h",
        "network",
        "price",
        "rank",
        "token",
        "volume24h"
      ])
      const solana = (yield* call("GET", "/v1/market-data/trending?network=solana&limit=3")).body.data
      assert.strictEqual(solana.network, "solana")
      assert.isAtMost(solana.tokens.length, 3)
      for (const token of solana.tokens) assert.strictEqual(token.network, "solana")
      const over = yield* call("GET", "/v1/market-data/trending?limit=51")
      assert.strictEqual(over.status, 400)
      assert.strictEqual(over.body.error.code, "VALIDATION_ERROR")
    }))
})
