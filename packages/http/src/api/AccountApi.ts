/**
 * `/v1/account/notifications` and `/v1/webhooks`: where alerts are sent, and the webhook
 * subscriptions with their delivery logs (scope `account`).
 */
import {
  CreateWebhookBody,
  ListDeliveriesQuery,
  NotificationSettingsView,
  UpdateNotificationsBody,
  WebhookCreatedView,
  WebhookDeliveryListView,
  WebhookListView
} from "@swapdesk/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, NotFound } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { creation, deleteRoute, documented, idExample, jsonBody, readRoute, ResourceId } from "./Routes.ts"
import { Authentication, RequiredScope } from "./Security.ts"

const webhookId = idExample("whk_4fQx8ZbT2mKp9LwN3vRc")

/** `/v1/account/notifications`: where alerts are sent. */
export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    readRoute("get", "/v1/account/notifications", NotificationSettingsView, {
      summary: "Where alerts are sent: email, Telegram and push (null: not configured)"
    }),
    HttpApiEndpoint.put("update", "/v1/account/notifications", {
      ...jsonBody(UpdateNotificationsBody, BadRequest, Conflict),
      success: Envelope(NotificationSettingsView)
    }).annotateMerge(documented({
      summary: "Set channels (a field present is set, null removes it, a field absent is kept); " +
        "a channel active or triggered alerts use cannot be removed",
      examples: { body: { email: "trader@example.com", telegram: { chatId: "123456789" } } }
    }))
  )
  .annotate(OpenApi.Description, "The account's notification channels (scope `account`)")
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}

/** `/v1/webhooks`: subscriptions and their delivery logs. */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/v1/webhooks", creation(CreateWebhookBody, WebhookCreatedView, BadRequest))
      .annotateMerge(documented({
        summary: "Subscribe a URL to events; the signing secret is shown in this response only",
        // A receiver on loopback, as on the simulator where tests listen: the example sent as it is
        // (Swagger UI's "Try it out") never makes the server reach outside the machine.
        examples: {
          body: { url: "http://127.0.0.1:4000/webhooks/swapdesk", events: ["trade.confirmed", "alert.triggered"] }
        }
      })),
    readRoute("list", "/v1/webhooks", WebhookListView, {
      summary: "List the account's webhook subscriptions, newest first"
    }),
    deleteRoute("remove", "/v1/webhooks/:id", { summary: "Delete a webhook subscription", examples: webhookId }),
    HttpApiEndpoint.get("deliveries", "/v1/webhooks/:id/deliveries", {
      params: ResourceId,
      query: ListDeliveriesQuery,
      success: Envelope(WebhookDeliveryListView),
      error: [BadRequest, NotFound]
    }).annotateMerge(documented({ summary: "A subscription's delivery attempts, newest first", examples: webhookId }))
  )
  .annotate(
    OpenApi.Description,
    "Webhooks signed with the Standard Webhooks scheme, delivered at least once with retries (scope `account`)"
  )
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}
