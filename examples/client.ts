/**
 * The typed client against a running server: the market price of SOL, a swap, and the trade once
 * it has confirmed (or failed). Run it from the repository's root beside a running server
 * (`npx -y pnpm@12.21.0 start`; point SWAPDESK_URL elsewhere for another):
 *
 *   npx -y pnpm@12.21.0 exec node examples/client.ts
 *
 * A trade is `pending` when created; the example reads it again every second until the chain has
 * settled it, which on the demo scenario's realtime clock takes a few seconds.
 */
import { makeClient } from "@swapdesk/http"
import { demoKeys } from "@swapdesk/simulator"
import { Duration, Effect, Schedule } from "effect"
import { FetchHttpClient } from "effect/http"

/** How long the example waits for the chain, in wall-clock time, before giving up. */
const SETTLE_TIMEOUT = Duration.minutes(2)

/**
 * Buys USDC with 0.5 SOL on solana, waits until the trade is no longer `pending`, and answers it
 * as the server then reports it.
 */
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
    const settled = yield* client.trades.get({ params: { id: created.data.id } }).pipe(
      Effect.map((answer) => answer.data),
      Effect.repeat({ schedule: Schedule.spaced("1 second"), until: (trade) => trade.status !== "pending" }),
      Effect.timeoutOrElse({
        duration: SETTLE_TIMEOUT,
        orElse: () =>
          Effect.fail(new Error(`trade ${created.data.id} still pending after ${Duration.format(SETTLE_TIMEOUT)}`))
      })
    )
    console.log(
      settled.status === "confirmed"
        ? `trade ${settled.id} confirmed: received ${settled.amountOut} USDC (tx ${settled.txHash})`
        : `trade ${settled.id} ${settled.status}: ${settled.failureReason}`
    )
    return settled
  }).pipe(Effect.provide(FetchHttpClient.layer))

if (import.meta.main) {
  const baseUrl = process.env["SWAPDESK_URL"] ?? "http://127.0.0.1:3000"
  Effect.runPromise(tour(baseUrl)).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
