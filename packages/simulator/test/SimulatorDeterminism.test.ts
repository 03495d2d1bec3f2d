// Proves the simulator's replay guarantee through the whole stack: fast-check (pinned seed) generates scenarios and
// call sequences (trades, approvals, alerts, price moves, faults, whales, clock advances), and each one runs twice,
// on two fresh `layerSimulator` instances with a manual clock. The two runs must give byte-identical JSON for the
// event log (`SimulatorControl.events`), the outbox, every trade record, every call's answer and the wallets'
// ledger. Control tests show the comparison can fail: a different seed changes the log, and the workloads do
// produce notifications and trades, so the outbox and records are not compared empty.
import { assert, describe, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import { type RunResult, runWorkload, type Workload, workloadArb } from "./SimulatorWorkload.ts"

const compare = (first: RunResult, second: RunResult) => {
  assert.strictEqual(second.events, first.events, "event logs differ")
  assert.strictEqual(second.outbox, first.outbox, "outboxes differ")
  assert.strictEqual(second.records, first.records, "trade records differ")
  assert.deepStrictEqual(second.outcomes, first.outcomes, "call answers differ")
  assert.strictEqual(second.ledger, first.ledger, "ledgers differ")
}

/** Totals over all runs: the property must not pass by comparing empty things. */
const totals = { runs: 0, trades: 0, notifications: 0, events: 0 }

/** A fixed workload with every kind of call, for the control tests. */
const fixed: Workload = {
  seed: 7,
  start: "2026-03-15T10:17:23Z",
  networks: { solana: { failureRate: 0.3 } },
  wallets: Array.from({ length: 8 }, (_, i) => ({
    present: true,
    delegatedSigning: i % 3 !== 0,
    native: "rich" as const,
    holdingsUsd: [5_000, 2_000, 1_000, 500]
  })),
  commands: [
    { kind: "alert", account: 0, token: 0, rule: "above", permille: 1_001 },
    { kind: "alert", account: 1, token: 1, rule: "whale", permille: 1_000 },
    { kind: "create", account: 0, network: "solana", tokenIn: 0, tokenOut: 0, permille: 100, slippage: 0.5 },
    { kind: "create", account: 1, network: "ethereum", tokenIn: 1, tokenOut: 1, permille: 500, slippage: 3 },
    { kind: "decide", pick: 0, approve: true },
    { kind: "whale", network: "ethereum", token: 0, valueUsd: 2_000_000 },
    { kind: "price", token: 0, permille: 1_050 },
    { kind: "fault", network: "base", fault: "congestion", durationMs: 60_000 },
    { kind: "create", account: 1, network: "base", tokenIn: 1, tokenOut: 2, permille: 300, slippage: 0.5 },
    { kind: "advance", ms: 45_000 },
    { kind: "create", account: 0, network: "arbitrum", tokenIn: 0, tokenOut: 0, permille: 2_000, slippage: 0.5 },
    { kind: "advance", ms: 120_000 }
  ]
}

describe("the simulator replays", () => {
  test.prop([workloadArb({ minLength: 5, maxLength: 30 })], { seed: 31337, numRuns: 30 })(
    "the same scenario and the same calls give the same log, outbox and records, byte for byte",
    async (workload) => {
      const first = await runWorkload(workload)
      const second = await runWorkload(workload)
      compare(first, second)
      totals.runs++
      totals.trades += first.tradeCount
      totals.events += first.eventCount
      totals.notifications += (JSON.parse(first.outbox) as ReadonlyArray<unknown>).length
    }
  )

  it("the generated runs were not empty", () => {
    assert.strictEqual(totals.runs, 30)
    assert.isAbove(totals.trades, 30, JSON.stringify(totals))
    assert.isAbove(totals.notifications, 5, JSON.stringify(totals))
    assert.isAbove(totals.events, 300, JSON.stringify(totals))
  })

  it("a fixed workload replays, and another seed gives another log", async () => {
    const first = await runWorkload(fixed)
    compare(first, await runWorkload(fixed))
    assert.strictEqual(first.tradeCount, 3)
    assert.include(first.outcomes, "create refused InsufficientBalance")
    assert.isAbove((JSON.parse(first.outbox) as ReadonlyArray<unknown>).length, 0, "an alert fired")
    const reseeded = await runWorkload({ ...fixed, seed: 8 })
    assert.notStrictEqual(reseeded.events, first.events)
    assert.notStrictEqual(reseeded.records, first.records)
  })
})
