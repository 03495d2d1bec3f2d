/**
 * Limit orders on the wire (docs/reference/http-api.md#limit-orders): one order, with its limit
 * price derived from its amounts, and a page of them. The wire's value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import { PageView, pageView } from "./ListViews.ts"
import { toIso } from "./MarketClock.ts"
import { formatAmount } from "./Money.ts"
import { Network } from "./Network.ts"
import type { OrderRecord } from "./Order.ts"
import { OrderStatus } from "./Order.ts"
import type { Page } from "./Page.ts"
import type { TokenCatalog } from "./TokenRegistry.ts"
import { DecimalString, formatUnitRatio, IsoDateTime, isoOrNull } from "./WireFormats.ts"

/** A limit order on the wire (docs/reference/http-api.md#limit-orders). */
export const OrderView = Schema.Struct({
  id: Schema.String,
  status: OrderStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  minAmountOut: DecimalString,
  /** `minAmountOut / amountIn`: `tokenOut` per `tokenIn`, rounded down. */
  limitPrice: DecimalString,
  network: Network,
  /** Who signed: a base58 ed25519 public key on solana, a checksummed address on the EVM networks. */
  signer: Schema.String,
  /** The signer's signature over the order (docs/orders.md, "Signing"), made at creation. */
  signature: Schema.String,
  /** The wallet whose funds back the order. */
  walletAddress: Schema.String,
  createdAt: IsoDateTime,
  expiresAt: Schema.NullOr(IsoDateTime),
  /** The trade that filled (or tried to fill) the order. */
  tradeId: Schema.NullOr(Schema.String),
  /** When the order left `pending`: filled, failed, cancelled or expired. */
  closedAt: Schema.NullOr(IsoDateTime)
})
export type OrderView = typeof OrderView.Type

/** `GET /orders` `data`. */
export const OrderListView = PageView("orders", OrderView)
export type OrderListView = typeof OrderListView.Type

/** A limit order as `GET /orders/{id}`, `POST /orders` and `DELETE /orders/{id}` show it, amounts in `tokens`' decimals. */
export const orderView = (tokens: TokenCatalog) => (order: OrderRecord): OrderView => {
  const decimalsIn = tokens.tokenOf(order.tokenIn).decimals
  const decimalsOut = tokens.tokenOf(order.tokenOut).decimals
  return {
    id: order.id,
    status: order.status,
    tokenIn: order.tokenIn,
    tokenOut: order.tokenOut,
    amountIn: formatAmount(order.amountIn, decimalsIn),
    minAmountOut: formatAmount(order.minAmountOut, decimalsOut),
    limitPrice: formatUnitRatio(order.minAmountOut, decimalsOut, order.amountIn, decimalsIn),
    network: order.network,
    signer: order.signer,
    signature: order.signature,
    walletAddress: order.walletAddress,
    createdAt: toIso(order.createdAt),
    expiresAt: isoOrNull(order.expiresAt),
    tradeId: order.tradeId,
    closedAt: isoOrNull(order.closedAt)
  }
}

/** A page of orders as `GET /orders` answers it. */
export const orderListView = (tokens: TokenCatalog): (page: Page<OrderRecord>) => OrderListView =>
  pageView("orders", orderView(tokens))
