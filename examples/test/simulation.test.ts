// Proves the simulation example works as a user runs it. In-process: the swap is pending when created and confirmed
// after the advance, with its output credited; the event log records the trade's life in order; and a second run of
// the same scenario and calls gives the same log and trade, byte for byte. As a program: `node examples/simulate.ts`
// exits 0 and prints that same confirmed trade and log length.
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { swapOnce } from "../simulate.ts"

const script = fileURLToPath(new URL("../simulate.ts", import.meta.url))

describe("examples/simulate.ts", () => {
  it.effect("the swap confirms once the clock is advanced, and the log tells its life in order", () =>
    Effect.gen(function*() {
      const { created, events, trade } = yield* swapOnce
      assert.strictEqual(created.status, "pending")
      assert.isNull(created.confirmedAt)
      assert.strictEqual(trade.status, "confirmed")
      assert.isAbove(Number(trade.amountOut), 200, "1.5 SOL buys about 210 USDC")
      assert.isTrue(Date.parse(trade.confirmedAt!) - Date.parse(trade.createdAt) <= 30_000)
      assert.deepStrictEqual(events.map((e) => e.seq), events.map((_, i) => i + 1))
      const ofTrade = events.filter((e) => e.data["tradeId"] === trade.id || e.data["id"] === trade.id)
      assert.deepStrictEqual(ofTrade.map((e) => e.type), [
        "trade.broadcast",
        "trade.created",
        "gas.burned",
        "trade.included",
        "trade.confirmed",
        "trade.confirmed"
      ])
    }))

  it.effect("replays: the same scenario and calls give the same log and trade", () =>
    Effect.gen(function*() {
      const first = yield* swapOnce
      const second = yield* swapOnce
      assert.strictEqual(JSON.stringify(second.events), JSON.stringify(first.events))
      assert.strictEqual(JSON.stringify(second.trade), JSON.stringify(first.trade))
    }))

  it.effect("runs as a program and prints the confirmed trade and the log length", () =>
    Effect.gen(function*() {
      const { events, trade } = yield* swapOnce
      const { stdout } = yield* Effect.promise(() => promisify(execFile)(process.execPath, [script]))
      assert.include(stdout, `"id": "${trade.id}"`)
      assert.include(stdout, `"status": "confirmed"`)
      assert.include(stdout, `"amountOut": "${trade.amountOut}"`)
      assert.include(stdout, `event log: ${events.length} events`)
    }))
})
