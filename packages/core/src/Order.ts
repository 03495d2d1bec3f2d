/**
 * The limit order record: an off-chain order, signed at creation, held until the market's net
 * output for `amountIn` reaches `minAmountOut`.
 */
import { Schema } from "effect"
import type { Network } from "./Network.ts"

export const OrderStatus = Schema.Literals(["pending", "confirmed", "failed", "cancelled", "expired"])
export type OrderStatus = typeof OrderStatus.Type

export interface OrderRecord {
  readonly id: string
  readonly accountId: string
  readonly status: OrderStatus
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  readonly walletAddress: string
  readonly signature: string
  readonly createdAt: number
  readonly expiresAt: number | null
  readonly tradeId: string | null
  readonly closedAt: number | null
}
