/**
 * `/v1/portfolio`: holdings, cost basis, PnL and performance across the connected wallets (scope `read`).
 */
import { PortfolioQuery, PortfolioView } from "@swapdesk/core"
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { queryRoute } from "./Routes.ts"
import { Authentication, RequiredScope } from "./Security.ts"

/** `/v1/portfolio`: holdings, cost basis and P&L. */
export class PortfolioApi extends HttpApiGroup.make("portfolio")
  .add(
    queryRoute("get", "/v1/portfolio", PortfolioQuery, PortfolioView, {
      summary: "Holdings valued now, weighted-average cost basis, realised and unrealised PnL, and the value's history"
    })
  )
  .annotate(OpenApi.Description, "The account's portfolio across its connected wallets, in USD (scope `read`)")
  .annotate(RequiredScope, "read")
  .middleware(Authentication)
{}
