/**
 * Webhook subscriptions: create (the `whsec_` secret is shown once; the URL must be one the
 * transport may deliver to), list, delete, and read a subscription's delivery log
 * (docs/alerts.md#webhooks).
 */
import { Context, Effect, Layer, Option } from "effect"
import { invalid, type ValidationFailed, WebhookNotFound } from "./Errors.ts"
import { IdGenerator } from "./Ids.ts"
import { MarketClock } from "./MarketClock.ts"
import type { Page } from "./Page.ts"
import { WebhookDeliveryRepository, WebhookRepository } from "./Repositories.ts"
import { type CreateWebhookBody, type ListDeliveriesQuery, pageLimits } from "./Requests.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"
import { WebhookTransport } from "./WebhookTransport.ts"

/** Random bytes of a signing secret, as base62: 32 characters carry about 190 bits. */
const SECRET_LENGTH = 32

export class Webhooks extends Context.Service<Webhooks, {
  /** Fails with `ValidationFailed` on `url` when the transport refuses the URL's host. */
  readonly create: (accountId: string, body: CreateWebhookBody) => Effect.Effect<WebhookRecord, ValidationFailed>
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRecord>>
  readonly remove: (accountId: string, id: string) => Effect.Effect<void, WebhookNotFound>
  readonly deliveries: (
    accountId: string,
    id: string,
    query: ListDeliveriesQuery
  ) => Effect.Effect<Page<WebhookDeliveryRecord>, WebhookNotFound>
}>()("@swapdesk/core/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function*() {
      const repository = yield* WebhookRepository
      const deliveryLog = yield* WebhookDeliveryRepository
      const ids = yield* IdGenerator
      const clock = yield* MarketClock
      const transport = yield* WebhookTransport

      const create = Effect.fn("Webhooks.create")(function*(accountId: string, body: CreateWebhookBody) {
        yield* Effect.mapError(transport.checkUrl(body.url), (refused) => invalid("url", refused.reason))
        const webhook: WebhookRecord = {
          id: yield* ids.next("webhook"),
          accountId,
          url: body.url,
          // Each event once, in the contract's order of the request.
          events: Array.from(new Set(body.events)),
          secret: `whsec_${yield* ids.token(SECRET_LENGTH)}`,
          createdAt: yield* clock.now
        }
        yield* repository.insert(webhook)
        return webhook
      })

      const list = (accountId: string) =>
        Effect.map(
          repository.listByAccount(accountId),
          (webhooks) => [...webhooks].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        )

      const remove = Effect.fn("Webhooks.remove")(function*(accountId: string, id: string) {
        if (!(yield* repository.remove(accountId, id))) return yield* new WebhookNotFound({ id })
      })

      const deliveries = Effect.fn("Webhooks.deliveries")(
        function*(accountId: string, id: string, query: ListDeliveriesQuery) {
          if (Option.isNone(yield* repository.get(accountId, id))) return yield* new WebhookNotFound({ id })
          return yield* deliveryLog.list(id, {
            limit: query.limit ?? pageLimits.defaultLimit,
            offset: query.offset ?? 0
          })
        }
      )

      return { create, list, remove, deliveries }
    })
  )
}
