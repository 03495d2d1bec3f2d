/**
 * `/v1/health`: is the service up, and on what.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Envelope } from "./Envelope.ts"
import { KeyCheck } from "./Security.ts"

export const HealthView = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String,
  /** `simulator` when the server runs on the built-in simulator. */
  backend: Schema.Literals(["simulator", "custom"]),
  time: Schema.String
})
export type HealthView = typeof HealthView.Type

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/v1/health", { success: Envelope(HealthView) }).annotate(
      OpenApi.Summary,
      "Liveness"
    )
  )
  .annotate(OpenApi.Description, "Service status")
  .middleware(KeyCheck)
{}
