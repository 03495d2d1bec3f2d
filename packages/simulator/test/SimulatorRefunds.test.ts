// Proves that a failed trade refunds exactly, through the whole stack (`layerSimulator`, manual clock, the core's
// `Trades` use case): fast-check (pinned seed) generates a one-wallet scenario, a trade of a random pair, size and
// network, and a way to make it fail (the wallet rejects it, never answers, the network loses it or is down, the
// wallet cannot pay gas, the price moves past the slippage). The trade must fail for exactly that reason; its hold
// must be gone; every balance line must be back where it was before the trade, except the native line, which is
// short by exactly the gas recorded on the trade (non-zero only for a reverted swap, and equal to what the log
// says was burned); and nothing may have been sent or received.
import { assert, describe } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import {
  APPROVAL_TIMEOUT_MS,
  type FailureReason,
  formatAmount,
  nativeTokenOf,
  type Network,
  networks,
  simulatorCatalog,
  TradeRepository,
  Trades
} from "@swapdesk/core"
import { Effect, Layer, Option } from "effect"
import { decodeScenario } from "../src/Scenario.ts"
import { SimulationState } from "../src/SimulationState.ts"
import { layerSimulator } from "../src/Simulator.ts"
import { SimulatorControl } from "../src/SimulatorControl.ts"
import { toJson, tokensOn } from "./SimulatorWorkload.ts"

type Mode = "rejected" | "timeout" | "lost" | "outage" | "gas" | "slippage"

const reasonOf: Record<Mode, FailureReason> = {
  rejected: "WALLET_REJECTED",
  timeout: "APPROVAL_TIMEOUT",
  lost: "NETWORK_ERROR",
  outage: "NETWORK_ERROR",
  gas: "INSUFFICIENT_GAS",
  slippage: "SLIPPAGE_EXCEEDED"
}

interface Case {
  readonly seed: number
  readonly mode: Mode
  readonly network: Network
  readonly tokenIn: number
  readonly tokenOut: number
  readonly permille: number
  /** Only for a wallet that must approve: how long it takes (rejects, or approves before the trade fails). */
  readonly delegatedSigning: boolean
  readonly decisionAfterMs: number
}

/** WETH tracks ETH, so moving one moves the other and a WETH/ETH swap cannot slip: leave it out. */
const pairsOn = (network: Network) => tokensOn[network].filter((t) => t !== "WETH")

const caseArb: fc.Arbitrary<Case> = fc.record({
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  mode: fc.constantFrom<Mode>("rejected", "timeout", "lost", "outage", "gas", "slippage"),
  network: fc.constantFrom(...networks),
  tokenIn: fc.nat(3),
  tokenOut: fc.nat(2),
  // Below the whole balance, so a native input leaves gas money (the `gas` mode trades all of it instead).
  permille: fc.integer({ min: 1, max: 900 }),
  delegatedSigning: fc.boolean(),
  decisionAfterMs: fc.integer({ min: 0, max: APPROVAL_TIMEOUT_MS - 1 })
})

const ACCOUNT = "acct_refund"

const scenarioOf = (c: Case) => {
  const list = pairsOn(c.network)
  const native = nativeTokenOf(c.network)
  const balances: Record<string, string> = {}
  // Ten thousand dollars of every token; no native token at all when the trade must run out of gas on a
  // non-native input (a native input is instead traded whole, so none is left free for its gas).
  for (const symbol of list) balances[symbol] = symbol === native ? "5" : symbol === "USDC" ? "10000" : "1000"
  const tokenIn = list[c.tokenIn % list.length]!
  if (c.mode === "gas" && tokenIn !== native) delete balances[native]
  return decodeScenario({
    seed: c.seed,
    clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
    historyDays: 1,
    networks: { [c.network]: { failureRate: c.mode === "lost" ? 1 : 0 } },
    accounts: [{
      id: ACCOUNT,
      wallets: [{
        network: c.network,
        address: "wallet-refund",
        delegatedSigning: c.mode === "rejected" || c.mode === "timeout" ? false : c.delegatedSigning,
        balances
      }]
    }]
  })
}

const run = (c: Case) =>
  Effect.gen(function*() {
    const sim = yield* SimulationState
    const control = yield* SimulatorControl
    const trades = yield* Trades
    const repository = yield* TradeRepository
    const list = pairsOn(c.network)
    const native = nativeTokenOf(c.network)
    const tokenIn = list[c.tokenIn % list.length]!
    const tokenOut = list.filter((t) => t !== tokenIn)[c.tokenOut % (list.length - 1)]!
    const free = sim.wallets.free(ACCOUNT, c.network, tokenIn)
    const amountIn = c.mode === "gas" && tokenIn === native ? free : (free * BigInt(c.permille)) / 1000n
    const before = sim.wallets.ledger()

    if (c.mode === "outage") yield* control.injectFault(c.network, "outage", APPROVAL_TIMEOUT_MS + 600_000)
    const created = yield* trades.create(ACCOUNT, {
      tokenIn,
      tokenOut,
      amountIn: formatAmount(amountIn, simulatorCatalog.tokenOf(tokenIn).decimals),
      network: c.network,
      slippage: 0.5
    })
    assert.strictEqual(sim.wallets.hold(created.id)?.amount, amountIn, "the input is held")
    // A move that costs the trade far more than its 0.5 % slippage, between the quote and the block.
    if (c.mode === "slippage") yield* control.setPrice(tokenIn, sim.market.priceUsd(tokenIn) * 0.8)
    if (created.stage === "awaiting_approval" && c.mode !== "timeout") {
      yield* control.advance(c.decisionAfterMs)
      yield* trades.decide(created.id, { _tag: c.mode === "rejected" ? "Reject" : "Approve" })
    }
    yield* control.advance(sim.chain.completionBoundMs(c.network))

    const trade = Option.getOrThrow(yield* repository.getById(created.id))
    assert.deepStrictEqual([trade.stage, trade.failureReason], ["failed", reasonOf[c.mode]])
    assert.isUndefined(sim.wallets.hold(trade.id), "the hold is gone")
    sim.wallets.checkInvariants()

    const gasFee = trade.gasFee ?? 0n
    const burned = sim.log.all.filter((e) => e.type === "gas.burned" && e.data["tradeId"] === trade.id)
    assert.strictEqual(gasFee > 0n, c.mode === "slippage", "only a reverted swap pays gas")
    assert.strictEqual(burned.length, c.mode === "slippage" ? 1 : 0)
    if (c.mode === "slippage") {
      assert.strictEqual(burned[0]!.data["amount"], formatAmount(gasFee, simulatorCatalog.tokenOf(native).decimals))
    }

    const after = new Map(sim.wallets.ledger().map((l) => [l.token, l]))
    for (const line of before) {
      const now = after.get(line.token)!
      assert.deepStrictEqual(
        { token: line.token, free: now.free, reserved: now.reserved, sent: now.sent, received: now.received },
        {
          token: line.token,
          free: line.free - (line.token === native ? gasFee : 0n),
          reserved: 0n,
          sent: 0n,
          received: 0n
        },
        toJson(trade)
      )
    }
    assert.strictEqual(after.size, before.length, "no line appeared")
  })

describe("a failed trade, full stack", () => {
  test.prop([caseArb], { seed: 7_000_001, numRuns: 60 })(
    "gives back exactly its input; only a reverted swap's gas is gone",
    (c) =>
      Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(layerSimulator(scenarioOf(c)))
        yield* run(c).pipe(Effect.provide(context))
      })))
  )
})
