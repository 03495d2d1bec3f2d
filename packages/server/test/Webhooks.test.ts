// Proves webhooks end to end through a real server and a local receiver (node:http): creation answers 201 with a
// `whsec_` secret that no later read shows; deliveries carry the Standard Webhooks headers and a signature that an
// independent HMAC-SHA256 (node:crypto, not the library that signed it) verifies over `id.timestamp.body`; the body
// is `{ type, timestamp, data }` with the alert's list view for `alert.triggered` and the single-trade view for
// `trade.confirmed`; only subscribed events are sent; a receiver that fails is retried on the market clock (5 s,
// then 5 min) with the same `webhook-id`, each attempt logged in the deliveries list; delete, foreign ids and the URL
// rule answer as the contract says.
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { advance, call, keys, testServer } from "./harness.ts"
import { eventually, type ReceivedRequest, webhookReceiver } from "./standIns.ts"

/** Standard Webhooks verification, written from the scheme's text: HMAC-SHA256 keyed by the secret's base64 part. */
const verifies = (secret: string, request: ReceivedRequest): boolean => {
  const id = request.headers["webhook-id"] as string
  const timestamp = request.headers["webhook-timestamp"] as string
  const key = Buffer.from(secret.slice("whsec_".length), "base64")
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${request.body}`).digest()
  return (request.headers["webhook-signature"] as string).split(" ").some((signature) => {
    const [version, value] = signature.split(",")
    const given = Buffer.from(value ?? "", "base64")
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected)
  })
}

const subscribe = (url: string, events: ReadonlyArray<string>, key: string = keys.aliceAll) =>
  call("POST", "/v1/webhooks", { key, body: { url, events } })

describe("webhooks", () => {
  it.live("alert.triggered and trade.confirmed arrive signed, with the contract's bodies", () =>
    Effect.scoped(Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      yield* Effect.gen(function*() {
        const created = yield* subscribe(receiver.url, ["alert.triggered", "trade.confirmed"])
        assert.strictEqual(created.status, 201, created.text)
        const { id, secret } = created.body.data
        assert.match(secret, /^whsec_[0-9A-Za-z]{32}$/)
        assert.match(id, /^whk_/)
        const listed = yield* call("GET", "/v1/webhooks", { key: keys.aliceAll })
        assert.strictEqual(listed.body.data.total, 1)
        assert.notProperty(listed.body.data.webhooks[0], "secret")
        assert.notInclude(listed.text, secret)

        const alert = yield* call("POST", "/v1/alerts", {
          key: keys.aliceAll,
          body: { type: "price", token: "SOL", condition: "above", targetPrice: 300, channel: "email" }
        })
        yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: 350 } })
        yield* eventually("alert.triggered", () => receiver.received.length === 1)
        const delivery = receiver.received[0]!
        assert.isTrue(verifies(secret, delivery), "the signature does not verify")
        assert.isFalse(verifies(`whsec_${"A".repeat(32)}`, delivery), "any key verifies: the check proves nothing")
        assert.match(delivery.headers["webhook-id"] as string, /^msg_/)
        assert.match(delivery.headers["webhook-timestamp"] as string, /^[0-9]{10}$/)
        assert.strictEqual(delivery.headers["content-type"], "application/json")
        const body = JSON.parse(delivery.body)
        assert.deepStrictEqual(Object.keys(body), ["type", "timestamp", "data"])
        assert.strictEqual(body.type, "alert.triggered")
        const view = (yield* call("GET", `/v1/alerts/${alert.body.data.id}`, { key: keys.aliceAll })).body.data
        assert.deepStrictEqual(body.data, view)

        const trade = yield* call("POST", "/v1/trades", {
          key: keys.aliceAll,
          body: { tokenIn: "USDC", tokenOut: "SOL", amountIn: "10", network: "solana" }
        })
        assert.strictEqual(trade.status, 201, trade.text)
        yield* advance(30_000)
        yield* eventually("trade.confirmed", () => receiver.received.length === 2)
        const confirmed = JSON.parse(receiver.received[1]!.body)
        assert.strictEqual(confirmed.type, "trade.confirmed")
        assert.isTrue(verifies(secret, receiver.received[1]!))
        const read = (yield* call("GET", `/v1/trades/${trade.body.data.id}`, { key: keys.aliceAll })).body.data
        assert.deepStrictEqual(confirmed.data, read)
        // Not subscribed: trade.created, trade.broadcast and the rest never arrive.
        assert.strictEqual(receiver.received.length, 2)

        const deliveries = yield* call("GET", `/v1/webhooks/${id}/deliveries`, { key: keys.aliceAll })
        assert.strictEqual(deliveries.body.data.total, 2)
        assert.deepStrictEqual(
          deliveries.body.data.deliveries.map((d: { event: string; status: string; responseStatus: number }) => [
            d.event,
            d.status,
            d.responseStatus
          ]),
          [["trade.confirmed", "succeeded", 200], ["alert.triggered", "succeeded", 200]]
        )
        assert.strictEqual((yield* call("DELETE", `/v1/webhooks/${id}`, { key: keys.aliceAll })).status, 204)
        yield* call("DELETE", `/v1/alerts/${alert.body.data.id}`, { key: keys.aliceAll })
      }).pipe(Effect.provide(testServer()))
    })))

  it.live("a failing receiver is retried on the market clock with the same webhook-id, each attempt logged", () =>
    Effect.scoped(Effect.gen(function*() {
      const receiver = yield* webhookReceiver
      receiver.statuses.push(500, 503)
      yield* Effect.gen(function*() {
        const created = yield* subscribe(receiver.url, ["alert.triggered"], keys.bobAll)
        const { id, secret } = created.body.data
        yield* call("POST", "/v1/alerts", {
          key: keys.bobAll,
          body: { type: "whale", token: "BONK", minValueUsd: 1_000_000, channel: "telegram" }
        })
        yield* call("POST", "/v1/sim/whales", { body: { token: "BONK", network: "solana", valueUsd: 2_000_000 } })
        yield* eventually("the first attempt", () => receiver.received.length === 1)
        const log = () => call("GET", `/v1/webhooks/${id}/deliveries`, { key: keys.bobAll })
        for (let i = 0; i < 100 && (yield* log()).body.data.deliveries[0]?.status !== "failed"; i++) {
          yield* Effect.sleep("20 millis")
        }
        const first = (yield* log()).body.data.deliveries[0]
        assert.strictEqual(first.attempt, 1)
        assert.strictEqual(first.status, "failed")
        assert.strictEqual(first.responseStatus, 500)
        assert.strictEqual(Date.parse(first.nextAttemptAt) - Date.parse(first.createdAt), 5_000)

        yield* advance(4_000)
        assert.strictEqual(receiver.received.length, 1, "retried before its time")
        yield* advance(1_000)
        yield* eventually("the second attempt", () => receiver.received.length === 2)
        yield* advance(300_000)
        yield* eventually("the third attempt", () => receiver.received.length === 3)
        const ids = receiver.received.map((r) => r.headers["webhook-id"])
        assert.deepStrictEqual(ids, [ids[0], ids[0], ids[0]])
        assert.isTrue(receiver.received.every((r) => verifies(secret, r)))
        assert.isTrue(receiver.received.every((r) => r.body === receiver.received[0]!.body))

        for (let i = 0; i < 100 && (yield* log()).body.data.total < 3; i++) yield* Effect.sleep("20 millis")
        for (let i = 0; i < 100 && (yield* log()).body.data.deliveries[0].status === "pending"; i++) {
          yield* Effect.sleep("20 millis")
        }
        const attempts = (yield* log()).body.data.deliveries
        assert.deepStrictEqual(
          attempts.map((d: { attempt: number; status: string; responseStatus: number; webhookId: string }) => [
            d.attempt,
            d.status,
            d.responseStatus,
            d.webhookId
          ]),
          [[3, "succeeded", 200, ids[0]], [2, "failed", 503, ids[0]], [1, "failed", 500, ids[0]]]
        )
        assert.isNull(attempts[0].nextAttemptAt)
        const paged = yield* call("GET", `/v1/webhooks/${id}/deliveries?limit=1&offset=1`, { key: keys.bobAll })
        assert.deepStrictEqual([paged.body.data.total, paged.body.data.limit, paged.body.data.offset], [3, 1, 1])
        assert.strictEqual(paged.body.data.deliveries[0].attempt, 2)
      }).pipe(Effect.provide(testServer()))
    })))

  it.live("delete, another account's ids, the URL rule and the scope", () =>
    Effect.gen(function*() {
      const created = yield* subscribe("http://127.0.0.1:9/hooks", ["order.filled"])
      const id = created.body.data.id
      for (
        const [method, path] of [["DELETE", `/v1/webhooks/${id}`], ["GET", `/v1/webhooks/${id}/deliveries`]] as const
      ) {
        const foreign = yield* call(method, path, { key: keys.bobAll })
        assert.strictEqual(foreign.status, 404)
        assert.strictEqual(foreign.body.error.code, "WEBHOOK_NOT_FOUND")
      }
      assert.strictEqual((yield* call("DELETE", `/v1/webhooks/${id}`, { key: keys.aliceAll })).status, 204)
      const again = yield* call("DELETE", `/v1/webhooks/${id}`, { key: keys.aliceAll })
      assert.strictEqual(again.body.error.code, "WEBHOOK_NOT_FOUND")

      const badUrl = yield* subscribe("ftp://example.com/hooks", ["trade.failed"])
      assert.strictEqual(badUrl.status, 400)
      assert.strictEqual(badUrl.body.error.details[0].path, "url")
      const badEvent = yield* subscribe("https://example.com/hooks", ["trade.created"])
      assert.strictEqual(badEvent.body.error.details[0].path, "events.0")
      const noEvents = yield* subscribe("https://example.com/hooks", [])
      assert.strictEqual(noEvents.status, 400)
      const scope = yield* subscribe("https://example.com/hooks", ["trade.failed"], keys.aliceAlerts)
      assert.strictEqual(scope.status, 403)
    }).pipe(Effect.provide(testServer())))
})
