/**
 * Webhook subscriptions, the events they can receive, and the log of their delivery attempts
 * (docs/alerts.md#webhooks).
 */
import { Schema } from "effect"

export const webhookEventTypes = [
  "trade.confirmed",
  "trade.failed",
  "alert.triggered",
  "order.filled",
  "order.cancelled",
  "order.expired"
] as const
export const WebhookEventType = Schema.Literals(webhookEventTypes)
export type WebhookEventType = typeof WebhookEventType.Type

export interface WebhookRecord {
  readonly id: string
  readonly accountId: string
  readonly url: string
  readonly events: ReadonlyArray<WebhookEventType>
  /** `whsec_…`, shown once at creation, used to sign deliveries. */
  readonly secret: string
  readonly createdAt: number
}

export const WebhookDeliveryStatus = Schema.Literals(["pending", "succeeded", "failed"])
export type WebhookDeliveryStatus = typeof WebhookDeliveryStatus.Type

/** One attempt to deliver one event to one subscription. */
export interface WebhookDeliveryRecord {
  readonly id: string
  readonly accountId: string
  /** The subscription (`whk_…`). */
  readonly subscriptionId: string
  readonly event: WebhookEventType
  /** The `webhook-id` header: the same on every attempt of one event. */
  readonly webhookId: string
  /** 1 for the first attempt. */
  readonly attempt: number
  /** `pending` while the attempt is in flight. */
  readonly status: WebhookDeliveryStatus
  /** The receiver's HTTP status, or null when it gave none (refused, timed out, still pending). */
  readonly responseStatus: number | null
  readonly createdAt: number
  /** When the next attempt is due after this one failed; null otherwise. */
  readonly nextAttemptAt: number | null
}
