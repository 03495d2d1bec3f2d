/**
 * The trade state machine as a pure function. A transition a client can provoke (approving a trade
 * that is no longer waiting for approval) is a typed error; any other transition out of the table
 * means the caller is wrong, and is a defect.
 *
 * | stage              | event             | next stage | sets                                      |
 * |--------------------|-------------------|------------|-------------------------------------------|
 * | awaiting_approval  | Broadcast         | broadcast  | txHash, submittedAt                       |
 * | awaiting_approval  | Rejected          | failed     | failureReason WALLET_REJECTED             |
 * | awaiting_approval  | ApprovalTimedOut  | failed     | failureReason APPROVAL_TIMEOUT            |
 * | broadcast          | Confirmed         | confirmed  | amountOut, fee, gasFee, confirmedAt       |
 * | broadcast          | Failed            | failed     | failureReason (execution), gasFee         |
 * | confirmed          | Reorganised       | broadcast  | clears amountOut, gasFee, confirmedAt     |
 *
 * `Reorganised` happens on real chains only: a reorganisation removed a block that counted toward
 * the trade's confirmations, so its outcome is unknown again until its transaction is confirmed
 * again or dropped (docs/decisions.md, "A confirmed trade can be reorganised").
 */
import { Data, Effect } from "effect"
import { TradeNotAwaitingApproval } from "./Errors.ts"
import type { FailureReason, TradeRecord, TradeStage } from "./Trade.ts"

export type TradeEvent = Data.TaggedEnum<{
  Broadcast: { readonly at: number; readonly txHash: string }
  Rejected: { readonly at: number }
  ApprovalTimedOut: { readonly at: number }
  Confirmed: { readonly at: number; readonly amountOut: bigint; readonly fee: bigint; readonly gasFee: bigint }
  Failed: {
    readonly at: number
    readonly reason: Exclude<FailureReason, "WALLET_REJECTED" | "APPROVAL_TIMEOUT">
    readonly gasFee: bigint
  }
  Reorganised: { readonly at: number }
}>
export const TradeEvent = Data.taggedEnum<TradeEvent>()

/** The stage each event may leave from: the table above, one row per event. */
export const tradeTransitions: Record<TradeEvent["_tag"], { readonly from: TradeStage; readonly to: TradeStage }> = {
  Broadcast: { from: "awaiting_approval", to: "broadcast" },
  Rejected: { from: "awaiting_approval", to: "failed" },
  ApprovalTimedOut: { from: "awaiting_approval", to: "failed" },
  Confirmed: { from: "broadcast", to: "confirmed" },
  Failed: { from: "broadcast", to: "failed" },
  Reorganised: { from: "confirmed", to: "broadcast" }
}

/** A transition that only a bug can reach. */
export class IllegalTradeTransition extends Data.TaggedError("IllegalTradeTransition")<{
  readonly id: string
  readonly stage: TradeStage
  readonly event: TradeEvent["_tag"]
}> {}

/** Applies an event, or names why it cannot apply (the defect case is a thrown error). */
export const applyTradeEvent = (trade: TradeRecord, event: TradeEvent): TradeRecord => {
  const row = tradeTransitions[event._tag]
  if (trade.stage !== row.from) {
    throw new IllegalTradeTransition({ id: trade.id, stage: trade.stage, event: event._tag })
  }
  switch (event._tag) {
    case "Broadcast":
      return { ...trade, stage: "broadcast", txHash: event.txHash, submittedAt: event.at }
    case "Rejected":
      return { ...trade, stage: "failed", failureReason: "WALLET_REJECTED" }
    case "ApprovalTimedOut":
      return { ...trade, stage: "failed", failureReason: "APPROVAL_TIMEOUT" }
    case "Confirmed":
      return {
        ...trade,
        stage: "confirmed",
        amountOut: event.amountOut,
        fee: event.fee,
        gasFee: event.gasFee,
        confirmedAt: event.at
      }
    case "Failed":
      return { ...trade, stage: "failed", failureReason: event.reason, gasFee: event.gasFee }
    case "Reorganised":
      // The fee stays the one last measured: the closest figure to what the trade will pay.
      return { ...trade, stage: "broadcast", amountOut: null, gasFee: null, confirmedAt: null }
  }
}

/** The wallet's decision on a trade: only a trade awaiting approval can take one. */
export const decideApproval = (
  trade: TradeRecord,
  approve: boolean,
  at: number,
  txHash: string
): Effect.Effect<TradeRecord, TradeNotAwaitingApproval> =>
  trade.stage !== "awaiting_approval"
    ? Effect.fail(new TradeNotAwaitingApproval({ id: trade.id }))
    : Effect.succeed(
      applyTradeEvent(trade, approve ? TradeEvent.Broadcast({ at, txHash }) : TradeEvent.Rejected({ at }))
    )

export const isTerminal = (stage: TradeStage): boolean => stage === "confirmed" || stage === "failed"
