// Proves limit orders end to end through a real server on the simulator: the view field by field (limitPrice, signer,
// signature verified here by node:crypto's ed25519 and by ethers' EIP-712 recovery, independently of the server), the
// reservation (the same funds never back an order and a trade), a price move filling an order through a normal trade
// carrying orderId and the funds arriving, a fill refused below minAmountOut, cancellation (200, funds back, then 409),
// expiry in market time, Idempotency-Key, list filters and pagination, another account's order being invisible, the
// order.* domain events with the order view, and the scope and validation errors.
import { assert, layer } from "@effect/vitest"
import { base58 } from "@scure/base"
import { orderTypedData, simulatorCatalog, solanaOrderMessage } from "@swapdesk/core"
import { Effect } from "effect"
import { verifyTypedData } from "ethers"
import { createPublicKey, verify } from "node:crypto"
import { advance, call, keys, testServer } from "./harness.ts"

const place = (body: unknown, headers?: Record<string, string>) =>
  call("POST", "/v1/orders", { key: keys.aliceAll, body, ...(headers === undefined ? {} : { headers }) })
const read = (id: string) => call("GET", `/v1/orders/${id}`, { key: keys.aliceRead })
const setPrice = (token: string, price: number) => call("PUT", `/v1/sim/prices/${token}`, { body: { price } })
const holding = (reply: { body: any }, token: string, network: string) =>
  (reply.body.data.holdings as Array<{ token: string; network: string; amount: string }>)
    .find((h) => h.token === token && h.network === network)?.amount
const portfolio = () => call("GET", "/v1/portfolio?range=24h", { key: keys.aliceRead })
const events = () => call("GET", "/v1/sim/events?limit=10000")

const ed25519Key = (raw: Uint8Array) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(raw)]),
    format: "der",
    type: "spki"
  })

layer(testServer(), { excludeTestServices: true })("limit orders", (it) => {
  it.effect("placing answers 201 with the order, signed by the wallet's key (verified by node:crypto)", () =>
    Effect.gen(function*() {
      const reply = yield* place({
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "1.5",
        minAmountOut: "1000",
        network: "solana",
        expiresAt: "2026-01-08T00:00:00.250Z"
      })
      assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
      const order = reply.body.data
      assert.deepStrictEqual(Object.keys(order).sort(), [
        "amountIn",
        "closedAt",
        "createdAt",
        "expiresAt",
        "id",
        "limitPrice",
        "minAmountOut",
        "network",
        "signature",
        "signer",
        "status",
        "tokenIn",
        "tokenOut",
        "tradeId",
        "walletAddress"
      ])
      assert.match(order.id, /^ord_[0-9A-Za-z]+$/)
      assert.strictEqual(order.status, "pending")
      assert.strictEqual(order.limitPrice, "666.6666666", "rounded down to 10 significant digits")
      assert.strictEqual(order.expiresAt, "2026-01-08T00:00:00.000Z", "rounded down to the signed second")
      assert.strictEqual(order.walletAddress, "AliceSolanaWallet1111111111111111111111111")
      assert.notStrictEqual(order.signer, order.walletAddress, "a given address signs with its delegated key")
      assert.isNull(order.tradeId)
      assert.isNull(order.closedAt)
      const message = solanaOrderMessage(
        {
          id: order.id,
          network: "solana",
          tokenIn: "SOL",
          tokenOut: "USDC",
          amountIn: 1_500_000_000n,
          minAmountOut: 1_000_000_000n,
          expiresAt: Date.parse(order.expiresAt)
        },
        order.signer,
        simulatorCatalog
      )
      assert.isTrue(
        verify(
          null,
          Buffer.from(message, "utf8"),
          ed25519Key(base58.decode(order.signer)),
          base58.decode(order.signature)
        )
      )
      assert.deepStrictEqual((yield* read(order.id)).body.data, order)
    }))

  it.effect("an EVM order's signature recovers its signer through ethers' EIP-712", () =>
    Effect.gen(function*() {
      const reply = yield* place({
        tokenIn: "USDC",
        tokenOut: "ETH",
        amountIn: "100",
        minAmountOut: "1",
        network: "ethereum"
      })
      assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
      const order = reply.body.data
      const typed = orderTypedData(
        {
          id: order.id,
          network: "ethereum",
          tokenIn: "USDC",
          tokenOut: "ETH",
          amountIn: 100_000_000n,
          minAmountOut: 10n ** 18n,
          expiresAt: null
        },
        order.signer,
        simulatorCatalog
      )
      const types = { Order: typed.types.Order.map((field) => ({ ...field })) }
      assert.strictEqual(verifyTypedData(typed.domain, types, typed.message, order.signature), order.signer)
      assert.strictEqual((yield* call("DELETE", `/v1/orders/${order.id}`, { key: keys.aliceAll })).status, 200)
    }))

  it.effect("amountIn is reserved: the same funds cannot back a trade too, and cancelling releases them", () =>
    Effect.gen(function*() {
      const before = holding(yield* portfolio(), "SOL", "solana")
      const order = (yield* place({
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "8",
        minAmountOut: "100000",
        network: "solana"
      })).body.data
      const trade = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana" }
      })
      assert.strictEqual(trade.status, 422)
      assert.strictEqual(trade.body.error.code, "INSUFFICIENT_BALANCE")
      const second = yield* place({
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "2",
        minAmountOut: "1",
        network: "solana"
      })
      assert.strictEqual(second.status, 422)
      assert.strictEqual(holding(yield* portfolio(), "SOL", "solana"), before, "reserved funds are still held")

      const cancelled = yield* call("DELETE", `/v1/orders/${order.id}`, { key: keys.aliceAll })
      assert.strictEqual(cancelled.status, 200)
      assert.strictEqual(cancelled.body.data.status, "cancelled")
      assert.isString(cancelled.body.data.closedAt)
      const again = yield* call("DELETE", `/v1/orders/${order.id}`, { key: keys.aliceAll })
      assert.strictEqual(again.status, 409)
      assert.strictEqual(again.body.error.code, "ORDER_NOT_CANCELLABLE")
      const log = (yield* events()).body.data.events as Array<{ type: string; data: Record<string, unknown> }>
      const cancelledEvent = log.find((e) => e.type === "order.cancelled" && e.data["id"] === order.id)
      assert.isDefined(cancelledEvent)
      assert.strictEqual(cancelledEvent!.data["status"], "cancelled")
      assert.strictEqual(cancelledEvent!.data["signature"], order.signature, "the order view as data")
      const freed = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana" }
      })
      assert.strictEqual(freed.status, 201)
      yield* advance(60_000)
    }))

  it.effect("a price move fills the order through a trade carrying orderId; the output arrives", () =>
    Effect.gen(function*() {
      yield* setPrice("SOL", 150)
      const usdcBefore = Number(holding(yield* portfolio(), "USDC", "solana"))
      const order = (yield* place({
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "1",
        minAmountOut: "200",
        network: "solana"
      })).body.data
      yield* advance(2_000)
      assert.strictEqual((yield* read(order.id)).body.data.status, "pending", "not below its limit")
      assert.isNull((yield* read(order.id)).body.data.tradeId)

      yield* setPrice("SOL", 250)
      const filling = (yield* read(order.id)).body.data
      assert.strictEqual(filling.status, "pending")
      assert.isString(filling.tradeId, "the fill started before the price move answered")
      const busy = yield* call("DELETE", `/v1/orders/${order.id}`, { key: keys.aliceAll })
      assert.strictEqual(busy.status, 409, "a fill in flight cannot be cancelled")

      yield* advance(60_000)
      const filled = (yield* read(order.id)).body.data
      assert.strictEqual(filled.status, "confirmed", JSON.stringify(filled))
      const trade = (yield* call("GET", `/v1/trades/${filled.tradeId}`, { key: keys.aliceRead })).body.data
      assert.strictEqual(trade.status, "confirmed")
      assert.strictEqual(trade.orderId, order.id)
      assert.strictEqual(trade.minAmountOut, "200")
      assert.isAtLeast(Number(trade.amountOut), 200, "never below minAmountOut")
      assert.strictEqual(filled.closedAt, trade.confirmedAt)
      const usdcAfter = Number(holding(yield* portfolio(), "USDC", "solana"))
      assert.closeTo(usdcAfter - usdcBefore, Number(trade.amountOut), 1e-6)
      const log = (yield* events()).body.data.events as Array<{ type: string; data: Record<string, unknown> }>
      const filledEvent = log.find((e) => e.type === "order.filled" && e.data["id"] === order.id)
      assert.strictEqual(filledEvent?.data["tradeId"], filled.tradeId)
      yield* setPrice("SOL", 150)
    }))

  it.effect("an order expires in market time and its funds come back", () =>
    Effect.gen(function*() {
      const now = Date.parse((yield* call("GET", "/v1/sim/clock")).body.data.now)
      const order = (yield* place({
        tokenIn: "USDC",
        tokenOut: "SOL",
        amountIn: "10",
        minAmountOut: "1000",
        network: "solana",
        expiresAt: new Date(now + 30_000).toISOString()
      })).body.data
      yield* advance(29_000)
      assert.strictEqual((yield* read(order.id)).body.data.status, "pending")
      yield* advance(1_000)
      const expired = (yield* read(order.id)).body.data
      assert.strictEqual(expired.status, "expired")
      assert.strictEqual(expired.closedAt, new Date(now + 30_000).toISOString())
      const log = (yield* events()).body.data.events as Array<{ type: string; data: Record<string, unknown> }>
      assert.isDefined(log.find((e) => e.type === "order.expired" && e.data["id"] === order.id))
      const past = yield* place({
        tokenIn: "USDC",
        tokenOut: "SOL",
        amountIn: "1",
        minAmountOut: "1",
        network: "solana",
        expiresAt: new Date(now).toISOString()
      })
      assert.strictEqual(past.status, 400)
      assert.deepStrictEqual(past.body.error.details.map((d: { path: string }) => d.path), ["expiresAt"])
    }))

  it.effect("Idempotency-Key: a repeat returns the first order and reserves nothing more; another body conflicts", () =>
    Effect.gen(function*() {
      const body = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "5", minAmountOut: "1000", network: "solana" }
      const headers = { "idempotency-key": "order-once-1" }
      const first = yield* place(body, headers)
      const second = yield* place(body, headers)
      assert.strictEqual(second.status, 201)
      assert.strictEqual(second.headers["idempotent-replayed"], "true")
      assert.deepStrictEqual(second.body.data, first.body.data)
      const listed = yield* call("GET", "/v1/orders?status=pending&limit=100", { key: keys.aliceRead })
      assert.strictEqual(
        listed.body.data.orders.filter((o: { amountIn: string; tokenIn: string }) =>
          o.tokenIn === "USDC" && o.amountIn === "5"
        ).length,
        1
      )
      const conflict = yield* place({ ...body, amountIn: "6" }, headers)
      assert.strictEqual(conflict.status, 409)
      assert.strictEqual(conflict.body.error.code, "IDEMPOTENCY_CONFLICT")
    }))

  it.effect("the list filters by status, token and network and pages newest first", () =>
    Effect.gen(function*() {
      const all = (yield* call("GET", "/v1/orders?limit=100", { key: keys.aliceRead })).body.data
      assert.deepStrictEqual(Object.keys(all).sort(), ["limit", "offset", "orders", "total"])
      assert.strictEqual(all.total, all.orders.length)
      const times = all.orders.map((o: { createdAt: string }) => Date.parse(o.createdAt))
      assert.deepStrictEqual(times, [...times].sort((a, b) => b - a))
      const page = (yield* call("GET", "/v1/orders?limit=2&offset=1", { key: keys.aliceRead })).body.data
      assert.deepStrictEqual(
        page.orders.map((o: { id: string }) => o.id),
        all.orders.slice(1, 3).map((o: { id: string }) => o.id)
      )
      assert.strictEqual(page.limit, 2)
      assert.strictEqual(page.offset, 1)
      const cancelled = (yield* call("GET", "/v1/orders?status=cancelled", { key: keys.aliceRead })).body.data
      assert.isAbove(cancelled.total, 0)
      assert.isTrue(cancelled.orders.every((o: { status: string }) => o.status === "cancelled"))
      const eth = (yield* call("GET", "/v1/orders?network=ethereum", { key: keys.aliceRead })).body.data
      assert.isTrue(eth.orders.every((o: { network: string }) => o.network === "ethereum"))
      assert.strictEqual(eth.total, 1)
      const byToken = (yield* call("GET", "/v1/orders?token=eth", { key: keys.aliceRead })).body.data
      assert.strictEqual(byToken.total, 1)
      const bad = yield* call("GET", "/v1/orders?limit=101&status=open", { key: keys.aliceRead })
      assert.strictEqual(bad.status, 400)
      assert.sameMembers(bad.body.error.details.map((d: { path: string }) => d.path), ["limit", "status"])
      const unknownToken = yield* call("GET", "/v1/orders?token=NOPE", { key: keys.aliceRead })
      assert.strictEqual(unknownToken.body.error.code, "INVALID_TOKEN")
    }))

  it.effect("another account's order is not found, and cannot be cancelled", () =>
    Effect.gen(function*() {
      const bob = (yield* call("POST", "/v1/orders", {
        key: keys.bobAll,
        body: { tokenIn: "USDC", tokenOut: "SOL", amountIn: "10", minAmountOut: "1000", network: "solana" }
      })).body.data
      const seen = yield* read(bob.id)
      assert.strictEqual(seen.status, 404)
      assert.strictEqual(seen.body.error.code, "ORDER_NOT_FOUND")
      const cancel = yield* call("DELETE", `/v1/orders/${bob.id}`, { key: keys.aliceAll })
      assert.strictEqual(cancel.status, 404)
      assert.strictEqual(cancel.body.error.code, "ORDER_NOT_FOUND")
    }))

  it.effect("scopes, wallets, balances and bodies are checked", () =>
    Effect.gen(function*() {
      const body = { tokenIn: "USDC", tokenOut: "SOL", amountIn: "1", minAmountOut: "1", network: "solana" }
      const readOnly = yield* call("POST", "/v1/orders", { key: keys.aliceRead, body })
      assert.strictEqual(readOnly.status, 403)
      const tradeOnly = yield* call("GET", "/v1/orders", { key: keys.aliceTrade })
      assert.strictEqual(tradeOnly.status, 403)
      const cancelReadOnly = yield* call("DELETE", "/v1/orders/ord_x", { key: keys.aliceRead })
      assert.strictEqual(cancelReadOnly.status, 403)
      assert.strictEqual((yield* call("GET", "/v1/orders")).status, 401)
      const noWallet = yield* place({ ...body, tokenOut: "ETH", network: "base" })
      assert.strictEqual(noWallet.status, 422)
      assert.strictEqual(noWallet.body.error.code, "WALLET_NOT_CONNECTED")
      const tooMuch = yield* place({ ...body, amountIn: "1000000" })
      assert.strictEqual(tooMuch.body.error.code, "INSUFFICIENT_BALANCE")
      const same = yield* place({ ...body, tokenOut: "USDC", amountIn: "0", minAmountOut: "1.0000001" })
      assert.strictEqual(same.status, 400)
      assert.sameMembers(same.body.error.details.map((d: { path: string }) => d.path), [
        "tokenOut",
        "amountIn",
        "minAmountOut"
      ])
      const unknown = yield* place({ ...body, price: 3 })
      assert.deepStrictEqual(unknown.body.error.details.map((d: { path: string }) => d.path), ["price"])
      const badToken = yield* place({ ...body, tokenIn: "ARB" })
      assert.strictEqual(badToken.body.error.code, "INVALID_TOKEN")
      const missing = yield* read("ord_missing")
      assert.strictEqual(missing.body.error.code, "ORDER_NOT_FOUND")
    }))
})
