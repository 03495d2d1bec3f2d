/**
 * `/v1/trades` and `/v1/quote`: swaps (scope `trade` to start one, `read` to look).
 */
import {
  CreateTradeBody,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  ListTradesQuery,
  QuoteQuery,
  QuoteView,
  TradeCreatedView,
  TradeListView,
  TradeView
} from "@swapdesk/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Conflict, NotFound, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { Authentication, RequiredScope } from "./Security.ts"

export const IdempotencyKey = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  Schema.isMaxLength(IDEMPOTENCY_KEY_MAX_LENGTH, {
    message: `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`
  })
)

export class TradesApi extends HttpApiGroup.make("trades")
  .add(
    HttpApiEndpoint.post("create", "/v1/trades", {
      headers: { "idempotency-key": Schema.optionalKey(IdempotencyKey) },
      payload: CreateTradeBody,
      success: Envelope(TradeCreatedView).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Conflict, Unprocessable, ...bodyErrors]
    })
      .annotate(RequiredScope, "trade")
      .annotate(OpenApi.Summary, "Start a swap; it is returned at once as pending")
      .annotate(
        OpenApi.Transform,
        operationExamples({
          body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana", slippage: 0.5 }
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/trades", {
      query: ListTradesQuery,
      success: Envelope(TradeListView),
      error: BadRequest
    })
      .annotate(RequiredScope, "read")
      .annotate(OpenApi.Summary, "The account's trade history, most recent first")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/trades/:id", {
      params: { id: Schema.String },
      success: Envelope(TradeView),
      error: NotFound
    })
      .annotate(RequiredScope, "read")
      .annotate(OpenApi.Summary, "Read one trade with every field")
      .annotate(OpenApi.Transform, operationExamples({ parameters: { id: "trd_V0EqxmPlrww0EEmI9QfJ" } }))
  )
  .add(
    HttpApiEndpoint.get("quote", "/v1/quote", {
      query: QuoteQuery,
      success: Envelope(QuoteView),
      error: [BadRequest, Unprocessable]
    })
      .annotate(RequiredScope, "read")
      .annotate(OpenApi.Summary, "What POST /trades would start with, executing nothing")
  )
  .annotate(OpenApi.Description, "Token swaps and quotes (scope `trade` to start a swap, `read` to look)")
  .middleware(Authentication)
{}
