/**
 * How an account hears of events, on the wire (docs/reference/http-api.md#notifications-and-webhooks):
 * its notification settings, its webhooks (the signing secret only in the creation form) and each
 * webhook's delivery attempts. The wire's value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import { NotificationSettings } from "./Account.ts"
import { CollectionView, collectionView, Count, PageView, pageView } from "./ListViews.ts"
import { toIso } from "./MarketClock.ts"
import type { Page } from "./Page.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"
import { WebhookDeliveryStatus, WebhookEventType } from "./Webhook.ts"
import { IsoDateTime, isoOrNull } from "./WireFormats.ts"

/** `GET`/`PUT /account/notifications` `data`: `null` marks a channel that is not configured. */
export const NotificationSettingsView = NotificationSettings
export type NotificationSettingsView = typeof NotificationSettingsView.Type

/** What both forms of a webhook show first. */
const webhookFields = { id: Schema.String, url: Schema.String, events: Schema.Array(WebhookEventType) }

/** A webhook in `GET /webhooks`: never its secret. */
export const WebhookView = Schema.Struct({ ...webhookFields, createdAt: IsoDateTime })
export type WebhookView = typeof WebhookView.Type

/** `POST /webhooks` `data`: the one response that carries the signing secret. */
export const WebhookCreatedView = Schema.Struct({ ...webhookFields, secret: Schema.String, createdAt: IsoDateTime })
export type WebhookCreatedView = typeof WebhookCreatedView.Type

/** `GET /webhooks` `data`. */
export const WebhookListView = CollectionView("webhooks", WebhookView)
export type WebhookListView = typeof WebhookListView.Type

const webhookFieldsOf = (webhook: WebhookRecord) => ({ id: webhook.id, url: webhook.url, events: webhook.events })

/** A webhook as `GET /webhooks` lists it. */
export const webhookView = (webhook: WebhookRecord): WebhookView => ({
  ...webhookFieldsOf(webhook),
  createdAt: toIso(webhook.createdAt)
})

/** The creation form of a webhook, with its signing secret. */
export const webhookCreatedView = (webhook: WebhookRecord): WebhookCreatedView => ({
  ...webhookFieldsOf(webhook),
  secret: webhook.secret,
  createdAt: toIso(webhook.createdAt)
})

/** `GET /webhooks`. */
export const webhookListView: (webhooks: ReadonlyArray<WebhookRecord>) => WebhookListView = collectionView(
  "webhooks",
  webhookView
)

/** One attempt in `GET /webhooks/{id}/deliveries`. */
export const WebhookDeliveryView = Schema.Struct({
  id: Schema.String,
  event: WebhookEventType,
  /** The `webhook-id` header this attempt carried: the same on every attempt of one event. */
  webhookId: Schema.String,
  attempt: Count,
  status: WebhookDeliveryStatus,
  responseStatus: Schema.NullOr(Schema.Int),
  createdAt: IsoDateTime,
  nextAttemptAt: Schema.NullOr(IsoDateTime)
})
export type WebhookDeliveryView = typeof WebhookDeliveryView.Type

/** `GET /webhooks/{id}/deliveries` `data`. */
export const WebhookDeliveryListView = PageView("deliveries", WebhookDeliveryView)
export type WebhookDeliveryListView = typeof WebhookDeliveryListView.Type

/** One delivery attempt as `GET /webhooks/{id}/deliveries` lists it. */
export const webhookDeliveryView = (delivery: WebhookDeliveryRecord): WebhookDeliveryView => ({
  id: delivery.id,
  event: delivery.event,
  webhookId: delivery.webhookId,
  attempt: delivery.attempt,
  status: delivery.status,
  responseStatus: delivery.responseStatus,
  createdAt: toIso(delivery.createdAt),
  nextAttemptAt: isoOrNull(delivery.nextAttemptAt)
})

/** A page of a subscription's delivery attempts, newest first. */
export const webhookDeliveryListView: (page: Page<WebhookDeliveryRecord>) => WebhookDeliveryListView = pageView(
  "deliveries",
  webhookDeliveryView
)
