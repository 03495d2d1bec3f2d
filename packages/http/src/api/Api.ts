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
import { ApiKeysApi } from "./ApiKeysApi.ts"
import { documentExamples } from "./Examples.ts"
import { ChartsApi, MarketApi } from "./MarketApi.ts"
import { OrdersApi } from "./OrdersApi.ts"
import { PortfolioApi } from "./PortfolioApi.ts"
import { RequestValidation } from "./RequestValidation.ts"
import { documentResponseHeaders } from "./ResponseHeaders.ts"
import { documentBearer } from "./Security.ts"
import { SystemApi } from "./SystemApi.ts"
import { TokensApi } from "./TokensApi.ts"
import { TradesApi } from "./TradesApi.ts"

const contract = HttpApi.make("swapdesk")
  .add(SystemApi)
  .add(TokensApi)
  .add(MarketApi)
  .add(ChartsApi)
  .add(TradesApi)
  .add(AlertsApi)
  .add(OrdersApi)
  .add(PortfolioApi)
  .add(ApiKeysApi)
  .add(NotificationsApi)
  .add(WebhooksApi)
  .middleware(RequestValidation)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  // Every bad query parameter is its own detail, as for bodies; unknown ones are ignored.
  .annotate(HttpApi.QueryParseOptions, queryParseOptions)
  .annotate(OpenApi.Title, "swapdesk")
  .annotate(OpenApi.Version, VERSION)
  .annotate(OpenApi.License, { name: "MIT", identifier: "MIT" })
  // Relative: tools reading the document from a server send requests to that same server, wherever it listens.
  .annotate(OpenApi.Servers, [{ url: "/", description: "The server this document is served from" }])
  .annotate(
    OpenApi.Description,
    "Token swaps on solana, ethereum, base and arbitrum, limit orders signed by the wallet, market data, " +
      "alerts, the portfolio and API keys. Authenticate with " +
      "`Authorization: Bearer <key>`; every response carries the success or error envelope."
  )

/** The contract: what any swapdesk server serves. */
export class Api extends contract.annotate(
  OpenApi.Transform,
  (document) => documentExamples(documentResponseHeaders(contract)(documentBearer(contract)(document)))
) {}
