// Proves the portfolio end to end through a real server on the simulator: every field of the view, opening balances
// costed at the price of the start, the numbers' identities (each holding's value is exactly its cost basis plus its
// unrealised PnL, totals are the sums, allocations add up), unrealised PnL following a price move, a confirmed trade
// moving the holdings by exactly its amounts and gas and realising PnL on what it sold, the network filter, the
// performance series (opening point, ascending aligned points, the last point being the current value, values that
// replay what was held then), the range parameter's values, and the scope.
import { assert, layer } from "@effect/vitest"
import { MoneyDecimal } from "@swapdesk/core"
import { Effect } from "effect"
import { advance, call, keys, testServer } from "./harness.ts"

interface Holding {
  token: string
  network: string
  amount: string
  price: number
  value: number
  costBasis: number
  averageCost: number
  unrealizedPnl: number
  unrealizedPnlPercent: number
  allocationPercent: number
}

const get = (query = "") => call("GET", `/v1/portfolio${query}`, { key: keys.aliceRead })
const holdingOf = (data: { holdings: Array<Holding> }, token: string, network = "solana") =>
  data.holdings.find((h) => h.token === token && h.network === network)!
const dec = (n: number | string) => new MoneyDecimal(n)
/** Base units of a decimal string with `decimals` places, exactly. */
const units = (text: string, decimals: number): bigint => {
  const [whole, fraction = ""] = text.split(".")
  return BigInt(whole! + fraction.padEnd(decimals, "0"))
}

const checkIdentities = (data: any) => {
  for (const h of data.holdings as Array<Holding>) {
    assert.isTrue(dec(h.costBasis).plus(h.unrealizedPnl).eq(h.value), `${h.token}: value = costBasis + unrealizedPnl`)
  }
  const sum = (f: (h: Holding) => number) =>
    (data.holdings as Array<Holding>).reduce((acc, h) => acc.plus(f(h)), dec(0))
  assert.isTrue(sum((h) => h.value).eq(data.totalValue), "totalValue is the sum of the values")
  assert.isTrue(sum((h) => h.costBasis).eq(data.totalCostBasis), "totalCostBasis is the sum of the bases")
  assert.isTrue(dec(data.totalCostBasis).plus(data.unrealizedPnl).eq(data.totalValue))
  const walletSum = (data.wallets as Array<{ value: number }>).reduce((acc, w) => acc.plus(w.value), dec(0))
  assert.isTrue(walletSum.eq(data.totalValue), "the wallets' values add up to the total")
  if (data.holdings.length > 0) assert.closeTo(sum((h) => h.allocationPercent).toNumber(), 100, 0.01)
}

layer(testServer(), { excludeTestServices: true })("portfolio", (it) => {
  it.effect("every field; opening balances cost the price at the start", () =>
    Effect.gen(function*() {
      const startPrice = (yield* call("GET", "/v1/market-data?token=SOL")).body.data.price as number
      const reply = yield* get()
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      const data = reply.body.data
      assert.deepStrictEqual(Object.keys(data).sort(), [
        "change24h",
        "currency",
        "holdings",
        "performance",
        "realizedPnl",
        "totalCostBasis",
        "totalValue",
        "unrealizedPnl",
        "unrealizedPnlPercent",
        "updatedAt",
        "wallets"
      ])
      assert.strictEqual(data.currency, "USD")
      assert.strictEqual(data.updatedAt, "2026-01-01T00:00:00.000Z")
      assert.deepStrictEqual(
        data.wallets.map((w: { network: string; address: string }) => [w.network, w.address]),
        [["solana", "AliceSolanaWallet1111111111111111111111111"], [
          "ethereum",
          "0x1111111111111111111111111111111111111111"
        ]]
      )
      const sol = holdingOf(data, "SOL")
      assert.deepStrictEqual(Object.keys(sol).sort(), [
        "allocationPercent",
        "amount",
        "averageCost",
        "costBasis",
        "network",
        "price",
        "token",
        "unrealizedPnl",
        "unrealizedPnlPercent",
        "value"
      ])
      assert.strictEqual(sol.amount, "10")
      assert.strictEqual(sol.price, startPrice)
      assert.closeTo(sol.averageCost, startPrice, startPrice * 1e-9, "the start's price is the basis")
      assert.strictEqual(sol.unrealizedPnl, 0)
      assert.strictEqual(data.realizedPnl, 0)
      assert.strictEqual(data.change24h, 0, "nothing moved since the wallets were connected")
      assert.strictEqual(holdingOf(data, "ETH", "ethereum").amount, "2")
      assert.deepStrictEqual(data.performance, {
        range: "7d",
        points: [{ timestamp: "2026-01-01T00:00:00.000Z", value: data.totalValue }]
      })
      checkIdentities(data)
    }))

  it.effect("a price move is unrealised PnL on exactly the amount held", () =>
    Effect.gen(function*() {
      const before = holdingOf((yield* get()).body.data, "SOL")
      yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: before.price * 1.1 } })
      const data = (yield* get()).body.data
      const sol = holdingOf(data, "SOL")
      assert.strictEqual(sol.costBasis, before.costBasis, "the basis does not move with the price")
      assert.closeTo(sol.unrealizedPnl, before.value * 0.1, 0.02)
      assert.closeTo(sol.unrealizedPnlPercent, 10, 0.01)
      assert.isAbove(data.change24h, 0)
      checkIdentities(data)
    }))

  it.effect("a confirmed trade moves the holdings by exactly its amounts and gas and realises PnL", () =>
    Effect.gen(function*() {
      const before = (yield* get()).body.data
      const created = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana" }
      })
      assert.strictEqual(created.status, 201)
      const during = (yield* get()).body.data
      assert.strictEqual(holdingOf(during, "SOL").amount, holdingOf(before, "SOL").amount, "reserved is still held")
      yield* advance(60_000)
      const trade = (yield* call("GET", `/v1/trades/${created.body.data.id}`, { key: keys.aliceRead })).body.data
      assert.strictEqual(trade.status, "confirmed")
      const after = (yield* get()).body.data
      assert.strictEqual(
        units(holdingOf(before, "SOL").amount, 9) - units(holdingOf(after, "SOL").amount, 9),
        units(trade.amountIn, 9) + units(trade.gasFee, 9)
      )
      assert.strictEqual(
        units(holdingOf(after, "USDC").amount, 6) - units(holdingOf(before, "USDC").amount, 6),
        units(trade.amountOut, 6)
      )
      // SOL sold 10% above its basis: about 2 × 10% of the start price realised.
      const solBasis = holdingOf(before, "SOL").averageCost
      assert.closeTo(after.realizedPnl, 2 * solBasis * 0.1, solBasis * 0.01)
      // What was sold leaves the SOL basis at its average cost; the USDC basis gains its market value.
      assert.closeTo(holdingOf(after, "SOL").averageCost, solBasis, solBasis * 1e-6)
      assert.isAbove(holdingOf(after, "USDC").costBasis, holdingOf(before, "USDC").costBasis + 2 * solBasis)
      checkIdentities(after)
    }))

  it.effect("the performance series replays history at that time's prices, point by aligned point", () =>
    Effect.gen(function*() {
      yield* advance(3 * 3_600_000)
      const data = (yield* get("?range=24h")).body.data
      const points = data.performance.points as Array<{ timestamp: string; value: number }>
      assert.strictEqual(data.performance.range, "24h")
      assert.strictEqual(points[0]!.timestamp, "2026-01-01T00:00:00.000Z", "from the wallets' connection")
      const times = points.map((p) => Date.parse(p.timestamp))
      assert.deepStrictEqual(times, [...times].sort((a, b) => a - b))
      for (const at of times.slice(1, -1)) assert.strictEqual(at % (15 * 60_000), 0, "15-minute points over 24 h")
      assert.strictEqual(points.length, 2 + Math.floor((times.at(-1)! - 1 - times[0]!) / (15 * 60_000)))
      assert.strictEqual(points.at(-1)!.value, data.totalValue)
      const first = (yield* get("?range=24h")).body.data.performance.points[0].value
      const opening = (yield* call("GET", "/v1/portfolio?range=all", { key: keys.aliceRead })).body.data
      assert.strictEqual(opening.performance.points[0].value, first, "the same history whatever the range")
      assert.strictEqual(opening.performance.range, "all")
      const week = (yield* get("?range=7d")).body.data.performance.points as Array<{ timestamp: string }>
      for (const p of week.slice(1, -1)) assert.strictEqual(Date.parse(p.timestamp) % 3_600_000, 0, "hourly over 7 d")
      const month = (yield* get("?range=30d")).body.data.performance
      assert.strictEqual(month.range, "30d")
    }))

  it.effect("the network filter keeps one network's wallets and holdings", () =>
    Effect.gen(function*() {
      const data = (yield* get("?network=ethereum")).body.data
      assert.deepStrictEqual(data.wallets.map((w: { network: string }) => w.network), ["ethereum"])
      assert.isTrue(data.holdings.every((h: Holding) => h.network === "ethereum"))
      assert.sameMembers(data.holdings.map((h: Holding) => h.token), ["ETH", "USDC"])
      assert.strictEqual(data.realizedPnl, 0, "the solana trade is not on this network")
      checkIdentities(data)
    }))

  it.effect("range and network are validated, and the scope is read", () =>
    Effect.gen(function*() {
      const bad = yield* get("?range=1y&network=bitcoin")
      assert.strictEqual(bad.status, 400)
      assert.sameMembers(bad.body.error.details.map((d: { path: string }) => d.path), ["range", "network"])
      const tradeOnly = yield* call("GET", "/v1/portfolio", { key: keys.aliceTrade })
      assert.strictEqual(tradeOnly.status, 403)
      assert.strictEqual(tradeOnly.body.error.code, "INSUFFICIENT_SCOPE")
      assert.strictEqual((yield* call("GET", "/v1/portfolio")).status, 401)
      const bob = (yield* call("GET", "/v1/portfolio", { key: keys.bobAll })).body.data
      assert.deepStrictEqual(bob.wallets.map((w: { network: string }) => w.network), ["solana"])
    }))
})
