// Proves the trade state machine is exactly its table: each row is its own test with the fields it sets, every other
// (stage, event) pair is the IllegalTradeTransition defect, the wallet's decision on a trade that is not awaiting
// approval is the typed TradeNotAwaitingApproval error a client can provoke, and random event sequences (fast-check,
// pinned seed) never leave the legal stages or break the fields each stage promises.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Effect, Exit } from "effect"
import { TradeNotAwaitingApproval } from "../src/Errors.ts"
import type { TradeRecord, TradeStage } from "../src/Trade.ts"
import { statusOfStage } from "../src/Trade.ts"
import {
  applyTradeEvent,
  decideApproval,
  IllegalTradeTransition,
  isTerminal,
  type TradeEvent,
  TradeEvent as Events,
  tradeTransitions
} from "../src/TradeMachine.ts"
import { makeTrade, T0 } from "./fixtures.ts"

const stages: ReadonlyArray<TradeStage> = ["awaiting_approval", "broadcast", "confirmed", "failed"]
const eventKinds = ["Broadcast", "Rejected", "ApprovalTimedOut", "Confirmed", "Failed", "Reorganised"] as const
type EventKind = (typeof eventKinds)[number]

const eventOf = (kind: EventKind, at: number): TradeEvent => {
  switch (kind) {
    case "Broadcast":
      return Events.Broadcast({ at, txHash: `tx_${at}` })
    case "Rejected":
      return Events.Rejected({ at })
    case "ApprovalTimedOut":
      return Events.ApprovalTimedOut({ at })
    case "Confirmed":
      return Events.Confirmed({ at, amountOut: 149_000_000n, fee: 373_000n, gasFee: 5_100n })
    case "Failed":
      return Events.Failed({ at, reason: "SLIPPAGE_EXCEEDED", gasFee: 4_900n })
    case "Reorganised":
      return Events.Reorganised({ at })
  }
}

/** A trade that has legitimately reached `stage`, with the fields that stage carries. */
const tradeAt = (stage: TradeStage): TradeRecord => {
  const broadcast = makeTrade({ stage: "broadcast", txHash: "tx_0", submittedAt: T0 + 1 })
  switch (stage) {
    case "awaiting_approval":
      return makeTrade()
    case "broadcast":
      return broadcast
    case "confirmed":
      return { ...broadcast, stage, amountOut: 149_000_000n, fee: 373_000n, gasFee: 5_000n, confirmedAt: T0 + 2 }
    case "failed":
      return { ...broadcast, stage, failureReason: "NETWORK_ERROR", gasFee: 5_000n }
  }
}

describe("trade transitions: one test per table row", () => {
  const at = T0 + 10_000

  it("awaiting_approval --Broadcast--> broadcast: txHash and submittedAt set, still pending", () => {
    const next = applyTradeEvent(makeTrade(), Events.Broadcast({ at, txHash: "0xabc" }))
    assert.deepStrictEqual(next, { ...makeTrade(), stage: "broadcast", txHash: "0xabc", submittedAt: at })
    assert.strictEqual(statusOfStage(next.stage), "pending")
  })

  it("awaiting_approval --Rejected--> failed with WALLET_REJECTED, never broadcast", () => {
    const next = applyTradeEvent(makeTrade(), Events.Rejected({ at }))
    assert.deepStrictEqual(next, { ...makeTrade(), stage: "failed", failureReason: "WALLET_REJECTED" })
    assert.strictEqual(statusOfStage(next.stage), "failed")
  })

  it("awaiting_approval --ApprovalTimedOut--> failed with APPROVAL_TIMEOUT", () => {
    const next = applyTradeEvent(makeTrade(), Events.ApprovalTimedOut({ at }))
    assert.deepStrictEqual(next, { ...makeTrade(), stage: "failed", failureReason: "APPROVAL_TIMEOUT" })
  })

  it("broadcast --Confirmed--> confirmed: amountOut, the actual fee, gasFee and confirmedAt set", () => {
    const trade = tradeAt("broadcast")
    const next = applyTradeEvent(
      trade,
      Events.Confirmed({ at, amountOut: 149_000_000n, fee: 373_000n, gasFee: 5_100n })
    )
    assert.deepStrictEqual(next, {
      ...trade,
      stage: "confirmed",
      amountOut: 149_000_000n,
      fee: 373_000n,
      gasFee: 5_100n,
      confirmedAt: at
    })
    assert.strictEqual(statusOfStage(next.stage), "confirmed")
  })

  it("broadcast --Failed--> failed with the execution's reason and the gas it burned", () => {
    const trade = tradeAt("broadcast")
    const next = applyTradeEvent(trade, Events.Failed({ at, reason: "INSUFFICIENT_GAS", gasFee: 4_900n }))
    assert.deepStrictEqual(next, { ...trade, stage: "failed", failureReason: "INSUFFICIENT_GAS", gasFee: 4_900n })
  })

  it("confirmed --Reorganised--> broadcast: the outcome is unknown again, the fee keeps its last figure", () => {
    const trade = tradeAt("confirmed")
    const next = applyTradeEvent(trade, Events.Reorganised({ at }))
    assert.deepStrictEqual(next, { ...trade, stage: "broadcast", amountOut: null, gasFee: null, confirmedAt: null })
    assert.strictEqual(statusOfStage(next.stage), "pending")
  })

  it("the table has exactly those six rows", () => {
    assert.deepStrictEqual(
      Object.entries(tradeTransitions).map(([event, row]) => `${row.from} ${event} ${row.to}`).toSorted(),
      [
        "awaiting_approval ApprovalTimedOut failed",
        "awaiting_approval Broadcast broadcast",
        "awaiting_approval Rejected failed",
        "broadcast Confirmed confirmed",
        "broadcast Failed failed",
        "confirmed Reorganised broadcast"
      ]
    )
  })

  it("confirmed and failed are terminal; the other stages are not", () => {
    assert.deepStrictEqual(stages.filter(isTerminal), ["confirmed", "failed"])
  })
})

describe("trade transitions outside the table", () => {
  for (const stage of stages) {
    for (const kind of eventKinds) {
      if (tradeTransitions[kind].from === stage) continue
      it(`${stage} --${kind}--> is the IllegalTradeTransition defect`, () => {
        assert.throws(() => applyTradeEvent(tradeAt(stage), eventOf(kind, T0 + 5)), IllegalTradeTransition)
      })
    }
  }
})

describe("the wallet's decision (decideApproval)", () => {
  it.effect("approving a trade awaiting approval broadcasts it", () =>
    Effect.gen(function*() {
      const next = yield* decideApproval(makeTrade(), true, T0 + 7, "0xfeed")
      assert.strictEqual(next.stage, "broadcast")
      assert.strictEqual(next.txHash, "0xfeed")
      assert.strictEqual(next.submittedAt, T0 + 7)
    }))

  it.effect("rejecting a trade awaiting approval fails it with WALLET_REJECTED, without a txHash", () =>
    Effect.gen(function*() {
      const next = yield* decideApproval(makeTrade(), false, T0 + 7, "0xfeed")
      assert.strictEqual(next.stage, "failed")
      assert.strictEqual(next.failureReason, "WALLET_REJECTED")
      assert.isNull(next.txHash)
    }))

  for (const stage of ["broadcast", "confirmed", "failed"] as const) {
    for (const approve of [true, false]) {
      it.effect(`${approve ? "approving" : "rejecting"} a ${stage} trade is TradeNotAwaitingApproval`, () =>
        Effect.gen(function*() {
          const error = yield* Effect.flip(decideApproval(tradeAt(stage), approve, T0 + 7, "0xfeed"))
          assert.instanceOf(error, TradeNotAwaitingApproval)
          assert.strictEqual(error.id, "trd_1")
          assert.strictEqual(error.code, "TRADE_NOT_AWAITING_APPROVAL")
        }))
    }
  }
})

/** What every stage promises about the record's fields. */
const assertInvariants = (trade: TradeRecord) => {
  assert.include(stages, trade.stage)
  assert.strictEqual(trade.amountOut !== null, trade.stage === "confirmed", "amountOut exactly when confirmed")
  assert.strictEqual(trade.confirmedAt !== null, trade.stage === "confirmed", "confirmedAt exactly when confirmed")
  assert.strictEqual(trade.failureReason !== null, trade.stage === "failed", "a reason exactly when failed")
  assert.strictEqual(trade.txHash !== null, trade.submittedAt !== null, "txHash and submittedAt together")
  if (trade.stage === "broadcast" || trade.stage === "confirmed") assert.isNotNull(trade.txHash)
  if (trade.failureReason === "WALLET_REJECTED" || trade.failureReason === "APPROVAL_TIMEOUT") {
    assert.isNull(trade.txHash, "a trade that never got approved was never broadcast")
  }
}

describe("random event sequences", () => {
  const step = fc.record({
    kind: fc.constantFrom<EventKind | "Approve" | "Reject">(...eventKinds, "Approve", "Reject"),
    dt: fc.integer({ min: 0, max: 600_000 })
  })

  test.prop([fc.array(step, { maxLength: 30 })], { seed: 4001, numRuns: 1000 })(
    "never leave the table: legal moves follow their row, illegal ones throw (or fail typed) and change nothing",
    (steps) => {
      let trade = makeTrade()
      let at = T0
      for (const { dt, kind } of steps) {
        at += dt
        if (kind === "Approve" || kind === "Reject") {
          const exit = Effect.runSyncExit(decideApproval(trade, kind === "Approve", at, `tx_${at}`))
          if (trade.stage === "awaiting_approval") {
            assert.isTrue(Exit.isSuccess(exit))
            if (Exit.isSuccess(exit)) trade = exit.value
          } else {
            assert.deepStrictEqual(exit, Exit.fail(new TradeNotAwaitingApproval({ id: trade.id })))
          }
        } else if (tradeTransitions[kind].from === trade.stage) {
          const next = applyTradeEvent(trade, eventOf(kind, at))
          assert.strictEqual(next.stage, tradeTransitions[kind].to)
          trade = next
        } else {
          assert.throws(() => applyTradeEvent(trade, eventOf(kind, at)), IllegalTradeTransition)
        }
        assertInvariants(trade)
        // the terms of the swap never change after creation
        assert.deepStrictEqual(
          [trade.id, trade.tokenIn, trade.tokenOut, trade.amountIn, trade.minAmountOut, trade.createdAt],
          ["trd_1", "SOL", "USDC", 1_000_000_000n, 148_876_875n, T0]
        )
      }
    }
  )
})
