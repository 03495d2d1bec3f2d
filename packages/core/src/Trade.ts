/**
 * The trade record: one swap from its creation through the wallet's approval and broadcast to its
 * confirmation or failure. Amounts are base units of their token.
 */
import { Schema } from "effect"
import type { Network } from "./Network.ts"

export const TradeStatus = Schema.Literals(["pending", "confirmed", "failed"])
export type TradeStatus = typeof TradeStatus.Type

/**
 * Where a trade is in its life. `pending` covers two stages: waiting for the wallet's approval,
 * and broadcast (signed and sent, waiting for inclusion and confirmations).
 */
export type TradeStage = "awaiting_approval" | "broadcast" | "confirmed" | "failed"

export const failureReasons = [
  "SLIPPAGE_EXCEEDED",
  "INSUFFICIENT_GAS",
  "NETWORK_ERROR",
  "WALLET_REJECTED",
  "APPROVAL_TIMEOUT"
] as const
export const FailureReason = Schema.Literals(failureReasons)
export type FailureReason = typeof FailureReason.Type

export const statusOfStage = (stage: TradeStage): TradeStatus =>
  stage === "confirmed" ? "confirmed" : stage === "failed" ? "failed" : "pending"

export interface TradeRecord {
  readonly id: string
  readonly accountId: string
  readonly stage: TradeStage
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: bigint
  /** Gross output at creation minus the fee: what the trader can expect. */
  readonly estimatedAmountOut: bigint
  /** The fee at creation; replaced by the fee on the actual output at confirmation. */
  readonly fee: bigint
  readonly minAmountOut: bigint
  /** Percent. */
  readonly slippage: number
  readonly walletAddress: string
  readonly createdAt: number
  readonly txHash: string | null
  readonly submittedAt: number | null
  readonly confirmedAt: number | null
  readonly amountOut: bigint | null
  /** Gas paid in the network's native token, once the transaction was executed. */
  readonly gasFee: bigint | null
  /** Gas estimated at creation, in the network's native token. */
  readonly estimatedGasFee: bigint
  readonly failureReason: FailureReason | null
  readonly orderId: string | null
  /**
   * tokenIn's USD price (decimal string) when the trade confirmed: the value of what it sold, for
   * the portfolio's cost basis and realised PnL. Absent until then.
   */
  readonly tokenInPriceUsd?: string
  /**
   * The ERC-20 approval a delegated wallet sent just before the swap, when its allowance was
   * short: its gas is part of `gasFee`, and a restart follows it with the swap.
   */
  readonly approvalTxHash?: string
}
