// Proves the limit order state machine is exactly its table: each row is its own test, every event outside it (on a
// closed order, or on the wrong stage of a pending one) is the IllegalOrderTransition defect, cancelling an order that
// is filling or closed is the typed OrderNotCancellable error a client can provoke, and random event sequences
// (fast-check, pinned seed) never leave the table.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Effect, Exit } from "effect"
import { OrderNotCancellable } from "../src/Errors.ts"
import type { OrderRecord, OrderStatus } from "../src/Order.ts"
import { isOpen, OrderStatus as OrderStatusSchema } from "../src/Order.ts"
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
const eventKinds = ["Match", "Fill", "Fail", "Cancel", "Expire"] as const
type EventKind = (typeof eventKinds)[number]

const eventOf = (kind: EventKind, at: number): OrderEvent => {
  switch (kind) {
    case "Match":
      return Events.Match({ tradeId: "trd_fill" })
    case "Fill":
      return Events.Fill({ at })
    case "Fail":
      return Events.Fail({ at })
    case "Cancel":
      return Events.Cancel({ at })
    case "Expire":
      return Events.Expire({ at })
  }
}

const filling = () => makeOrder({ tradeId: "trd_9" })

describe("order transitions: one test per table row", () => {
  const at = T0 + 30_000

  it("pending (open) --Match--> pending (filling), linked to the filling trade", () => {
    const next = applyOrderEvent(makeOrder(), Events.Match({ tradeId: "trd_9" }))
    assert.deepStrictEqual(next, { ...makeOrder(), tradeId: "trd_9" })
    assert.isFalse(isOpen(next))
  })

  it("pending (filling) --Fill--> confirmed", () => {
    assert.deepStrictEqual(applyOrderEvent(filling(), Events.Fill({ at })), {
      ...filling(),
      status: "confirmed",
      closedAt: at
    })
  })

  it("pending (either stage) --Fail--> failed, keeping the trade that failed (if one ran)", () => {
    assert.deepStrictEqual(applyOrderEvent(filling(), Events.Fail({ at })), {
      ...filling(),
      status: "failed",
      closedAt: at
    })
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Fail({ at })), {
      ...makeOrder(),
      status: "failed",
      closedAt: at
    })
  })

  it("pending (open) --Cancel--> cancelled, no trade", () => {
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Cancel({ at })), {
      ...makeOrder(),
      status: "cancelled",
      closedAt: at
    })
  })

  it("pending (open) --Expire--> expired, no trade", () => {
    assert.deepStrictEqual(applyOrderEvent(makeOrder(), Events.Expire({ at })), {
      ...makeOrder(),
      status: "expired",
      closedAt: at
    })
  })

  it("the table has exactly those five rows, all from pending", () => {
    assert.deepStrictEqual(
      Object.entries(orderTransitions).map(([event, row]) => `${row.from}/${row.stage} ${event} ${row.to}`).toSorted(),
      [
        "pending/any Fail failed",
        "pending/filling Fill confirmed",
        "pending/open Cancel cancelled",
        "pending/open Expire expired",
        "pending/open Match pending"
      ]
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
  for (const kind of ["Match", "Cancel", "Expire"] as const) {
    it(`pending (filling) --${kind}--> is the IllegalOrderTransition defect`, () => {
      assert.throws(() => applyOrderEvent(filling(), eventOf(kind, T0 + 2)), IllegalOrderTransition)
    })
  }
  it("pending (open) --Fill--> is the IllegalOrderTransition defect: a fill needs its trade", () => {
    assert.throws(() => applyOrderEvent(makeOrder(), eventOf("Fill", T0 + 2)), IllegalOrderTransition)
  })
})

describe("a client's cancellation (cancelOrder)", () => {
  it.effect("cancels an open order", () =>
    Effect.gen(function*() {
      const next = yield* cancelOrder(makeOrder(), T0 + 5)
      assert.strictEqual(next.status, "cancelled")
      assert.strictEqual(next.closedAt, T0 + 5)
    }))

  it.effect("an order whose fill is running is OrderNotCancellable, as filling", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(cancelOrder(filling(), T0 + 5))
      assert.instanceOf(error, OrderNotCancellable)
      assert.strictEqual(error.status, "filling")
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

  const allowed = (order: OrderRecord, kind: EventKind): boolean => {
    const row = orderTransitions[kind]
    return order.status === row.from && (row.stage === "any" || (row.stage === "open") === (order.tradeId === null))
  }

  test.prop([fc.array(step, { maxLength: 20 })], { seed: 5001, numRuns: 1000 })(
    "never leave the table: legal events move the order, everything else is refused and changes nothing",
    (steps) => {
      let order: OrderRecord = makeOrder()
      let at = T0
      for (const { dt, kind } of steps) {
        at += dt
        if (kind === "ClientCancel") {
          const exit = Effect.runSyncExit(cancelOrder(order, at))
          if (isOpen(order)) {
            assert.isTrue(Exit.isSuccess(exit))
            if (Exit.isSuccess(exit)) order = exit.value
          } else {
            assert.isTrue(Exit.isFailure(exit))
          }
        } else if (allowed(order, kind)) {
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
