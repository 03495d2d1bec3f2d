/**
 * Webhook subscriptions and the events they can receive (docs/reference/http-api.md#notifications-and-webhooks).
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
