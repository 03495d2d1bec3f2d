// Proves the notification settings end to end through a real server: GET shows every channel (null when not set),
// PUT is a partial update where null removes, addresses are validated (email, numeric or @channel chat id, non-empty
// device token), the scope is `account`, a channel an active or triggered alert uses cannot be removed (409
// CHANNEL_IN_USE) while a disabled alert's can, and re-enabling an alert whose channel was removed is 422
// CHANNEL_NOT_CONFIGURED.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, keys, testServer } from "./harness.ts"

const settings = (key: string = keys.bobAll) => call("GET", "/v1/account/notifications", { key })
const put = (body: unknown, key: string = keys.bobAll) => call("PUT", "/v1/account/notifications", { key, body })

layer(testServer(), { excludeTestServices: true })("notification settings", (it) => {
  it.effect("GET answers every channel; null marks one not configured", () =>
    Effect.gen(function*() {
      const reply = yield* settings()
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(reply.body.data, { email: "bob@example.com", telegram: { chatId: "42" }, push: null })
    }))

  it.effect("PUT sets the fields present, removes those set to null, keeps the others", () =>
    Effect.gen(function*() {
      const set = yield* put({ push: { deviceToken: "device-token-1" }, telegram: { chatId: "@swapdesk_alerts" } })
      assert.strictEqual(set.status, 200, JSON.stringify(set.body))
      assert.deepStrictEqual(set.body.data, {
        email: "bob@example.com",
        telegram: { chatId: "@swapdesk_alerts" },
        push: { deviceToken: "device-token-1" }
      })
      const removed = yield* put({ push: null })
      assert.deepStrictEqual(removed.body.data.push, null)
      assert.deepStrictEqual((yield* settings()).body.data, removed.body.data)
      yield* put({ telegram: { chatId: "42" } })
    }))

  it.effect("bad addresses are 400 VALIDATION_ERROR naming each field", () =>
    Effect.gen(function*() {
      const reply = yield* put({
        email: "not-an-address",
        telegram: { chatId: "my chat" },
        push: { deviceToken: "  " }
      })
      assert.strictEqual(reply.status, 400)
      assert.strictEqual(reply.body.error.code, "VALIDATION_ERROR")
      assert.sameMembers(reply.body.error.details.map((d: { path: string }) => d.path), [
        "email",
        "telegram.chatId",
        "push.deviceToken"
      ])
      assert.strictEqual((yield* put({ telegram: { chatId: "-1001234567890" } })).status, 200)
      assert.strictEqual((yield* put({ sms: "+100" })).status, 400)
      yield* put({ telegram: { chatId: "42" } })
    }))

  it.effect("the account scope is required", () =>
    Effect.gen(function*() {
      const reply = yield* settings(keys.aliceAlerts)
      assert.strictEqual(reply.status, 403)
      assert.strictEqual(reply.body.error.code, "INSUFFICIENT_SCOPE")
      assert.strictEqual((yield* settings(keys.aliceAccount)).status, 200)
    }))

  it.effect("a channel an active or triggered alert uses is 409 CHANNEL_IN_USE; re-enabling without it is 422", () =>
    Effect.gen(function*() {
      const alert = yield* call("POST", "/v1/alerts", {
        key: keys.bobAll,
        body: { type: "price", token: "ETH", condition: "above", targetPrice: 1, channel: "telegram" }
      })
      assert.strictEqual(alert.status, 201)
      const id = alert.body.data.id
      const inUse = yield* put({ telegram: null })
      assert.strictEqual(inUse.status, 409)
      assert.strictEqual(inUse.body.error.code, "CHANNEL_IN_USE")
      // It fires at the next price update: triggered still holds the channel.
      yield* call("PUT", "/v1/sim/prices/ETH", { body: { price: 3000 } })
      assert.strictEqual((yield* call("GET", `/v1/alerts/${id}`, { key: keys.bobAll })).body.data.status, "triggered")
      assert.strictEqual((yield* put({ telegram: null })).status, 409)
      // Another field in the same request is not applied either.
      assert.strictEqual((yield* settings()).body.data.email, "bob@example.com")
      yield* call("PATCH", `/v1/alerts/${id}`, { key: keys.bobAll, body: { status: "disabled" } })
      const removed = yield* put({ telegram: null })
      assert.strictEqual(removed.status, 200)
      const reenabled = yield* call("PATCH", `/v1/alerts/${id}`, { key: keys.bobAll, body: { status: "active" } })
      assert.strictEqual(reenabled.status, 422)
      assert.strictEqual(reenabled.body.error.code, "CHANNEL_NOT_CONFIGURED")
      yield* put({ telegram: { chatId: "42" } })
      yield* call("DELETE", `/v1/alerts/${id}`, { key: keys.bobAll })
    }))
})
