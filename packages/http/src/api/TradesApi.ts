/**
 * `/v1/trades` and `/v1/quote`: swaps (scope `trade` to start one, `read` to look).
 */
import {
  CreateTradeBody,
  ListTradesQuery,
  QuoteQuery,
  QuoteView,
  TradeApprovalBody,
  TradeCreatedView,
  TradeListView,
  TradeView
} from "@swapdesk/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, ServiceUnavailable, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { documented, idempotentCreationRoute, idExample, itemRoute, queryRoute, walletAnswerRoute } from "./Routes.ts"
import { Authentication } from "./Security.ts"

/** `/v1/quote` and `/v1/trades`: quotes, swaps and their approvals. */
export class TradesApi extends HttpApiGroup.make("trades")
  .add(
    idempotentCreationRoute("create", "/v1/trades", CreateTradeBody, TradeCreatedView, {
      scope: "trade",
      summary: "Start a swap; it is returned at once as pending",
      examples: { body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana", slippage: 0.5 } }
    }),
    queryRoute("list", "/v1/trades", ListTradesQuery, TradeListView, {
      scope: "read",
      summary: "The account's trade history, most recent first"
    }),
    itemRoute("get", "/v1/trades/:id", TradeView, {
      scope: "read",
      summary: "Read one trade with every field",
      examples: idExample("trd_V0EqxmPlrww0EEmI9QfJ")
    }),
    walletAnswerRoute("approval", "/v1/trades/:id/approval", TradeApprovalBody, TradeView, {
      scope: "trade",
      summary: "An external wallet's answer to its trade awaiting approval: the prepared swap signed, " +
        "the hash of the swap it broadcast, or a rejection",
      examples: {
        parameters: { id: "trd_V0EqxmPlrww0EEmI9QfJ" },
        body: { txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" }
      }
    }),
    HttpApiEndpoint.get("quote", "/v1/quote", {
      query: QuoteQuery,
      success: Envelope(QuoteView),
      error: [BadRequest, Unprocessable, ServiceUnavailable]
    }).annotateMerge(documented({ scope: "read", summary: "What POST /trades would start with, executing nothing" }))
  )
  .annotate(OpenApi.Description, "Token swaps and quotes (scope `trade` to start a swap, `read` to look)")
  .middleware(Authentication)
{}
