/**
 * The typed client against a running server: the market price of SOL, a swap, and the trade once
 * it has confirmed. Run it from the repository's root beside a running server
 * (`npx -y pnpm@12.21.0 start`; point SWAPDESK_URL elsewhere for another):
 *
 *   npx -y pnpm@12.21.0 exec node examples/client.ts
 */
import { makeClient } from "@swapdesk/http"
import { demoKeys } from "@swapdesk/simulator"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"

/** Buys USDC with 0.5 SOL on solana and answers the trade as the server reports it a few seconds later. */
export const tour = (baseUrl: string, apiKey: string = demoKeys.proAll) =>
  Effect.gen(function*() {
    const client = yield* makeClient({ baseUrl, apiKey })
    const market = yield* client.market.marketData({ query: { token: "SOL" } })
    console.log(`SOL is ${market.data.price} ${market.data.currency}`)
    const created = yield* client.trades.create({
      headers: {},
      payload: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.5", network: "solana" }
    })
    console.log(`trade ${created.data.id} is ${created.data.status}; about ${created.data.estimatedAmountOut} USDC`)
    return created.data.id
  }).pipe(Effect.provide(FetchHttpClient.layer))

if (import.meta.main) {
  const baseUrl = process.env["SWAPDESK_URL"] ?? "http://127.0.0.1:3000"
  Effect.runPromise(tour(baseUrl)).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
