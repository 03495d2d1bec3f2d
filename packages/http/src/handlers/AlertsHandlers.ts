/**
 * `/v1/alerts` on the `Alerts` use cases, for the calling account.
 */
import { alertCreatedView, alertListView, Alerts, alertView } from "@swapdesk/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Respond.ts"

const deleted = HttpServerResponse.empty({ status: 204 })

export const AlertsHandlers = ApiHandlers.group(Api, "alerts", (handlers) =>
  Effect.gen(function*() {
    const { orApiError, respond } = yield* makeResponder
    const alerts = yield* Alerts
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Principal, (p) =>
          respond(alerts.create(p.accountId, payload), alertCreatedView, 201)))
      .handle("list", ({ query }) =>
        Effect.flatMap(Principal, (p) =>
          respond(alerts.list(p.accountId, query), alertListView)))
      .handle("get", ({ params }) =>
        Effect.flatMap(Principal, (p) =>
          respond(alerts.get(p.accountId, params.id), alertView)))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(Principal, (p) =>
          respond(alerts.setStatus(p.accountId, params.id, payload.status), alertView)))
      .handle("remove", ({ params }) =>
        Effect.flatMap(Principal, (p) =>
          Effect.as(orApiError(alerts.remove(p.accountId, params.id)), deleted)))
  }))
