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
import { DecimalString, formatUnitRatio, IsoDateTime, isoOrNull, RateString } from "./WireFormats.ts"

/** An integer the chain counts, as a decimal string (JSON numbers cannot hold a uint256). */
const ChainInteger = Schema.String.annotate({ examples: ["100000000"] })

const TypedField = Schema.Struct({ name: Schema.String, type: Schema.String })

/** EIP-712 typed data as `eth_signTypedData_v4` takes it: uint256 values as decimal strings. */
export const OrderTypedDataView = Schema.Struct({
  types: Schema.Struct({ EIP712Domain: Schema.Array(TypedField), Order: Schema.Array(TypedField) }),
  primaryType: Schema.Literal("Order"),
  domain: Schema.Struct({
    name: Schema.String,
    version: Schema.String,
    chainId: Schema.Int,
    verifyingContract: Schema.String
  }),
  message: Schema.Struct({
    id: Schema.String,
    maker: Schema.String,
    tokenIn: Schema.String,
    tokenOut: Schema.String,
    amountIn: Schema.String,
    minAmountOut: Schema.String,
    expiresAt: Schema.String
  })
})

/** An ERC-20 approval the wallet must send, as trades' `approval.allowance`: base units as decimal strings. */
export const OrderAllowanceView = Schema.Struct({
  token: Schema.String,
  spender: Schema.String,
  required: ChainInteger,
  current: ChainInteger
})

/** A limit order on the wire (docs/reference/http-api.md#limit-orders). */
export const OrderView = Schema.Struct({
  id: Schema.String,
  status: OrderStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  minAmountOut: DecimalString,
  /** `minAmountOut / amountIn`: `tokenOut` per `tokenIn`, rounded down to 10 significant digits. */
  limitPrice: RateString,
  network: Network,
  /** Who signed: a base58 ed25519 public key on solana, a checksummed address on the EVM networks. */
  signer: Schema.String,
  /**
   * The signer's signature over the order (docs/orders.md, "Signing"), made at creation; null while
   * an external wallet's order waits for its owner to sign `typedData` (live mode).
   */
  signature: Schema.NullOr(Schema.String),
  /** Live mode: the contract that fills the order, the `verifyingContract` of its EIP-712 domain. */
  verifyingContract: Schema.optionalKey(Schema.String),
  /**
   * Live mode, an external wallet's order: the exact payload `eth_signTypedData_v4` takes (uint256
   * values as decimal strings); the owner answers `POST /orders/{id}/signature`.
   */
  typedData: Schema.optionalKey(OrderTypedDataView),
  /** Live mode, an external wallet's order: the ERC-20 approval of `tokenIn` the contract needs, or null. */
  allowance: Schema.optionalKey(Schema.NullOr(OrderAllowanceView)),
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
    ...(order.verifyingContract === undefined ? {} : { verifyingContract: order.verifyingContract }),
    ...(order.typedData === undefined ? {} : { typedData: order.typedData }),
    ...(order.allowance === undefined
      ? {}
      : {
        allowance: order.allowance === null
          ? null
          : {
            token: order.allowance.token,
            spender: order.allowance.spender,
            required: order.allowance.required.toString(),
            current: order.allowance.current.toString()
          }
      }),
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
