/**
 * The limit order state machine as a pure function. `pending` has two stages: open (no trade yet)
 * and filling (`Match` named the trade that fills it). Cancelling an order that is no longer open
 * is something a client can ask for: a typed error. Any other event outside the table only a bug
 * can cause: a defect.
 *
 * | from                 | event   | next                    |
 * |----------------------|---------|-------------------------|
 * | pending (open)       | Match   | pending (filling)       |
 * | pending (filling)    | Fill    | confirmed               |
 * | pending (either)     | Fail    | failed                  |
 * | pending (open)       | Cancel  | cancelled               |
 * | pending (open)       | Expire  | expired                 |
 */
import { Data, Effect } from "effect"
import { OrderNotCancellable } from "./Errors.ts"
import type { OrderRecord, OrderStatus } from "./Order.ts"

export type OrderEvent = Data.TaggedEnum<{
  Match: { readonly tradeId: string }
  Fill: { readonly at: number }
  Fail: { readonly at: number }
  Cancel: { readonly at: number }
  Expire: { readonly at: number }
}>
export const OrderEvent = Data.taggedEnum<OrderEvent>()

/** The stage of `pending` an event needs: `open` (no trade), `filling` (a trade) or `any`. */
export type PendingStage = "open" | "filling" | "any"

export const orderTransitions: Record<
  OrderEvent["_tag"],
  { readonly from: OrderStatus; readonly stage: PendingStage; readonly to: OrderStatus }
> = {
  Match: { from: "pending", stage: "open", to: "pending" },
  Fill: { from: "pending", stage: "filling", to: "confirmed" },
  Fail: { from: "pending", stage: "any", to: "failed" },
  Cancel: { from: "pending", stage: "open", to: "cancelled" },
  Expire: { from: "pending", stage: "open", to: "expired" }
}

export class IllegalOrderTransition extends Data.TaggedError("IllegalOrderTransition")<{
  readonly id: string
  readonly status: OrderStatus
  readonly event: OrderEvent["_tag"]
}> {}

const stageMatches = (order: OrderRecord, stage: PendingStage): boolean =>
  stage === "any" || (stage === "open") === (order.tradeId === null)

export const applyOrderEvent = (order: OrderRecord, event: OrderEvent): OrderRecord => {
  const row = orderTransitions[event._tag]
  if (order.status !== row.from || !stageMatches(order, row.stage)) {
    throw new IllegalOrderTransition({ id: order.id, status: order.status, event: event._tag })
  }
  return event._tag === "Match"
    ? { ...order, tradeId: event.tradeId }
    : { ...order, status: row.to, closedAt: event.at }
}

/** A client's cancellation: only an open order can be cancelled (not one whose fill is running). */
export const cancelOrder = (order: OrderRecord, at: number): Effect.Effect<OrderRecord, OrderNotCancellable> =>
  order.status !== "pending" || order.tradeId !== null
    ? Effect.fail(new OrderNotCancellable({ id: order.id, status: order.tradeId === null ? order.status : "filling" }))
    : Effect.succeed(applyOrderEvent(order, OrderEvent.Cancel({ at })))
