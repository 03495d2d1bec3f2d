/**
 * The limit order record: an off-chain order, signed by the wallet at creation, held until the
 * market's net output for `amountIn` reaches `minAmountOut` (docs/orders.md).
 */
import { Schema } from "effect"
import type { Network } from "./Network.ts"
import type { OrderAllowance, OrderTypedDataJson } from "./OrderSigning.ts"
import type { TokenCatalog } from "./TokenRegistry.ts"

export const OrderStatus = Schema.Literals(["pending", "confirmed", "failed", "cancelled", "expired"])
export type OrderStatus = typeof OrderStatus.Type

export interface OrderRecord {
  readonly id: string
  readonly accountId: string
  /**
   * `pending` covers two stages: open (waiting for its price, `tradeId` null) and filling (the
   * trade `tradeId` is running). Only an open order can be cancelled or expire.
   */
  readonly status: OrderStatus
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  /** The wallet whose funds back the order. */
  readonly walletAddress: string
  /** Who signed: a base58 ed25519 public key on solana, a checksummed address on the EVM networks. */
  readonly signer: string
  /** Null while an external wallet's order waits for its owner's signature (`signatureDueAt`). */
  readonly signature: string | null
  /** The contract that fills the order, named in its EIP-712 domain (live networks only). */
  readonly verifyingContract?: string | undefined
  /** What an external wallet signs: the exact `eth_signTypedData_v4` payload (live networks only). */
  readonly typedData?: OrderTypedDataJson | undefined
  /** The ERC-20 approval an external wallet must give the contract for `tokenIn`, or null (live only). */
  readonly allowance?: OrderAllowance | null | undefined
  /** When an unsigned order expires if its signature has not come (milliseconds since the epoch). */
  readonly signatureDueAt?: number | undefined
  readonly createdAt: number
  /** A whole second (what is signed is Unix seconds), or null for an order that never expires. */
  readonly expiresAt: number | null
  readonly tradeId: string | null
  readonly closedAt: number | null
}

/** `minAmountOut / amountIn` in whole tokens, as the order index compares it. */
export const limitPriceOf = (order: OrderRecord, tokens: TokenCatalog): number =>
  (Number(order.minAmountOut) / Number(order.amountIn)) *
  10 ** (tokens.tokenOf(order.tokenIn).decimals - tokens.tokenOf(order.tokenOut).decimals)

/** Waiting for its price: signed, neither filling nor closed. */
export const isOpen = (order: OrderRecord): boolean =>
  order.status === "pending" && order.tradeId === null && order.signature !== null

/** Created for an external wallet and waiting for its owner's signature: not yet watched. */
export const awaitsSignature = (order: OrderRecord): boolean =>
  order.status === "pending" && order.tradeId === null && order.signature === null
