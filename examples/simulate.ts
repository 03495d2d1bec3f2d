/**
 * Driving the simulator in-process, as a test of a trading system would: a tiny manual-clock
 * world, one swap through the core's `Trades` use case, the market clock advanced until the chain
 * confirms it, then the trade as `GET /v1/trades/{id}` would show it and the simulator's event log.
 * Nothing moves until the clock is advanced, and the same scenario and calls give the same log.
 *
 *   npx -y pnpm@12.21.0 exec node examples/simulate.ts        (from the repository's root)
 */
import { TokenRegistry, Trades, tradeView } from "@swapdesk/core"
import { decodeScenario, layerSimulator, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"

export const ACCOUNT = "acct_example"

/** One account with a solana wallet that signs by itself; transactions are never lost on this network. */
export const scenario = decodeScenario({
  seed: 42,
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

/**
 * Swaps 1.5 SOL for USDC, advances the clock 30 s of market time (a solana trade confirms within
 * about 14 s), and answers the trade as the API shows it and the event log.
 */
export const swapOnce = Effect.gen(function*() {
  const trades = yield* Trades
  const control = yield* SimulatorControl
  // Amounts are shown in the decimals of the deployment's own tokens.
  const view = tradeView(yield* TokenRegistry)
  const created = yield* trades.create(ACCOUNT, {
    tokenIn: "SOL",
    tokenOut: "USDC",
    amountIn: "1.5",
    network: "solana"
  })
  yield* control.advance(30_000)
  const trade = yield* trades.get(ACCOUNT, created.id)
  return { created: view(created), trade: view(trade), events: (yield* control.events(0, 10_000)).events }
}).pipe(Effect.provide(layerSimulator(scenario)))

if (import.meta.main) {
  Effect.runPromise(swapOnce).then(({ events, trade }) => {
    console.log(JSON.stringify(trade, null, 2))
    console.log(`event log: ${events.length} events, the last ${events.at(-1)?.type} at ${events.at(-1)?.at}`)
    if (trade.status !== "confirmed") process.exitCode = 1
  }, (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
