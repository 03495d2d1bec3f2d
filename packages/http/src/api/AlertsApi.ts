/**
 * `/v1/alerts`: create, list, read, enable or disable, delete (scope `alerts`).
 */
import {
  AlertCreatedView,
  AlertListView,
  AlertView,
  CreateAlertBody,
  ListAlertsQuery,
  UpdateAlertBody
} from "@swapdesk/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Forbidden, NotFound, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { Authentication, RequiredScope } from "./Security.ts"

const AlertId = { id: Schema.String }
const alertId = { id: "alrt_8Zq3LkT2mWv9XcR4pN7a" }

export class AlertsApi extends HttpApiGroup.make("alerts")
  .add(
    HttpApiEndpoint.post("create", "/v1/alerts", {
      payload: CreateAlertBody,
      success: Envelope(AlertCreatedView).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, Unprocessable, ...bodyErrors]
    })
      .annotate(OpenApi.Summary, "Create an alert")
      .annotate(
        OpenApi.Transform,
        operationExamples({
          body: { type: "price", token: "SOL", condition: "above", targetPrice: 200, channel: "email" }
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/alerts", {
      query: ListAlertsQuery,
      success: Envelope(AlertListView),
      error: BadRequest
    }).annotate(OpenApi.Summary, "List the account's alerts, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/alerts/:id", {
      params: AlertId,
      success: Envelope(AlertView),
      error: NotFound
    })
      .annotate(OpenApi.Summary, "Read one alert")
      .annotate(OpenApi.Transform, operationExamples({ parameters: alertId }))
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/alerts/:id", {
      params: AlertId,
      payload: UpdateAlertBody,
      success: Envelope(AlertView),
      error: [BadRequest, Forbidden, NotFound, Unprocessable, ...bodyErrors]
    })
      .annotate(OpenApi.Summary, "Disable an alert, or re-enable and re-arm it")
      .annotate(OpenApi.Transform, operationExamples({ parameters: alertId, body: { status: "disabled" } }))
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/alerts/:id", {
      params: AlertId,
      success: HttpApiSchema.NoContent,
      error: NotFound
    })
      .annotate(OpenApi.Summary, "Delete an alert")
      .annotate(OpenApi.Transform, operationExamples({ parameters: alertId }))
  )
  .annotate(OpenApi.Description, "Price, volume, whale and portfolio alerts and their notifications (scope `alerts`)")
  .annotate(RequiredScope, "alerts")
  .middleware(Authentication)
{}
