/**
 * `/v1/orders`: limit orders signed by the wallet (scope `trade` to place or cancel, `read` to look).
 */
import { CreateOrderBody, ListOrdersQuery, OrderListView, OrderView } from "@swapdesk/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Conflict, NotFound, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { Authentication, RequiredScope } from "./Security.ts"
import { IdempotencyKey } from "./TradesApi.ts"

const OrderId = { id: Schema.String }
const orderIdExample = operationExamples({ parameters: { id: "ord_8fKq2ZxW4nLp7RtY3bVc" } })

export class OrdersApi extends HttpApiGroup.make("orders")
  .add(
    HttpApiEndpoint.post("create", "/v1/orders", {
      headers: {
        "idempotency-key": Schema.optionalKey(IdempotencyKey)
      },
      payload: CreateOrderBody,
      success: Envelope(OrderView).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Conflict, Unprocessable, ...bodyErrors]
    })
      .annotate(RequiredScope, "trade")
      .annotate(
        OpenApi.Summary,
        "Place a limit order: amountIn is reserved and the wallet signs it; it fills when the market's net output reaches minAmountOut"
      )
      .annotate(
        OpenApi.Transform,
        operationExamples({
          body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", minAmountOut: "250", network: "solana" },
          parameters: { "idempotency-key": "my-first-order" }
        })
      )
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/orders", {
      query: ListOrdersQuery,
      success: Envelope(OrderListView),
      error: BadRequest
    })
      .annotate(RequiredScope, "read")
      .annotate(OpenApi.Summary, "The account's limit orders, newest first")
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/orders/:id", {
      params: OrderId,
      success: Envelope(OrderView),
      error: NotFound
    })
      .annotate(RequiredScope, "read")
      .annotate(OpenApi.Summary, "Read one limit order")
      .annotate(OpenApi.Transform, orderIdExample)
  )
  .add(
    HttpApiEndpoint.delete("cancel", "/v1/orders/:id", {
      params: OrderId,
      success: Envelope(OrderView),
      error: [NotFound, Conflict]
    })
      .annotate(RequiredScope, "trade")
      .annotate(OpenApi.Summary, "Cancel an open order and release its funds; answers the cancelled order")
      .annotate(OpenApi.Transform, orderIdExample)
  )
  .annotate(OpenApi.Description, "Limit orders signed by the wallet (scope `trade` to place or cancel, `read` to look)")
  .middleware(Authentication)
{}
