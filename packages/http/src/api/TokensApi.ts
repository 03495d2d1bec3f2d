/**
 * `/v1/tokens`: the server's token catalogue (public, like the market data it names tokens for), so
 * that a client offers exactly the tokens this server quotes and trades — the simulator's list on the
 * simulator, the configured list on a live server (docs/decisions.md, "`GET /v1/tokens` publishes the
 * catalogue").
 */
import { Network } from "@swapdesk/core"
import { Schema } from "effect"
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { queryRoute } from "./Routes.ts"
import { OptionalAuthentication } from "./Security.ts"

/** `GET /v1/tokens`: optionally only the tokens that exist on one network. */
export const TokensQuery = Schema.Struct({ network: Schema.optionalKey(Network) })
export type TokensQuery = typeof TokensQuery.Type

/** One token of the catalogue. */
export const TokenView = Schema.Struct({
  /** Upper-case ticker: what every other route answers and accepts. */
  symbol: Schema.String,
  name: Schema.String,
  /** Base-unit exponent, equal on every network: an amount may have at most this many decimals. */
  decimals: Schema.Int,
  /** Pegged to one US dollar. */
  stablecoin: Schema.Boolean,
  /** The token's contract (or mint) address on each network it exists on, by network name. */
  networks: Schema.Record(Schema.String, Schema.String).annotate({
    description: "The token's contract (or mint) address on each network it exists on; the native coin is " +
      "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"
  })
}).annotate({
  examples: [{
    symbol: "USDC",
    name: "USD Coin",
    decimals: 6,
    stablecoin: true,
    networks: {
      solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      ethereum: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
    }
  }]
})
export type TokenView = typeof TokenView.Type

/** `/v1/tokens`: the token catalogue. */
export class TokensApi extends HttpApiGroup.make("tokens")
  .add(
    queryRoute("list", "/v1/tokens", TokensQuery, Schema.Array(TokenView), {
      summary: "The tokens this server quotes and trades, with their decimals and addresses per network",
      description: "In the server's order; with `network`, only the tokens that exist on it."
    })
  )
  .annotate(OpenApi.Description, "The token catalogue (public: no key needed, any valid key may read it)")
  .middleware(OptionalAuthentication)
{}
