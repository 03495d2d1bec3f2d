/**
 * `/v1/portfolio`: holdings, cost basis, PnL and performance across the connected wallets (scope `read`).
 */
import { PortfolioQuery, PortfolioView } from "@swapdesk/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { Authentication, RequiredScope } from "./Security.ts"

export class PortfolioApi extends HttpApiGroup.make("portfolio")
  .add(
    HttpApiEndpoint.get("get", "/v1/portfolio", {
      query: PortfolioQuery,
      success: Envelope(PortfolioView),
      error: BadRequest
    }).annotate(
      OpenApi.Summary,
      "Holdings valued now, weighted-average cost basis, realised and unrealised PnL, and the value's history"
    )
  )
  .annotate(OpenApi.Description, "The account's portfolio across its connected wallets, in USD (scope `read`)")
  .annotate(RequiredScope, "read")
  .middleware(Authentication)
{}
