/**
 * `/v1/account/notifications` and `/v1/webhooks` on the `Notifications` and `Webhooks` use
 * cases, for the calling account.
 */
import { Notifications, webhookCreatedView, webhookDeliveryListView, webhookListView, Webhooks } from "@swapdesk/core"
import { Effect, identity } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** `NotificationsApi` on the `Notifications` use cases. */
export const NotificationsHandlers = ApiHandlers.group(Api, "notifications", (handlers) =>
  Effect.gen(function*() {
    const { respond } = yield* makeResponder
    const notifications = yield* Notifications
    return handlers
      .handle("get", () => forAccount((account) => respond(notifications.get(account), identity)))
      .handle("update", ({ payload }) =>
        forAccount((account) => respond(notifications.update(account, payload), identity)))
  }))

/** `WebhooksApi` on the `Webhooks` use cases. */
export const WebhooksHandlers = ApiHandlers.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const { noContent, respond } = yield* makeResponder
    const webhooks = yield* Webhooks
    return handlers
      .handle("create", ({ payload }) =>
        forAccount((account) => respond(webhooks.create(account, payload), webhookCreatedView, 201)))
      .handle("list", () =>
        forAccount((account) => respond(webhooks.list(account), webhookListView)))
      .handle("remove", ({ params }) => forAccount((account) => noContent(webhooks.remove(account, params.id))))
      .handle("deliveries", ({ params, query }) =>
        forAccount((account) =>
          respond(webhooks.deliveries(account, params.id, query), webhookDeliveryListView)
        ))
  }))
