// Proves trades and quotes end to end through a real server and the simulator's control routes:
// the field sets of each view, idempotent creation (also under concurrent duplicates), delegated
// signing to confirmation, approval and rejection, the approval timeout, slippage and network
// failures with exact refunds, that another account's trade is invisible, that a quote asks for the
// caller's wallet as a trade does, that a quote's rate is its estimated output per input rounded down to 10
// significant digits, and the list's date and token filters (from after to, a bare
// date as a whole day, a token on the given network, a contract address on its own).
import { assert, layer } from "@effect/vitest"
import { formatUnitRatio, parseAmount } from "@swapdesk/core"
import { Effect, Result } from "effect"
import { advance, call, keys, type Reply, testServer } from "./harness.ts"

const units = (text: string, decimals: number) => Result.getOrThrow(parseAmount(text, decimals))

const solSwap = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1.5", network: "solana" }
const ethSwap = { tokenIn: "USDC", tokenOut: "ETH", amountIn: "100", network: "ethereum" }

const balanceEvents = (events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>, tradeId: string) =>
  events.filter((e) => e.data["id"] === tradeId).map((e) => e.type)

const createTrade = (body: unknown) => call("POST", "/v1/trades", { key: keys.aliceAll, body })

/** Alice's trades under the filters of a query string, newest first (up to a hundred). */
const listTrades = (filters: string) => call("GET", `/v1/trades?limit=100&${filters}`, { key: keys.aliceRead })
const idsOf = (reply: Reply) => (reply.body.data.trades as Array<{ id: string }>).map((t) => t.id)

layer(testServer(), { excludeTestServices: true })("trades", (it) => {
  it.effect("creation answers 201 with exactly the creation fields, pending", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: solSwap })
      assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
      assert.deepStrictEqual(Object.keys(reply.body.data).sort(), [
        "amountIn",
        "estimatedAmountOut",
        "fee",
        "id",
        "network",
        "status",
        "tokenIn",
        "tokenOut"
      ])
      assert.strictEqual(reply.body.data.status, "pending")
      assert.strictEqual(reply.body.data.amountIn, "1.5")
      assert.match(reply.body.data.id, /^trd_[0-9A-Za-z]+$/)
      assert.match(reply.body.data.estimatedAmountOut, /^\d+(\.\d+)?$/)
    }))

  it.effect("a delegated trade is broadcast at once and confirms after the network's confirmations", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: solSwap })
      const id = created.body.data.id as string
      const pending = yield* call("GET", `/v1/trades/${id}`, { key: keys.aliceRead })
      assert.strictEqual(pending.body.data.status, "pending")
      assert.isString(pending.body.data.txHash)
      assert.isNull(pending.body.data.confirmedAt)
      assert.notProperty(pending.body.data, "amountOut")
      yield* advance(60_000)
      const done = yield* call("GET", `/v1/trades/${id}`, { key: keys.aliceRead })
      assert.strictEqual(done.body.data.status, "confirmed", JSON.stringify(done.body.data))
      // The view is rendered once per state of the trade; the response is still the envelope as JSON.
      assert.strictEqual(done.text, JSON.stringify(done.body))
      // The spec's Trade table plus the contract's extras; failureReason and orderId do not apply here.
      assert.deepStrictEqual(Object.keys(done.body.data).sort(), [
        "amountIn",
        "amountOut",
        "confirmedAt",
        "createdAt",
        "estimatedAmountOut",
        "fee",
        "gasFee",
        "id",
        "minAmountOut",
        "network",
        "slippage",
        "status",
        "submittedAt",
        "tokenIn",
        "tokenOut",
        "txHash",
        "walletAddress"
      ])
      const gross = BigInt(done.body.data.amountOut.replace(".", "").padEnd(0, "0"))
      assert.isTrue(gross > 0n)
      const list = yield* call("GET", "/v1/trades?status=confirmed", { key: keys.aliceRead })
      const item = (list.body.data.trades as Array<Record<string, unknown>>).find((t) => t["id"] === id)!
      assert.deepStrictEqual(Object.keys(item).sort(), [
        "amountIn",
        "amountOut",
        "confirmedAt",
        "createdAt",
        "fee",
        "id",
        "network",
        "status",
        "tokenIn",
        "tokenOut",
        "txHash"
      ])
    }))

  it.effect("a trade awaiting approval: approve broadcasts it; reject fails it WALLET_REJECTED", () =>
    Effect.gen(function*() {
      const first = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: ethSwap })
      const second = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: ethSwap })
      const approved = yield* call("POST", "/v1/sim/approvals", {
        body: { tradeId: first.body.data.id, approve: true }
      })
      assert.strictEqual(approved.status, 200, JSON.stringify(approved.body))
      assert.isString(approved.body.data.txHash)
      const rejected = yield* call("POST", "/v1/sim/approvals", {
        body: { tradeId: second.body.data.id, approve: false }
      })
      assert.strictEqual(rejected.body.data.status, "failed")
      assert.strictEqual(rejected.body.data.failureReason, "WALLET_REJECTED")
      const again = yield* call("POST", "/v1/sim/approvals", { body: { tradeId: second.body.data.id, approve: true } })
      assert.strictEqual(again.status, 409)
      assert.strictEqual(again.body.error.code, "TRADE_NOT_AWAITING_APPROVAL")
      const missing = yield* call("POST", "/v1/sim/approvals", { body: { tradeId: "trd_nope", approve: true } })
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(missing.body.error.code, "TRADE_NOT_FOUND")
      yield* advance(120_000)
      const confirmed = yield* call("GET", `/v1/trades/${first.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(confirmed.body.data.status, "confirmed")
    }))

  it.effect("an unapproved trade fails APPROVAL_TIMEOUT after 10 minutes and its funds come back", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: ethSwap })
      yield* advance(9 * 60_000)
      const waiting = yield* call("GET", `/v1/trades/${created.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(waiting.body.data.status, "pending")
      yield* advance(61_000)
      const timedOut = yield* call("GET", `/v1/trades/${created.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(timedOut.body.data.status, "failed")
      assert.strictEqual(timedOut.body.data.failureReason, "APPROVAL_TIMEOUT")
      const log = yield* call("GET", "/v1/sim/events")
      assert.include(balanceEvents(log.body.data.events, created.body.data.id), "trade.failed")
    }))

  it.effect("a price move beyond the tolerance before inclusion fails SLIPPAGE_EXCEEDED", () =>
    Effect.gen(function*() {
      const created = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { ...ethSwap, slippage: 0.1 }
      })
      const moved = yield* call("PUT", "/v1/sim/prices/ETH", { body: { price: 100_000 } })
      assert.strictEqual(moved.status, 200)
      yield* call("POST", "/v1/sim/approvals", { body: { tradeId: created.body.data.id, approve: true } })
      yield* advance(120_000)
      const failed = yield* call("GET", `/v1/trades/${created.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(failed.body.data.status, "failed")
      assert.strictEqual(failed.body.data.failureReason, "SLIPPAGE_EXCEEDED")
      assert.notProperty(failed.body.data, "amountOut")
    }))

  it.effect("an outage fails broadcast trades with NETWORK_ERROR", () =>
    Effect.gen(function*() {
      const fault = yield* call("POST", "/v1/sim/faults", {
        body: { network: "solana", kind: "outage", durationMs: 60_000 }
      })
      assert.strictEqual(fault.status, 200, JSON.stringify(fault.body))
      const created = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: { ...solSwap, amountIn: "0.1" } })
      yield* advance(60_000)
      const failed = yield* call("GET", `/v1/trades/${created.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(failed.body.data.status, "failed")
      assert.strictEqual(failed.body.data.failureReason, "NETWORK_ERROR")
    }))

  it.effect("the same Idempotency-Key and body replays the first response; another body conflicts", () =>
    Effect.gen(function*() {
      const headers = { "idempotency-key": "order-42" }
      const first = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: solSwap, headers })
      const repeat = yield* call("POST", "/v1/trades", { key: keys.aliceAll, body: { ...solSwap }, headers })
      assert.strictEqual(repeat.status, 201)
      assert.deepStrictEqual(repeat.body, first.body)
      const other = yield* call("POST", "/v1/trades", {
        key: keys.aliceAll,
        body: { ...solSwap, amountIn: "2" },
        headers
      })
      assert.strictEqual(other.status, 409)
      assert.strictEqual(other.body.error.code, "IDEMPOTENCY_CONFLICT")
    }))

  it.effect("concurrent duplicates with one Idempotency-Key create one trade", () =>
    Effect.gen(function*() {
      const headers = { "idempotency-key": "burst-1" }
      const before = yield* call("GET", "/v1/trades?limit=100", { key: keys.bobAll })
      const replies = yield* Effect.all(
        Array.from({ length: 8 }, () => call("POST", "/v1/trades", { key: keys.bobAll, body: solSwap, headers })),
        { concurrency: "unbounded" }
      )
      const created = new Set(replies.filter((r) => r.status === 201).map((r) => r.body.data.id))
      assert.strictEqual(created.size, 1)
      for (const reply of replies) assert.include([201, 409], reply.status)
      const after = yield* call("GET", "/v1/trades?limit=100", { key: keys.bobAll })
      assert.strictEqual(after.body.data.total, before.body.data.total + 1)
    }))

  it.effect("trade errors: unsupported token, same token, too many decimals, no wallet, no funds", () =>
    Effect.gen(function*() {
      const unknown = yield* createTrade({ ...solSwap, tokenOut: "NOPE" })
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(unknown.body.error.code, "INVALID_TOKEN")
      const notOnNetwork = yield* createTrade({ ...solSwap, tokenOut: "ARB" })
      assert.strictEqual(notOnNetwork.body.error.code, "INVALID_TOKEN")
      const same = yield* createTrade({ ...solSwap, tokenOut: "sol" })
      assert.strictEqual(same.body.error.code, "VALIDATION_ERROR")
      const decimals = yield* createTrade({ ...solSwap, tokenIn: "USDC", tokenOut: "SOL", amountIn: "1.0000001" })
      assert.strictEqual(decimals.body.error.code, "VALIDATION_ERROR")
      assert.strictEqual(decimals.body.error.details[0].path, "amountIn")
      const noWallet = yield* createTrade({ tokenIn: "ETH", tokenOut: "USDC", amountIn: "1", network: "base" })
      assert.strictEqual(noWallet.status, 422)
      assert.strictEqual(noWallet.body.error.code, "WALLET_NOT_CONNECTED")
      const poor = yield* createTrade({ ...solSwap, amountIn: "100000" })
      assert.strictEqual(poor.status, 422)
      assert.strictEqual(poor.body.error.code, "INSUFFICIENT_BALANCE")
    }))

  it.effect("another account's trade is 404 TRADE_NOT_FOUND, never revealed", () =>
    Effect.gen(function*() {
      const bobs = yield* call("POST", "/v1/trades", { key: keys.bobAll, body: solSwap })
      const peek = yield* call("GET", `/v1/trades/${bobs.body.data.id}`, { key: keys.aliceAll })
      assert.strictEqual(peek.status, 404)
      assert.strictEqual(peek.body.error.code, "TRADE_NOT_FOUND")
      const list = yield* call("GET", "/v1/trades?limit=100", { key: keys.aliceAll })
      assert.isFalse((list.body.data.trades as Array<{ id: string }>).some((t) => t.id === bobs.body.data.id))
    }))

  it.effect("a quote answers what a trade would start with, and executes nothing", () =>
    Effect.gen(function*() {
      const before = yield* call("GET", "/v1/trades?limit=1", { key: keys.aliceAll })
      const reply = yield* call("GET", "/v1/quote?tokenIn=SOL&tokenOut=USDC&amountIn=2&network=solana&slippage=1", {
        key: keys.aliceRead
      })
      assert.strictEqual(reply.status, 200, JSON.stringify(reply.body))
      for (const field of ["estimatedAmountOut", "fee", "minAmountOut", "priceImpact", "gasFee", "rate", "expiresAt"]) {
        assert.property(reply.body.data, field)
      }
      const { estimatedAmountOut, rate } = reply.body.data
      assert.strictEqual(rate, formatUnitRatio(units(estimatedAmountOut, 6), 6, units("2", 9), 9))
      assert.isAtMost(rate.replace(".", "").replace(/^0+/, "").length, 10, `${rate}: 10 significant digits`)
      const after = yield* call("GET", "/v1/trades?limit=1", { key: keys.aliceAll })
      assert.strictEqual(after.body.data.total, before.body.data.total)
    }))

  it.effect("a quote on a network without the caller's wallet is 422 WALLET_NOT_CONNECTED, as the trade is", () =>
    Effect.gen(function*() {
      const query = "tokenIn=ETH&tokenOut=USDC&amountIn=1&network=base"
      const quote = yield* call("GET", `/v1/quote?${query}`, { key: keys.aliceRead })
      assert.strictEqual(quote.status, 422, JSON.stringify(quote.body))
      assert.strictEqual(quote.body.error.code, "WALLET_NOT_CONNECTED")
      const trade = yield* createTrade({ tokenIn: "ETH", tokenOut: "USDC", amountIn: "1", network: "base" })
      assert.strictEqual(trade.body.error.code, quote.body.error.code)
      // A quote executes nothing, so it reserves nothing and asks nothing of the balance.
      const beyondBalance = yield* call("GET", "/v1/quote?tokenIn=SOL&tokenOut=USDC&amountIn=1000&network=solana", {
        key: keys.aliceRead
      })
      assert.strictEqual(beyondBalance.status, 200, JSON.stringify(beyondBalance.body))
    }))

  it.effect("the list's from after its to is 400 VALIDATION_ERROR naming from", () =>
    Effect.gen(function*() {
      const reversed = yield* call("GET", "/v1/trades?from=2026-01-02&to=2026-01-01", { key: keys.aliceRead })
      assert.strictEqual(reversed.status, 400, JSON.stringify(reversed.body))
      assert.strictEqual(reversed.body.error.code, "VALIDATION_ERROR")
      assert.deepStrictEqual(reversed.body.error.details.map((d: { path: string }) => d.path), ["from"])
      const instants = "from=2026-01-01T00:00:01Z&to=2026-01-01T00:00:00Z"
      assert.strictEqual((yield* call("GET", `/v1/trades?${instants}`, { key: keys.aliceRead })).status, 400)
      // A bare date as `to` is its whole day, so a later instant of that day is not after it.
      const sameDay = yield* call("GET", "/v1/trades?from=2026-01-01T12:00:00Z&to=2026-01-01", { key: keys.aliceRead })
      assert.strictEqual(sameDay.status, 200, JSON.stringify(sameDay.body))
    }))

  it.effect("a bare date as to covers its whole UTC day, as from starts at its midnight; date-times are exact", () =>
    Effect.gen(function*() {
      yield* advance(60_000)
      const created = yield* createTrade({ ...solSwap, amountIn: "0.01" })
      const id = created.body.data.id as string
      const createdAt = (yield* call("GET", `/v1/trades/${id}`, { key: keys.aliceRead })).body.data.createdAt as string
      assert.isAbove(Date.parse(createdAt), Date.parse("2026-01-01T00:00:00Z"))
      assert.include(idsOf(yield* listTrades("to=2026-01-01")), id)
      assert.include(idsOf(yield* listTrades("from=2026-01-01&to=2026-01-01")), id)
      assert.notInclude(idsOf(yield* listTrades("to=2025-12-31")), id)
      assert.notInclude(idsOf(yield* listTrades("from=2026-01-02")), id)
      assert.include(idsOf(yield* listTrades(`from=${createdAt}&to=${createdAt}`)), id)
      assert.notInclude(idsOf(yield* listTrades(`to=${new Date(Date.parse(createdAt) - 1).toISOString()}`)), id)
    }))

  it.effect("the list's token filter honours network: a token off it is INVALID_TOKEN, an address names one network", () =>
    Effect.gen(function*() {
      const onSolana = (yield* createTrade({ ...solSwap, amountIn: "0.01" })).body.data.id as string
      const onEthereum = (yield* createTrade(ethSwap)).body.data.id as string
      const usdcOnEthereum = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
      const usdcOnSolana = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
      for (const filter of ["token=SOL&network=ethereum", `token=${usdcOnEthereum}&network=solana`]) {
        const refused = yield* listTrades(filter)
        assert.strictEqual(refused.status, 400, filter)
        assert.strictEqual(refused.body.error.code, "INVALID_TOKEN", filter)
      }
      const byTicker = idsOf(yield* listTrades("token=usdc"))
      assert.includeMembers(byTicker, [onSolana, onEthereum])
      const byEthereumAddress = idsOf(yield* listTrades(`token=${usdcOnEthereum}`))
      assert.include(byEthereumAddress, onEthereum)
      assert.notInclude(byEthereumAddress, onSolana)
      const bySolanaMint = idsOf(yield* listTrades(`token=${usdcOnSolana}`))
      assert.include(bySolanaMint, onSolana)
      assert.notInclude(bySolanaMint, onEthereum)
      assert.deepStrictEqual(idsOf(yield* listTrades(`token=${usdcOnEthereum}&network=ethereum`)), byEthereumAddress)
    }))

  it.effect("the list is newest first and paginates with total, limit and offset", () =>
    Effect.gen(function*() {
      const page1 = yield* call("GET", "/v1/trades?limit=2&offset=0", { key: keys.aliceAll })
      const page2 = yield* call("GET", "/v1/trades?limit=2&offset=2", { key: keys.aliceAll })
      assert.strictEqual(page1.body.data.limit, 2)
      assert.strictEqual(page2.body.data.offset, 2)
      const all = yield* call("GET", "/v1/trades?limit=100", { key: keys.aliceAll })
      const ids = all.body.data.trades as Array<{ id: string; createdAt: string }>
      assert.deepStrictEqual(
        [...page1.body.data.trades, ...page2.body.data.trades].map((t: { id: string }) => t.id),
        ids.slice(0, 4).map((t) => t.id)
      )
      for (let i = 1; i < ids.length; i++) assert.isTrue(ids[i - 1]!.createdAt >= ids[i]!.createdAt)
    }))
})
