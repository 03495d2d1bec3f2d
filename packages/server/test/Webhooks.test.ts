// Proves webhooks end to end through a real server and a local receiver (node:http): creation answers 201 with a
// `whsec_` secret that no later read shows; deliveries carry the Standard Webhooks headers and a signature that an
// independent HMAC-SHA256 (node:crypto, not the library that signed it) verifies over `id.timestamp.body`; the body
// is `{ type, timestamp, data }` with the alert's list view for `alert.triggered` and the single-trade view for
// `trade.confirmed`; only subscribed events are sent; a receiver that fails is retried on the market clock (5 s,
// then 5 min) with the same `webhook-id`, each attempt logged in the deliveries list; delete, foreign ids and the URL
// rule answer as the contract says. With the address rule on (`WEBHOOK_ALLOW_PRIVATE_URLS=false`, a DNS stand-in
// answering for made-up names), loopback, private, link-local and unique-local hosts are 400 in every spelling, and a
// name re-pointed at a loopback receiver after its creation is refused at delivery: the receiver hears nothing.
import { assert, describe, it } from "@effect/vitest"
import { layerWebhookSender, type ResolveAll } from "@swapdesk/channels"
import { ChannelTransport } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import { advance, call, keys, testScenario, testServer } from "./harness.ts"
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

/** A DNS stand-in: names answer what `table` says at the moment they are asked. */
const dns = (table: Record<string, string>) => {
  const asked: Array<string> = []
  const resolveAll: ResolveAll = async (hostname) => {
    asked.push(hostname)
    const address = table[hostname]
    if (address === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
    }
    return [{ address, family: address.includes(":") ? 6 : 4 }]
  }
  return { asked, resolveAll, table }
}
const ruledServer = (resolveAll: ResolveAll) =>
  testServer(testScenario, {
    adapters: Layer.merge(
      ChannelTransport.layerNone,
      layerWebhookSender({ allowPrivateUrls: false, resolveAll })
    )
  })

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

  describe("with the address rule (WEBHOOK_ALLOW_PRIVATE_URLS=false)", () => {
    it.live("hosts that are not public are 400 VALIDATION_ERROR on url, in every spelling; public ones are taken", () => {
      const names = dns({ "internal.test": "192.168.1.10", "public.test": "93.184.215.14", "v6.test": "fd00::5" })
      return Effect.gen(function*() {
        for (
          const url of [
            "http://127.0.0.1:9/hooks",
            "http://localhost:4000/hooks",
            "http://api.localhost/hooks",
            "http://2130706433/hooks",
            "http://0x7f.0.0.1/hooks",
            "http://0177.0.0.1/hooks",
            "http://127.1/hooks",
            "http://[::1]/hooks",
            "http://[::ffff:127.0.0.1]/hooks",
            "http://[::ffff:a9fe:a9fe]/latest/meta-data",
            "http://169.254.169.254/latest/meta-data",
            "https://10.0.0.1/hooks",
            "https://172.20.0.3/hooks",
            "http://[fe80::1]/hooks",
            "http://[fd00::1]/hooks",
            "http://0.0.0.0/hooks",
            "http://internal.test/hooks",
            "http://v6.test/hooks",
            "http://nowhere.test/hooks"
          ]
        ) {
          const refused = yield* subscribe(url, ["trade.confirmed"])
          assert.strictEqual(refused.status, 400, url)
          assert.strictEqual(refused.body.error.code, "VALIDATION_ERROR", url)
          assert.strictEqual(refused.body.error.details[0].path, "url", url)
          assert.match(refused.body.error.details[0].message, /public address/, url)
        }
        for (
          const url of ["http://93.184.215.14/hooks", "https://public.test/hooks", "https://[2606:4700::1111]/hooks"]
        ) {
          const taken = yield* subscribe(url, ["trade.confirmed"])
          assert.strictEqual(taken.status, 201, `${url}: ${taken.text}`)
        }
        assert.strictEqual((yield* call("GET", "/v1/webhooks", { key: keys.aliceAll })).body.data.total, 3)
      }).pipe(Effect.provide(ruledServer(names.resolveAll)))
    })

    it.live("a name re-pointed at a loopback receiver after creation is refused at delivery", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* webhookReceiver
        const port = new URL(receiver.url).port
        const names = dns({ "rebind.test": "93.184.215.14" })
        yield* Effect.gen(function*() {
          const created = yield* subscribe(`http://rebind.test:${port}/hooks`, ["alert.triggered"], keys.bobAll)
          assert.strictEqual(created.status, 201, created.text)
          // The name now answers the machine's own loopback, where the receiver listens.
          names.table["rebind.test"] = "127.0.0.1"
          yield* call("POST", "/v1/alerts", {
            key: keys.bobAll,
            body: { type: "whale", token: "BONK", minValueUsd: 1_000_000, channel: "telegram" }
          })
          yield* call("POST", "/v1/sim/whales", { body: { token: "BONK", network: "solana", valueUsd: 2_000_000 } })
          const log = () => call("GET", `/v1/webhooks/${created.body.data.id}/deliveries`, { key: keys.bobAll })
          for (let i = 0; i < 250 && (yield* log()).body.data.deliveries[0]?.status !== "failed"; i++) {
            yield* Effect.sleep("20 millis")
          }
          const [attempt] = (yield* log()).body.data.deliveries
          assert.strictEqual(attempt.status, "failed")
          assert.isNull(attempt.responseStatus)
          assert.isNotNull(attempt.nextAttemptAt, "a refused attempt is retried like any failure")
          assert.strictEqual(receiver.received.length, 0, "the delivery reached the loopback receiver")
          assert.deepStrictEqual(
            names.asked,
            ["rebind.test", "rebind.test"],
            "resolved once to create, once to deliver"
          )
        }).pipe(Effect.provide(ruledServer(names.resolveAll)))
      })))
  })
})
