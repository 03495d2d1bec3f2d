/**
 * `/v1/alerts` on the `Alerts` use cases, for the calling account.
 */
import { alertCreatedView, alertListView, Alerts, alertView } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** `AlertsApi` on the `Alerts` use cases. */
export const AlertsHandlers = ApiHandlers.group(Api, "alerts", (handlers) =>
  Effect.gen(function*() {
    const { noContent, respond } = yield* makeResponder
    const alerts = yield* Alerts
    return handlers
      .handle("create", ({ payload }) =>
        forAccount((account) => respond(alerts.create(account, payload), alertCreatedView, 201)))
      .handle("list", ({ query }) =>
        forAccount((account) => respond(alerts.list(account, query), alertListView)))
      .handle("get", ({ params }) => forAccount((account) => respond(alerts.get(account, params.id), alertView)))
      .handle("update", ({ params, payload }) =>
        forAccount((account) =>
          respond(alerts.setStatus(account, params.id, payload.status), alertView)
        ))
      .handle("remove", ({ params }) =>
        forAccount((account) => noContent(alerts.remove(account, params.id))))
  }))
