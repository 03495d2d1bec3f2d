import { assert, it } from "@effect/vitest"
import { TradeRepository, Trades } from "@swapdesk/core"
import { Context, Effect, Layer } from "effect"
import { layerSimulator, SimulationState, SimulatorControl } from "../src/index.ts"

it.effect("scratch", () =>
  Effect.gen(function*() {
    const t0 = performance.now()
    const ctx = yield* Layer.build(layerSimulator({
      seed: 3,
      historyDays: 1,
      clock: { mode: "manual" },
      accounts: [{
        id: "acct_a",
        wallets: [{ network: "solana", address: "A1", delegatedSigning: true, balances: { SOL: "10", USDC: "100" } }]
      }]
    }))
    const t1 = performance.now()
    const trades = Context.get(ctx, Trades)
    const control = Context.get(ctx, SimulatorControl)
    const sim = Context.get(ctx, SimulationState)
    const t = yield* trades.create("acct_a", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" })
    console.log(t)
    const t2 = performance.now()
    yield* control.advance(60_000)
    const t3 = performance.now()
    console.log(yield* trades.get("acct_a", t.id))
    console.log((yield* control.events).length, sim.wallets.ledger())
    console.log({ build: t1 - t0, create: t2 - t1, advance60s: t3 - t2 })
    const t4 = performance.now()
    yield* control.advance(3_600_000)
    console.log({ advance1h: performance.now() - t4 })
    assert.isTrue(true)
  }))
