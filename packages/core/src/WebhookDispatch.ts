/**
 * Webhook delivery, listening where the domain announces what happened: a `DomainEvents` that
 * passes every event on to the adapter's (the simulator's event log) and, for the contract's six
 * webhook events, sends one message to each of the account's subscriptions to that event. A
 * message is `{ type, timestamp, data }`: `data` of `trade.*` is the single-trade read view, of
 * `alert.triggered` the alert's list-item view, of `order.*` the order view its publisher gives.
 * Delivery is at least once, on `WebhookTransport`, with `webhookRetryDelaysMs` between attempts on
 * the market clock and the same `webhook-id` on each; every attempt is logged. The first attempt
 * starts when the event is published and runs in its own fiber, so a receiver that hangs delays
 * neither the event's publisher nor the market.
 */
import { Effect, Layer, Option } from "effect"
import { type AttemptReport, DeliveriesUnderway, deliverWithRetries, webhookRetryDelaysMs } from "./Deliveries.ts"
import { type DomainEvent, DomainEvents } from "./DomainEvents.ts"
import { IdGenerator, idPrefixes } from "./Ids.ts"
import { MarketClock, toIso } from "./MarketClock.ts"
import { MarketTimer } from "./MarketTimer.ts"
import { TradeRepository, WebhookDeliveryRepository, WebhookRepository } from "./Repositories.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { tradeView } from "./TradeViews.ts"
import { type WebhookEventType, webhookEventTypes, type WebhookRecord } from "./Webhook.ts"
import { WebhookTransport } from "./WebhookTransport.ts"

const isWebhookEvent = (type: string): type is WebhookEventType =>
  (webhookEventTypes as ReadonlyArray<string>).includes(type)

/**
 * `DomainEvents` with webhook delivery in front of the adapter's: provide it to the use cases in
 * place of the adapter's, which it requires.
 */
export const WebhookDispatch = Layer.effect(
  DomainEvents,
  Effect.gen(function*() {
    const inner = yield* DomainEvents
    const subscriptions = yield* WebhookRepository
    const deliveryLog = yield* WebhookDeliveryRepository
    const trades = yield* TradeRepository
    const transport = yield* WebhookTransport
    const ids = yield* IdGenerator
    const clock = yield* MarketClock
    const timer = yield* MarketTimer
    const underway = yield* DeliveriesUnderway
    const tradeViewOf = tradeView(yield* TokenRegistry)

    /** The event's `data` as the contract's webhook body carries it. */
    const dataOf = (event: DomainEvent) =>
      event.type.startsWith("trade.") && typeof event.data["id"] === "string"
        ? Effect.map(trades.getById(event.data["id"]), (trade) =>
          Option.isSome(trade) ? tradeViewOf(trade.value) : event.data)
        : Effect.succeed(event.data)

    const deliver = (subscription: WebhookRecord, type: WebhookEventType, body: string) =>
      Effect.gen(function*() {
        const webhookId = yield* ids.next("message")
        const firstAttemptAt = new Map<number, number>()
        const record = (report: AttemptReport) =>
          Effect.gen(function*() {
            if (!firstAttemptAt.has(report.attempt)) firstAttemptAt.set(report.attempt, report.at)
            yield* deliveryLog.save({
              // Derived, not drawn: attempts run beside the market, and drawing from the id
              // stream there would shift every later id of a simulated run with their timing.
              id: `${idPrefixes.delivery}${webhookId.slice(idPrefixes.message.length)}-${report.attempt}`,
              accountId: subscription.accountId,
              subscriptionId: subscription.id,
              event: type,
              webhookId,
              attempt: report.attempt,
              status: report._tag === "Started" ? "pending" : report._tag === "Succeeded" ? "succeeded" : "failed",
              responseStatus: report._tag === "Succeeded"
                ? report.responseStatus ?? null
                : report._tag === "Failed"
                ? report.failure.responseStatus ?? null
                : null,
              createdAt: firstAttemptAt.get(report.attempt)!,
              nextAttemptAt: report._tag === "Failed" ? report.nextAttemptAt : null
            })
          })
        yield* deliverWithRetries({
          attempt: () =>
            transport.post({ url: subscription.url, secret: subscription.secret, messageId: webhookId, body }),
          delaysMs: webhookRetryDelaysMs,
          report: record
        })
      })

    const dispatch = Effect.fnUntraced(function*(event: DomainEvent) {
      const type = event.type
      if (!isWebhookEvent(type)) return
      const subscribed = (yield* subscriptions.listByAccount(event.accountId)).filter((w) => w.events.includes(type))
      if (subscribed.length === 0) return
      const body = JSON.stringify({ type, timestamp: toIso(yield* clock.now), data: yield* dataOf(event) })
      for (const subscription of subscribed) yield* deliver(subscription, type, body)
    })

    return {
      publish: (event) =>
        Effect.andThen(inner.publish(event), dispatch(event)).pipe(
          Effect.provideService(MarketClock, clock),
          Effect.provideService(MarketTimer, timer),
          Effect.provideService(DeliveriesUnderway, underway)
        )
    }
  })
)
