/**
 * `/v1/account/notifications` and `/v1/webhooks` on the `Notifications` and `Webhooks` use
 * cases, for the calling account.
 */
import { Notifications, webhookCreatedView, webhookDeliveryListView, webhookListView, Webhooks } from "@swapdesk/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Respond.ts"

const deleted = HttpServerResponse.empty({ status: 204 })
const same = <A>(a: A) => a

export const NotificationsHandlers = ApiHandlers.group(Api, "notifications", (handlers) =>
  Effect.gen(function*() {
    const { respond } = yield* makeResponder
    const notifications = yield* Notifications
    return handlers
      .handle("get", () => Effect.flatMap(Principal, (p) => respond(notifications.get(p.accountId), same)))
      .handle("update", ({ payload }) =>
        Effect.flatMap(Principal, (p) => respond(notifications.update(p.accountId, payload), same)))
  }))

export const WebhooksHandlers = ApiHandlers.group(Api, "webhooks", (handlers) =>
  Effect.gen(function*() {
    const { orApiError, respond } = yield* makeResponder
    const webhooks = yield* Webhooks
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Principal, (p) =>
          respond(webhooks.create(p.accountId, payload), webhookCreatedView, 201)))
      .handle("list", () =>
        Effect.flatMap(Principal, (p) => respond(webhooks.list(p.accountId), webhookListView)))
      .handle("remove", ({ params }) =>
        Effect.flatMap(Principal, (p) =>
          Effect.as(orApiError(webhooks.remove(p.accountId, params.id)), deleted)))
      .handle("deliveries", ({ params, query }) =>
        Effect.flatMap(
          Principal,
          (p) =>
            respond(webhooks.deliveries(p.accountId, params.id, query), webhookDeliveryListView)
        ))
  }))
