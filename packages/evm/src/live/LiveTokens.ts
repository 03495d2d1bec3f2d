/**
 * The tokens a live configuration trades, as the core's `Token`s: what the core's token catalog is
 * built from in live mode. A token listed on several networks is one token with an address on each;
 * `ETH` is the native coin of every configured network.
 */
import { makeTokenCatalog, NATIVE_EVM_ADDRESS, type Network, type Token, TokenRegistry } from "@swapdesk/core"
import { Layer } from "effect"
import { getAddress } from "viem"
import { addressOf, type LiveConfig, liveNetworksOf } from "../LiveConfig.ts"

/** Names the file cannot carry: the native coin's, and the well-known wrapped one's. */
const knownNames: Readonly<Record<string, string>> = { ETH: "Ether", WETH: "Wrapped Ether" }

/**
 * Every token of the file: its symbol (upper case, as the API names tokens), name (the symbol, or the native coin's and WETH's usual
 * names), decimals, addresses per network (checksummed), its network of record (the first network
 * in the order ethereum, base, arbitrum that lists it) and whether it is a stablecoin (some
 * network's `quoteToken`). `ETH` comes first, native on every configured network.
 */
export const liveTokensOf = (config: LiveConfig): ReadonlyArray<Token> => {
  const networks = liveNetworksOf(config)
  const quoteTokens = new Set(networks.map(([, settings]) => settings.quoteToken.toUpperCase()))
  const bySymbol = new Map<
    string,
    { decimals: number; primaryNetwork: Network; addresses: Partial<Record<Network, string>> }
  >()
  const [first] = networks
  if (first !== undefined) {
    bySymbol.set("ETH", {
      decimals: 18,
      primaryNetwork: first[0],
      addresses: Object.fromEntries(networks.map(([name]) => [name, NATIVE_EVM_ADDRESS]))
    })
  }
  for (const [name, settings] of networks) {
    for (const token of settings.tokens) {
      const address = getAddress(addressOf(token.address))
      const symbol = token.symbol.toUpperCase()
      const known = bySymbol.get(symbol)
      if (known === undefined) {
        bySymbol.set(symbol, { decimals: token.decimals, primaryNetwork: name, addresses: { [name]: address } })
      } else {
        known.addresses[name] = address
      }
    }
  }
  return [...bySymbol].map(([symbol, t]) => ({
    symbol,
    name: knownNames[symbol] ?? symbol,
    decimals: t.decimals,
    primaryNetwork: t.primaryNetwork,
    addresses: t.addresses,
    stablecoin: quoteTokens.has(symbol)
  }))
}

/** The core's `TokenRegistry` of the file's tokens (`liveTokensOf`). */
export const layerLiveTokenRegistry = (config: LiveConfig): Layer.Layer<TokenRegistry> =>
  Layer.sync(TokenRegistry, () => makeTokenCatalog(liveTokensOf(config)))
