/**
 * What the index reads on one network, from the live file: the node, how deep a block must be, where
 * to start, the exchange, the quote token (1 USD) and the listed tokens. Resolving it against the
 * chain gives each token's pool: its pair with the quote token, else with WETH (priced through
 * WETH's USD price), and WETH's own pool with the quote token, whose reserves give that price.
 */
import { Data, Effect } from "effect"
import { type Address, getAddress, parseAbi, type PublicClient, zeroAddress } from "viem"
import type { EvmNetwork } from "../EvmNetwork.ts"
import { addressOf, type LiveConfig, liveNetworksOf } from "../LiveConfig.ts"

/** A token the index follows on a network. */
export interface IndexedToken {
  /** Upper-case symbol. */
  readonly symbol: string
  readonly address: Address
  readonly decimals: number
}

/** One network as the index reads it. */
export interface IndexedNetwork {
  readonly network: EvmNetwork
  readonly rpcUrl: string
  readonly confirmations: number
  readonly startBlock: number
  readonly factory: Address
  readonly weth: Address
  readonly quote: IndexedToken
  /** Every listed token, the quote token included. */
  readonly tokens: ReadonlyArray<IndexedToken>
}

/** The networks of the live file, in the file's order. */
export const indexedNetworksOf = (config: LiveConfig): ReadonlyArray<IndexedNetwork> =>
  liveNetworksOf(config).map(([network, settings]) => {
    const tokens = settings.tokens.map((t) => ({
      symbol: t.symbol.toUpperCase(),
      address: getAddress(addressOf(t.address)),
      decimals: t.decimals
    }))
    const quote = tokens.find((t) => t.symbol === settings.quoteToken.toUpperCase())
    if (quote === undefined) throw new Error(`${network}: quoteToken ${settings.quoteToken} is not listed`)
    return {
      network,
      rpcUrl: settings.rpcUrl,
      confirmations: settings.confirmations,
      startBlock: settings.startBlock,
      factory: getAddress(addressOf(settings.dex.factory)),
      weth: getAddress(addressOf(settings.dex.weth)),
      quote,
      tokens
    }
  })

/** A pool whose swaps are indexed as trades of `token`. */
export interface IndexedPool {
  readonly pair: Address
  readonly token: IndexedToken
  /** Whether the token is the pair's `token0`. */
  readonly tokenIsToken0: boolean
  /** What the other side is: the quote token (1 USD) or WETH (priced through `wethPool`). */
  readonly against: "quote" | "weth"
  readonly otherDecimals: number
}

/** The pools of a network. */
export interface IndexedPools {
  readonly pools: ReadonlyMap<Address, IndexedPool>
  /** WETH's pool with the quote token, whose reserves price WETH; absent when there is none. */
  readonly wethPool: { readonly pair: Address; readonly wethIsToken0: boolean } | undefined
  /** The listed tokens by address (their transfers are indexed). */
  readonly tokens: ReadonlyMap<Address, IndexedToken>
}

/** A call to the node that failed. */
export class IndexRpcError extends Data.TaggedError("IndexRpcError")<{ readonly message: string }> {}

const factoryAbi = parseAbi(["function getPair(address tokenA, address tokenB) view returns (address pair)"])
const pairAbi = parseAbi(["function token0() view returns (address)"])

const token0 = async (client: PublicClient, pair: Address) =>
  getAddress(await client.readContract({ address: pair, abi: pairAbi, functionName: "token0" }))

/** The network's pools as the factory knows them now. */
export const resolvePools = (
  network: IndexedNetwork,
  client: PublicClient
): Effect.Effect<IndexedPools, IndexRpcError> =>
  Effect.tryPromise({
    try: async () => {
      const pairOf = async (a: Address, b: Address) => {
        const pair = await client.readContract({
          address: network.factory,
          abi: factoryAbi,
          functionName: "getPair",
          args: [a, b]
        })
        return pair === zeroAddress ? undefined : getAddress(pair)
      }
      const pools = new Map<Address, IndexedPool>()
      const wethQuote = network.weth === network.quote.address
        ? undefined
        : await pairOf(network.weth, network.quote.address)
      const wethPool = wethQuote === undefined
        ? undefined
        : { pair: wethQuote, wethIsToken0: (await token0(client, wethQuote)) === network.weth }
      for (const token of network.tokens) {
        if (token.address === network.quote.address) continue
        const direct = await pairOf(token.address, network.quote.address)
        const viaWeth = direct === undefined && token.address !== network.weth
          ? await pairOf(token.address, network.weth)
          : undefined
        const pair = direct ?? viaWeth
        if (pair === undefined) continue
        pools.set(pair, {
          pair,
          token,
          tokenIsToken0: (await token0(client, pair)) === token.address,
          against: direct === undefined ? "weth" : "quote",
          otherDecimals: direct === undefined ? 18 : network.quote.decimals
        })
      }
      return { pools, wethPool, tokens: new Map(network.tokens.map((t) => [t.address, t])) }
    },
    catch: (error) => new IndexRpcError({ message: `${network.network}: resolving pools: ${String(error)}` })
  })
