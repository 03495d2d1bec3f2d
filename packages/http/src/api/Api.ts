/**
 * The whole REST contract as one `HttpApi` definition, kept apart from its handlers: the server,
 * the OpenAPI document and the typed client all derive from it. A server may add groups of its
 * own (the standalone server adds the simulator's control routes).
 */
import { queryParseOptions } from "@swapdesk/core"
import { HttpApi, OpenApi } from "effect/http-api"
import { VERSION } from "../Version.ts"
import { NotificationsApi, WebhooksApi } from "./AccountApi.ts"
import { AlertsApi } from "./AlertsApi.ts"
import { ChartsApi, MarketApi } from "./MarketApi.ts"
import { RequestValidation } from "./RequestValidation.ts"
import { documentResponseHeaders } from "./ResponseHeaders.ts"
import { documentBearer } from "./Security.ts"
import { SystemApi } from "./SystemApi.ts"
import { TradesApi } from "./TradesApi.ts"

const contract = HttpApi.make("swapdesk")
  .add(SystemApi)
  .add(MarketApi)
  .add(ChartsApi)
  .add(TradesApi)
  .add(AlertsApi)
  .add(NotificationsApi)
  .add(WebhooksApi)
  .middleware(RequestValidation)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  // Every bad query parameter is its own detail, as for bodies; unknown ones are ignored.
  .annotate(HttpApi.QueryParseOptions, queryParseOptions)
  .annotate(OpenApi.Title, "swapdesk")
  .annotate(OpenApi.Version, VERSION)
  .annotate(OpenApi.License, { name: "MIT", identifier: "MIT" })
  .annotate(OpenApi.Servers, [{ url: "http://127.0.0.1:3000", description: "The standalone server's default address" }])
  .annotate(
    OpenApi.Description,
    "Token swaps on solana, ethereum, base and arbitrum, market data and alerts. Authenticate with " +
      "`Authorization: Bearer <key>`; every response carries the success or error envelope."
  )

/** The contract: what any swapdesk server serves. */
export class Api extends contract.annotate(
  OpenApi.Transform,
  (document) => documentResponseHeaders(contract)(documentBearer(contract)(document))
) {}
