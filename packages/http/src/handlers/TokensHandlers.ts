/**
 * `/v1/tokens` on the core's `TokenRegistry`: the catalogue as this server resolves tokens with it.
 */
import { networks, type Token, TokenRegistry } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import type { TokenView } from "../api/TokensApi.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Responder.ts"

const tokenView = (token: Token): TokenView => {
  const addresses: Record<string, string> = {}
  for (const network of networks) {
    const address = token.addresses[network]
    if (address !== undefined) addresses[network] = address
  }
  return {
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    stablecoin: token.stablecoin,
    networks: addresses
  }
}

/** `TokensApi` on the token registry. */
export const TokensHandlers = ApiHandlers.group(Api, "tokens", (handlers) =>
  Effect.gen(function*() {
    const { ok } = yield* makeResponder
    const catalog = yield* TokenRegistry
    // The catalogue does not change while the server runs: each answer is rendered once.
    const all = catalog.tokens.map(tokenView)
    const byNetwork = new Map(
      networks.map((network) => [network, all.filter((view) => view.networks[network] !== undefined)])
    )
    return handlers.handle("list", ({ query }) => ok(query.network === undefined ? all : byNetwork.get(query.network)!))
  }))
