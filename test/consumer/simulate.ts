/**
 * A consumer of the published packages, in-process: a manual-clock simulation built from a
 * scenario, one swap through the core's `Trades` use case, the market clock advanced until the
 * chain confirms it, and the trade read back. Uses only `@swapdesk/core`, `@swapdesk/simulator`
 * and `effect`. Prints one JSON line for the test to check.
 */
import { Trades, tradeView } from "@swapdesk/core"
import { decodeScenario, layerSimulator, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"

const ACCOUNT = "acct_consumer"

const scenario = decodeScenario({
  seed: 7,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  historyDays: 1,
  networks: { solana: { failureRate: 0 } },
  accounts: [{
    id: ACCOUNT,
    wallets: [{
      network: "solana",
      address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
      delegatedSigning: true,
      balances: { SOL: "10", USDC: "1000" }
    }]
  }]
})

const program = Effect.gen(function*() {
  const trades = yield* Trades
  const control = yield* SimulatorControl
  const created = yield* trades.create(ACCOUNT, {
    tokenIn: "SOL",
    tokenOut: "USDC",
    amountIn: "1.5",
    network: "solana"
  })
  yield* control.advance(30_000)
  const confirmed = tradeView(yield* trades.get(ACCOUNT, created.id))
  const events = (yield* control.events(0, 10_000)).entries
  return { created: tradeView(created).status, confirmed, events: events.length }
}).pipe(Effect.provide(layerSimulator(scenario)))

const result = await Effect.runPromise(program)
console.log(JSON.stringify({ node: process.versions.node, ...result }))
