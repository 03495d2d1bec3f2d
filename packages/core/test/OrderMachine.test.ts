// Proves the limit order state machine is exactly its table: each row is its own test, every event on a closed order is
// the IllegalOrderTransition defect, cancelling a closed order is the typed OrderNotCancellable error a client can
// provoke, and random event sequences (fast-check, pinned seed) never leave the legal statuses.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Effect, Exit } from "effect"
import { OrderNotCancellable } from "../src/Errors.ts"
import type { OrderRecord, OrderStatus } from "../src/Order.ts"
import { OrderStatus as OrderStatusSchema } from "../src/Order.ts"
import {
  applyOrderEvent,
  cancelOrder,
  IllegalOrderTransition,
  type OrderEvent,
  OrderEvent as Events,
  orderTransitions
} from "../src/OrderMachine.ts"
import { makeOrder, T0 } from "./fixtures.ts"

const statuses: ReadonlyArray<OrderStatus> = OrderStatusSchema.literals
const eventKinds = ["Fill", "Fail", "Cancel", "Expire"] as const
type EventKind = (typeof eventKinds)[number]

const eventOf = (kind: EventKind, at: number): OrderEvent => {
  switch (kind) {
    case "Fill":
      return Events.Fill({ at, tradeId: "trd_fill" })
    case "Fail":
      return Events.Fail({ at, tradeId: "trd_fail" })
    case "Cancel":
      return Events.Cancel({ at })
    case "Expire":
      return Events.Expire({ at })
  }
}

describe("order transitions: one test per table row", () => {
  const at = T0 + 30_000

  it("pending --Fill--> confirmed, linked to the filling trade", () => {
    const next = applyOrderEvent(makeOrder(), Events.Fill({ at, tradeId: "trd_9" }))
    assert.deepStrictEqual(next, { ...makeOrder(), status: "confirmed", tradeId: "trd_9", closedAt: at })
  })

  it("pending --Fail--> failed, linked to the trade that failed (if one ran)", () => {
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Fail({ at, tradeId: "trd_9" })), {
      ...makeOrder(),
      status: "failed",
      tradeId: "trd_9",
      closedAt: at
    })
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Fail({ at, tradeId: null })), {
      ...makeOrder(),
      status: "failed",
      tradeId: null,
      closedAt: at
    })
  })

  it("pending --Cancel--> cancelled, no trade", () => {
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Cancel({ at })), {
      ...makeOrder(),
      status: "cancelled",
      closedAt: at
    })
  })

  it("pending --Expire--> expired, no trade", () => {
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Expire({ at })), {
      ...makeOrder(),
      status: "expired",
      closedAt: at
    })
  })

  it("the table has exactly those four rows, all leaving pending", () => {
    assert.deepStrictEqual(
      Object.entries(orderTransitions).map(([event, row]) => `${row.from} ${event} ${row.to}`).toSorted(),
      ["pending Cancel cancelled", "pending Expire expired", "pending Fail failed", "pending Fill confirmed"]
    )
  })
})

describe("order transitions outside the table", () => {
  for (const status of statuses.filter((s) => s !== "pending")) {
    for (const kind of eventKinds) {
      it(`${status} --${kind}--> is the IllegalOrderTransition defect`, () => {
        const closed = makeOrder({ status, closedAt: T0 + 1 })
        assert.throws(() => applyOrderEvent(closed, eventOf(kind, T0 + 2)), IllegalOrderTransition)
      })
    }
  }
})

describe("a client's cancellation (cancelOrder)", () => {
  it.effect("cancels an open order", () =>
    Effect.gen(function*() {
      const next = yield* cancelOrder(makeOrder(), T0 + 5)
      assert.strictEqual(next.status, "cancelled")
      assert.strictEqual(next.closedAt, T0 + 5)
    }))

  for (const status of ["confirmed", "failed", "cancelled", "expired"] as const) {
    it.effect(`a ${status} order is OrderNotCancellable, naming its status`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(cancelOrder(makeOrder({ status, closedAt: T0 + 1 }), T0 + 5))
        assert.instanceOf(error, OrderNotCancellable)
        assert.strictEqual(error.status, status)
        assert.strictEqual(error.code, "ORDER_NOT_CANCELLABLE")
      }))
  }
})

describe("random event sequences", () => {
  const step = fc.record({
    kind: fc.constantFrom<EventKind | "ClientCancel">(...eventKinds, "ClientCancel"),
    dt: fc.integer({ min: 0, max: 600_000 })
  })

  test.prop([fc.array(step, { maxLength: 20 })], { seed: 5001, numRuns: 1000 })(
    "never leave the table: the first event closes the order, everything after it is refused",
    (steps) => {
      let order: OrderRecord = makeOrder()
      let at = T0
      for (const { dt, kind } of steps) {
        at += dt
        const wasOpen = order.status === "pending"
        if (kind === "ClientCancel") {
          const exit = Effect.runSyncExit(cancelOrder(order, at))
          if (wasOpen) {
            assert.isTrue(Exit.isSuccess(exit))
            if (Exit.isSuccess(exit)) order = exit.value
          } else {
            assert.deepStrictEqual(exit, Exit.fail(new OrderNotCancellable({ id: order.id, status: order.status })))
          }
        } else if (wasOpen) {
          order = applyOrderEvent(order, eventOf(kind, at))
          assert.strictEqual(order.status, orderTransitions[kind].to)
        } else {
          assert.throws(() => applyOrderEvent(order, eventOf(kind, at)), IllegalOrderTransition)
        }
        assert.include(statuses, order.status)
        assert.strictEqual(order.closedAt !== null, order.status !== "pending", "closedAt exactly when closed")
        if (order.status === "confirmed") assert.isNotNull(order.tradeId, "a fill names its trade")
        if (order.status === "cancelled" || order.status === "expired") assert.isNull(order.tradeId)
      }
    }
  )
})
