/**
 * `/v1/orders`: limit orders signed by the wallet (scope `trade` to place or cancel, `read` to look).
 */
import { CreateOrderBody, ListOrdersQuery, OrderListView, OrderView, SubmitOrderSignatureBody } from "@swapdesk/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Conflict, NotFound } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import {
  documented,
  idempotentCreationRoute,
  idExample,
  itemRoute,
  queryRoute,
  ResourceId,
  walletAnswerRoute
} from "./Routes.ts"
import { Authentication } from "./Security.ts"

const orderId = idExample("ord_8fKq2ZxW4nLp7RtY3bVc")

/** `/v1/orders`: limit orders. */
export class OrdersApi extends HttpApiGroup.make("orders")
  .add(
    idempotentCreationRoute("create", "/v1/orders", CreateOrderBody, OrderView, {
      scope: "trade",
      summary: "Place a limit order: amountIn is reserved and the wallet signs it; " +
        "it fills when the market's net output reaches minAmountOut",
      examples: {
        body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", minAmountOut: "250", network: "solana" },
        parameters: { "idempotency-key": "my-first-order" }
      }
    }),
    queryRoute("list", "/v1/orders", ListOrdersQuery, OrderListView, {
      scope: "read",
      summary: "The account's limit orders, newest first"
    }),
    itemRoute("get", "/v1/orders/:id", OrderView, {
      scope: "read",
      summary: "Read one limit order",
      examples: orderId
    }),
    walletAnswerRoute("signature", "/v1/orders/:id/signature", SubmitOrderSignatureBody, OrderView, {
      scope: "trade",
      summary: "Live mode: an external wallet's EIP-712 signature over its order's typedData; " +
        "opens the order when it recovers to the wallet",
      examples: {
        parameters: { id: "ord_8fKq2ZxW4nLp7RtY3bVc" },
        body: { signature: `0x${"ab".repeat(64)}1b` }
      }
    }),
    HttpApiEndpoint.delete("cancel", "/v1/orders/:id", {
      params: ResourceId,
      success: Envelope(OrderView),
      error: [NotFound, Conflict]
    }).annotateMerge(documented({
      scope: "trade",
      summary: "Cancel an open order and release its funds; answers the cancelled order",
      examples: orderId
    }))
  )
  .annotate(OpenApi.Description, "Limit orders signed by the wallet (scope `trade` to place or cancel, `read` to look)")
  .middleware(Authentication)
{}
