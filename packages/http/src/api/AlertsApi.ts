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
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { creation, deleteRoute, documented, idExample, itemRoute, jsonBody, queryRoute, ResourceId } from "./Routes.ts"
import { Authentication, RequiredScope } from "./Security.ts"

const alertId = idExample("alrt_8Zq3LkT2mWv9XcR4pN7a")

/** `/v1/alerts`: price, volume, whale and portfolio alerts. */
export class AlertsApi extends HttpApiGroup.make("alerts")
  .add(
    HttpApiEndpoint.post(
      "create",
      "/v1/alerts",
      creation(CreateAlertBody, AlertCreatedView, BadRequest, Forbidden, Unprocessable)
    ).annotateMerge(documented({
      summary: "Create an alert",
      examples: { body: { type: "price", token: "SOL", condition: "above", targetPrice: 200, channel: "email" } }
    })),
    queryRoute("list", "/v1/alerts", ListAlertsQuery, AlertListView, {
      summary: "List the account's alerts, newest first"
    }),
    itemRoute("get", "/v1/alerts/:id", AlertView, { summary: "Read one alert", examples: alertId }),
    HttpApiEndpoint.patch("update", "/v1/alerts/:id", {
      params: ResourceId,
      ...jsonBody(UpdateAlertBody, BadRequest, Forbidden, NotFound, Unprocessable),
      success: Envelope(AlertView)
    }).annotateMerge(documented({
      summary: "Disable an alert, or re-enable and re-arm it",
      examples: { ...alertId, body: { status: "disabled" } }
    })),
    deleteRoute("remove", "/v1/alerts/:id", { summary: "Delete an alert", examples: alertId })
  )
  .annotate(OpenApi.Description, "Price, volume, whale and portfolio alerts and their notifications (scope `alerts`)")
  .annotate(RequiredScope, "alerts")
  .middleware(Authentication)
{}
