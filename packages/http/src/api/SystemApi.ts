/**
 * `/v1/health`: is the service up, and on what.
 */
import { Schema } from "effect"
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { readRoute } from "./Routes.ts"
import { KeyCheck } from "./Security.ts"

export const HealthView = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String,
  /** What the service runs on (`Backend`): named by the server that composes the routes. */
  backend: Schema.String.annotate({
    description: "What the service runs on: `simulator` on the built-in simulator, `custom` on other adapters"
  }),
  time: Schema.String
})
export type HealthView = typeof HealthView.Type

export class SystemApi extends HttpApiGroup.make("system")
  .add(
    readRoute("health", "/v1/health", HealthView, { summary: "Liveness" })
  )
  .annotate(OpenApi.Description, "Service status")
  .middleware(KeyCheck)
{}
