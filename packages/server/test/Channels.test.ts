// Proves alerts reach real channels end to end: a real server on port 0, started with the channel settings
// (SMTP_URL, TELEGRAM_BOT_TOKEN/TELEGRAM_API_URL, FCM_SERVICE_ACCOUNT/FCM_API_URL) pointing at local stand-ins (an
// SMTP server from npm, an HTTP server playing the Bot API, the OAuth token endpoint and FCM). Alerts of every type,
// driven to fire through the simulator routes, each send exactly one message on their channel, and the outbox says
// `sent` after one attempt; FCM is authorised by a token the stand-in granted for a JWT it verified with the
// service account's public key. A failing channel is retried with back-off on the market clock (advancing the manual
// clock drives the retries) until `sent`, or `failed` after 5 attempts; a channel that hangs delays neither the
// market nor another alert's notification.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { assert, describe, it } from "@effect/vitest"
import { layerWebhookSender, loadChannels } from "@swapdesk/channels"
import { ChannelTransport } from "@swapdesk/core"
import { serve } from "@swapdesk/http"
import { NodeServerPlatform } from "@swapdesk/http/node"
import type { ScenarioFile } from "@swapdesk/simulator"
import { ConfigProvider, Effect, Layer } from "effect"
import { simulatorApp } from "../src/SimulatorServer.ts"
import { advance, call, keys, testScenario } from "./harness.ts"
import { eventually, providersStandIn, smtpStandIn } from "./standIns.ts"

/** Bob (Pro) with every channel configured. */
const scenario: ScenarioFile = {
  ...testScenario,
  accounts: testScenario.accounts!.map((account) =>
    account.id === "acct_bob"
      ? {
        ...account,
        notifications: { email: "bob@example.com", telegram: { chatId: "42" }, push: { deviceToken: "bob-device-1" } }
      }
      : account
  )
}

/** Stand-ins, and a server whose channel settings point at them. */
const world = Effect.gen(function*() {
  const smtp = yield* smtpStandIn
  const providers = yield* providersStandIn
  const settings = {
    SMTP_URL: smtp.url,
    EMAIL_FROM: "alerts@swapdesk.test",
    TELEGRAM_BOT_TOKEN: providers.botToken,
    TELEGRAM_API_URL: providers.base,
    FCM_SERVICE_ACCOUNT: providers.serviceAccountFile,
    FCM_API_URL: providers.base
  }
  const channels = yield* loadChannels.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(settings))))
  const adapters = Layer.merge(
    Layer.succeed(ChannelTransport, channels),
    layerWebhookSender({ allowPrivateUrls: true })
  )
  const server = serve(simulatorApp(scenario, { adapters })).pipe(
    Layer.provide(NodeServerPlatform),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )
  return { smtp, providers, server }
})

const create = (body: Record<string, unknown>) => call("POST", "/v1/alerts", { key: keys.bobAll, body })
/** A price alert on `token` when it goes `condition` `targetPrice` USD, sent on `channel`. */
const createPriceAlert = (token: string, condition: "above" | "below", targetPrice: number, channel: string) =>
  create({ type: "price", token, condition, targetPrice, channel })
const outboxOf = (alertId: string) =>
  Effect.map(
    call("GET", "/v1/sim/outbox"),
    (reply) => reply.body.data.notifications.filter((n: { alertId: string }) => n.alertId === alertId)
  )

/** Polls the outbox until the alert's item satisfies `done`. */
const outboxItem = (alertId: string, done: (item: { status: string; attempts: number }) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 500; i++) {
      const items = yield* outboxOf(alertId)
      if (items.length === 1 && done(items[0])) return items[0]
      yield* Effect.sleep("20 millis")
    }
    throw new Error(`outbox item of ${alertId} never got there`)
  })

describe("real channels", () => {
  it.live("every alert type sends exactly one message on its channel", () =>
    Effect.scoped(Effect.gen(function*() {
      const { providers, server, smtp } = yield* world
      yield* Effect.gen(function*() {
        const price = yield* createPriceAlert("SOL", "above", 400, "email")
        const whale = yield* create({ type: "whale", token: "USDC", minValueUsd: 50_000_000, channel: "telegram" })
        const volume = yield* create({ type: "volume", token: "JUP", multiplier: 2, channel: "push" })
        const portfolio = yield* create({ type: "portfolio", changePercent: 50, channel: "email" })
        for (const reply of [price, whale, volume, portfolio]) assert.strictEqual(reply.status, 201, reply.text)

        yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: 2_000 } })
        yield* call("POST", "/v1/sim/whales", { body: { token: "USDC", network: "ethereum", valueUsd: 60_000_000 } })
        yield* call("POST", "/v1/sim/whales", { body: { token: "JUP", network: "solana", valueUsd: 900_000_000_000 } })
        // Volume and portfolio alerts are evaluated at whole minutes.
        yield* advance(60_000)
        yield* advance(60_000)

        for (const reply of [price, whale, volume, portfolio]) {
          const id = reply.body.data.id
          const read = yield* call("GET", `/v1/alerts/${id}`, { key: keys.bobAll })
          assert.strictEqual(read.body.data.status, "triggered", `${reply.body.data.type} alert did not fire`)
          const item = yield* outboxItem(id, (i) => i.status === "sent")
          assert.strictEqual(item.attempts, 1)
        }

        yield* eventually("two mails", () => smtp.mails.length >= 2)
        assert.strictEqual(smtp.mails.length, 2)
        for (const mail of smtp.mails) {
          assert.strictEqual(mail.from, "alerts@swapdesk.test")
          assert.deepStrictEqual(mail.to, ["bob@example.com"])
        }
        const priceMail = smtp.mails.find((m) => m.raw.includes(price.body.data.id))!
        assert.match(priceMail.raw, /Price alert alrt_\w+: SOL is above 400 USD: now 2000 USD/)
        assert.isDefined(smtp.mails.find((m) => m.raw.includes(portfolio.body.data.id)))

        assert.strictEqual(providers.telegram.length, 1)
        const sent = JSON.parse(providers.telegram[0]!.body)
        assert.deepStrictEqual(Object.keys(sent).sort(), ["chat_id", "text"])
        assert.strictEqual(sent.chat_id, "42")
        assert.match(sent.text, /^Whale alert alrt_\w+: a buy of USDC worth 60000000 USD on ethereum$/)

        assert.strictEqual(providers.fcm.length, 1)
        assert.strictEqual(providers.tokenRequests.length, 1)
        assert.strictEqual(providers.fcm[0]!.headers.authorization, "Bearer ya29.test-access-token")
        const push = JSON.parse(providers.fcm[0]!.body).message
        assert.strictEqual(push.token, "bob-device-1")
        assert.strictEqual(push.data.alertId, volume.body.data.id)
        assert.match(
          push.notification.body,
          /^Volume alert alrt_\w+: JUP traded .* in the last hour, 2x its hourly average$/
        )
      }).pipe(Effect.provide(server))
    })))

  it.live("a failing channel is retried on the market clock until sent, or failed after 5 attempts", () =>
    Effect.scoped(Effect.gen(function*() {
      const { providers, server } = yield* world
      yield* Effect.gen(function*() {
        providers.setTelegram({ _tag: "fail", times: 2, status: 502 })
        const alert = yield* createPriceAlert("ETH", "above", 10, "telegram")
        const id = alert.body.data.id
        yield* advance(1_000)
        yield* outboxItem(id, (i) => i.attempts === 1 && i.status === "pending")
        // No market time passes, no retry.
        assert.strictEqual(providers.telegram.length, 1)
        yield* advance(4_000)
        assert.strictEqual(providers.telegram.length, 1)
        yield* advance(1_000)
        yield* outboxItem(id, (i) => i.attempts === 2 && i.status === "pending")
        yield* advance(30_000)
        const sent = yield* outboxItem(id, (i) => i.status === "sent")
        assert.strictEqual(sent.attempts, 3)
        assert.strictEqual(providers.telegram.length, 3)
        assert.isTrue(providers.telegram.every((r) => r.body === providers.telegram[0]!.body))

        providers.setTelegram({ _tag: "fail", times: 1_000, status: 500 })
        const doomed = yield* createPriceAlert("ETH", "below", 1e9, "telegram")
        const doomedId = doomed.body.data.id
        yield* advance(1_000)
        for (const [attempts, wait] of [[1, 5_000], [2, 30_000], [3, 120_000], [4, 600_000]] as const) {
          yield* outboxItem(doomedId, (i) => i.attempts === attempts)
          yield* advance(wait)
        }
        const failed = yield* outboxItem(doomedId, (i) => i.status === "failed")
        assert.strictEqual(failed.attempts, 5)
        yield* advance(86_400_000)
        assert.strictEqual((yield* outboxOf(doomedId))[0].attempts, 5)
      }).pipe(Effect.provide(server))
    })))

  it.live("a channel that hangs delays neither the market nor another alert's notification", () =>
    Effect.scoped(Effect.gen(function*() {
      const { providers, server, smtp } = yield* world
      yield* Effect.gen(function*() {
        providers.setTelegram({ _tag: "hang" })
        const stuck = yield* createPriceAlert("WBTC", "above", 1, "telegram")
        yield* advance(1_000)
        yield* eventually("the Bot API stand-in to hold the request", () => providers.heldCount() === 1)
        // The market goes on while the request hangs.
        const moved = yield* advance(3_600_000)
        assert.strictEqual(moved.status, 200)
        const other = yield* createPriceAlert("SOL", "below", 1e6, "email")
        yield* advance(1_000)
        yield* eventually("the other alert's mail", () => smtp.mails.some((m) => m.raw.includes(other.body.data.id)))
        assert.strictEqual(providers.heldCount(), 1)
        assert.strictEqual((yield* outboxOf(stuck.body.data.id))[0].status, "pending")
        providers.release()
        yield* outboxItem(stuck.body.data.id, (i) => i.status === "sent")
      }).pipe(Effect.provide(server))
    })))
})
