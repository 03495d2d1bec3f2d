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
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Conflict, NotFound } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { Authentication, RequiredScope } from "./Security.ts"

const WebhookId = { id: Schema.String }
const webhookIdExample = operationExamples({ parameters: { id: "whk_4fQx8ZbT2mKp9LwN3vRc" } })

export class NotificationsApi extends HttpApiGroup.make("notifications")
  .add(
    HttpApiEndpoint.get("get", "/v1/account/notifications", { success: Envelope(NotificationSettingsView) }).annotate(
      OpenApi.Summary,
      "Where alerts are sent: email, Telegram and push (null: not configured)"
    )
  )
  .add(
    HttpApiEndpoint.put("update", "/v1/account/notifications", {
      payload: UpdateNotificationsBody,
      success: Envelope(NotificationSettingsView),
      error: [BadRequest, Conflict, ...bodyErrors]
    })
      .annotate(
        OpenApi.Summary,
        "Set channels (a field present is set, null removes it, a field absent is kept); a channel active or triggered alerts use cannot be removed"
      )
      .annotate(
        OpenApi.Transform,
        operationExamples({ body: { email: "trader@example.com", telegram: { chatId: "123456789" } } })
      )
  )
  .annotate(OpenApi.Description, "The account's notification channels (scope `account`)")
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/v1/webhooks", {
      payload: CreateWebhookBody,
      success: Envelope(WebhookCreatedView).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, ...bodyErrors]
    })
      .annotate(OpenApi.Summary, "Subscribe a URL to events; the signing secret is shown in this response only")
      .annotate(
        OpenApi.Transform,
        // A receiver on loopback, as on the simulator where tests listen: the example sent as it is
        // (Swagger UI's "Try it out") never makes the server reach outside the machine.
        operationExamples({
          body: { url: "http://127.0.0.1:4000/webhooks/swapdesk", events: ["trade.confirmed", "alert.triggered"] }
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/webhooks", { success: Envelope(WebhookListView) }).annotate(
      OpenApi.Summary,
      "List the account's webhook subscriptions, newest first"
    )
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/webhooks/:id", {
      params: WebhookId,
      success: HttpApiSchema.NoContent,
      error: NotFound
    })
      .annotate(OpenApi.Summary, "Delete a webhook subscription")
      .annotate(OpenApi.Transform, webhookIdExample)
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/v1/webhooks/:id/deliveries", {
      params: WebhookId,
      query: ListDeliveriesQuery,
      success: Envelope(WebhookDeliveryListView),
      error: [BadRequest, NotFound]
    })
      .annotate(OpenApi.Summary, "A subscription's delivery attempts, newest first")
      .annotate(OpenApi.Transform, webhookIdExample)
  )
  .annotate(
    OpenApi.Description,
    "Webhooks signed with the Standard Webhooks scheme, delivered at least once with retries (scope `account`)"
  )
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}
