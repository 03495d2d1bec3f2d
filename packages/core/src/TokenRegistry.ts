/**
 * Port: the tokens this deployment quotes, trades and charts. The simulator gives its own list
 * (`simulatorTokens`); another deployment gives its own (a live file's tokens, at the addresses
 * deployed on its chains). Lookups accept a ticker (any case) or a contract address (EVM addresses in any case,
 * Solana mints exactly); an unknown token, or a token with no contract on the requested network, is
 * `InvalidToken` (docs/decisions.md, "The token registry is a port").
 */
import { Context, Effect, Layer, Option } from "effect"
import { InvalidToken } from "./Errors.ts"
import { type Network, networks } from "./Network.ts"
import { NATIVE_EVM_ADDRESS, type Token } from "./Token.ts"

/** A list of tokens with its lookups. */
export interface TokenCatalog {
  /** Every token, in the order the list gave them. */
  readonly tokens: ReadonlyArray<Token>
  /**
   * The token a ticker (any case) or a contract address names. Without a network, an address that
   * is the contract of different tokens on different networks names none of them.
   */
  readonly find: (symbolOrAddress: string) => Option.Option<Token>
  /** The token, or `InvalidToken`; with a network, `symbolOrAddress` must also name the token on it. */
  readonly resolve: (symbolOrAddress: string, network?: Network) => Effect.Effect<Token, InvalidToken>
  /** The entry for a symbol known to be listed (a miss is a defect, not an input error). */
  readonly tokenOf: (symbol: string) => Token
  /**
   * The networks on which `symbolOrAddress` names `token` (as `resolve` found it): every network the
   * token exists on for its ticker, only the networks where it is the token's contract for an address.
   */
  readonly networksNamedBy: (token: Token, symbolOrAddress: string) => ReadonlyArray<Network>
  /** Whether the token has a contract (or is the native coin) on `network`. */
  readonly isTradableOn: (token: Token, network: Network) => boolean
}

// EVM addresses are case-insensitive (checksums are only a display convention); Solana mints are not.
const addressKey = (address: string): string => address.startsWith("0x") ? address.toLowerCase() : address

const isTradableOn = (token: Token, network: Network): boolean => token.addresses[network] !== undefined

/** Whether `reference` is the token's contract address on `network` (EVM addresses in any case). */
const isAddressOn = (token: Token, network: Network, reference: string): boolean => {
  const address = token.addresses[network]
  return address !== undefined && address !== NATIVE_EVM_ADDRESS && addressKey(address) === addressKey(reference)
}

/**
 * Whether `symbolOrAddress` names `token` on `network`: its ticker names it wherever the token
 * exists, a contract address only where it is the token's contract. A Base contract named for an
 * Arbitrum trade is not "the same token" to a client who chose the contract on purpose.
 */
const namesTokenOn = (token: Token, symbolOrAddress: string, network: Network): boolean =>
  token.symbol === symbolOrAddress.toUpperCase()
    ? isTradableOn(token, network)
    : isAddressOn(token, network, symbolOrAddress)

const networksNamedBy = (token: Token, symbolOrAddress: string): ReadonlyArray<Network> =>
  networks.filter((network) => namesTokenOn(token, symbolOrAddress, network))

/** What makes a list unusable as a catalogue, one line per problem (empty when it is usable). */
const problemsOf = (tokens: ReadonlyArray<Token>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const symbols = new Set<string>()
  const contracts = new Map<string, string>()
  for (const token of tokens) {
    const { addresses, decimals, primaryNetwork, symbol } = token
    if (symbol === "" || symbol !== symbol.toUpperCase()) problems.push(`${symbol}: the symbol must be upper case`)
    if (symbols.has(symbol)) problems.push(`${symbol}: listed twice`)
    symbols.add(symbol)
    if (!Number.isInteger(decimals) || decimals < 0) problems.push(`${symbol}: decimals must be a whole number ≥ 0`)
    if (addresses[primaryNetwork] === undefined) problems.push(`${symbol}: no address on its primary network`)
    for (const network of networks) {
      const address = addresses[network]
      if (address === undefined || address === NATIVE_EVM_ADDRESS) continue
      const key = `${network}:${addressKey(address)}`
      const holder = contracts.get(key)
      if (holder !== undefined) problems.push(`${symbol}: ${address} on ${network} is already ${holder}'s contract`)
      contracts.set(key, symbol)
    }
  }
  return problems
}

/**
 * The catalogue of `tokens`. The list must have each symbol once, in upper case, and each contract
 * address once per network (the same address may name different tokens on different networks, as
 * contracts deployed by one account on several chains do); a token must exist on its primary network.
 * A list that breaks these rules is a defect of whoever built it: this throws, naming every problem.
 */
export const makeTokenCatalog = (tokens: ReadonlyArray<Token>): TokenCatalog => {
  const problems = problemsOf(tokens)
  if (problems.length > 0) throw new Error(`invalid token list: ${problems.join("; ")}`)

  const bySymbol = new Map(tokens.map((token) => [token.symbol, token]))
  const byAddressOn = new Map<Network, Map<string, Token>>(networks.map((network) => [network, new Map()]))
  // Every token an address is a contract of, on any network: more than one makes it ambiguous alone.
  const byAddress = new Map<string, Array<Token>>()
  for (const token of tokens) {
    for (const network of networks) {
      const address = token.addresses[network]
      if (address === undefined || address === NATIVE_EVM_ADDRESS) continue
      const key = addressKey(address)
      byAddressOn.get(network)!.set(key, token)
      const holders = byAddress.get(key)
      if (holders === undefined) byAddress.set(key, [token])
      else if (!holders.includes(token)) holders.push(token)
    }
  }

  const find = (symbolOrAddress: string): Option.Option<Token> => {
    const bySym = bySymbol.get(symbolOrAddress.toUpperCase())
    if (bySym !== undefined) return Option.some(bySym)
    const holders = byAddress.get(addressKey(symbolOrAddress))
    return holders?.length === 1 ? Option.some(holders[0]!) : Option.none()
  }

  const resolve = (symbolOrAddress: string, network?: Network): Effect.Effect<Token, InvalidToken> => {
    if (network === undefined) {
      const found = find(symbolOrAddress)
      return Option.isSome(found)
        ? Effect.succeed(found.value)
        : Effect.fail(new InvalidToken({ token: symbolOrAddress }))
    }
    const bySym = bySymbol.get(symbolOrAddress.toUpperCase())
    const found = bySym ?? byAddressOn.get(network)!.get(addressKey(symbolOrAddress))
    if (found !== undefined && namesTokenOn(found, symbolOrAddress, network)) return Effect.succeed(found)
    // A token this catalogue knows, named on a network where that name does not name it.
    const known = bySym !== undefined || byAddress.has(addressKey(symbolOrAddress))
    return Effect.fail(
      known ? new InvalidToken({ token: symbolOrAddress, network }) : new InvalidToken({ token: symbolOrAddress })
    )
  }

  const tokenOf = (symbol: string): Token => {
    const found = bySymbol.get(symbol)
    if (found === undefined) throw new Error(`token ${symbol} is not in the registry`)
    return found
  }

  return { tokens, find, resolve, tokenOf, networksNamedBy, isTradableOn }
}

/**
 * Port: the token catalogue of this deployment. Every use case that resolves a token, or needs a
 * token's decimals or addresses, reads it from here.
 */
export class TokenRegistry extends Context.Service<TokenRegistry, TokenCatalog>()("@swapdesk/core/TokenRegistry") {
  /** The registry of `tokens` (see `makeTokenCatalog` for what the list must satisfy). */
  static readonly layer = (tokens: ReadonlyArray<Token>): Layer.Layer<TokenRegistry> =>
    Layer.sync(TokenRegistry, () => makeTokenCatalog(tokens))
}
