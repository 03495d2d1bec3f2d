/**
 * The limit order state machine as a pure function. Cancelling an order that is no longer open is
 * something a client can ask for: a typed error. Filling, failing or expiring a closed order only a
 * bug can do: a defect.
 *
 * | status  | event   | next      |
 * |---------|---------|-----------|
 * | pending | Fill    | confirmed |
 * | pending | Fail    | failed    |
 * | pending | Cancel  | cancelled |
 * | pending | Expire  | expired   |
 */
import { Data, Effect } from "effect"
import { OrderNotCancellable } from "./Errors.ts"
import type { OrderRecord, OrderStatus } from "./Order.ts"

export type OrderEvent = Data.TaggedEnum<{
  Fill: { readonly at: number; readonly tradeId: string }
  Fail: { readonly at: number; readonly tradeId: string | null }
  Cancel: { readonly at: number }
  Expire: { readonly at: number }
}>
export const OrderEvent = Data.taggedEnum<OrderEvent>()

export const orderTransitions: Record<OrderEvent["_tag"], { readonly from: OrderStatus; readonly to: OrderStatus }> = {
  Fill: { from: "pending", to: "confirmed" },
  Fail: { from: "pending", to: "failed" },
  Cancel: { from: "pending", to: "cancelled" },
  Expire: { from: "pending", to: "expired" }
}

export class IllegalOrderTransition extends Data.TaggedError("IllegalOrderTransition")<{
  readonly id: string
  readonly status: OrderStatus
  readonly event: OrderEvent["_tag"]
}> {}

export const applyOrderEvent = (order: OrderRecord, event: OrderEvent): OrderRecord => {
  const row = orderTransitions[event._tag]
  if (order.status !== row.from) {
    throw new IllegalOrderTransition({ id: order.id, status: order.status, event: event._tag })
  }
  const closed = { ...order, status: row.to, closedAt: event.at }
  return event._tag === "Fill" || event._tag === "Fail" ? { ...closed, tradeId: event.tradeId } : closed
}

/** A client's cancellation: only an open order can be cancelled. */
export const cancelOrder = (order: OrderRecord, at: number): Effect.Effect<OrderRecord, OrderNotCancellable> =>
  order.status !== "pending"
    ? Effect.fail(new OrderNotCancellable({ id: order.id, status: order.status }))
    : Effect.succeed(applyOrderEvent(order, OrderEvent.Cancel({ at })))
