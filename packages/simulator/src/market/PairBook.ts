/**
 * The pools of the market: one pair per (token, network where it has liquidity), numbered
 * contiguously per token. Volume is booked per pair, swaps draw their network from the pairs' shares
 * of the token's liquidity, and a pool's depth sets how far a swap moves the price (`PoolImpact.ts`).
 */
import { type Network, networks, simulatorCatalog } from "@swapdesk/core"
import type { TokenMarketParams } from "./MarketParams.ts"

/** Every token's pairs, indexed by pair number. */
export class PairBook {
  /** The pairs of each token, in network order. */
  readonly ofToken: ReadonlyArray<ReadonlyArray<number>>
  /** Index in `networks` of each pair's network. */
  readonly network: Uint8Array
  /** Each pair's share of its token's liquidity (the shares of a token sum to 1). */
  readonly share: Float64Array
  /** Each pair's pool depth in USD. */
  readonly depth: Float64Array
  /** The pair a price move of each token trades on: the primary network's, else the deepest (−1 for none). */
  readonly pricing: Int32Array
  /** Pair of token t on network n at `t * networks.length + n`, or −1. */
  private readonly at: Int32Array

  constructor(params: ReadonlyArray<TokenMarketParams>) {
    const pairNetwork: Array<number> = []
    const pairShare: Array<number> = []
    const pairDepth: Array<number> = []
    this.at = new Int32Array(params.length * networks.length).fill(-1)
    this.ofToken = params.map((p, t) => {
      const total = networks.reduce((sum, n) => sum + (p.liquidityUsd[n] ?? 0), 0)
      const pairs: Array<number> = []
      networks.forEach((n, k) => {
        const depth = p.liquidityUsd[n] ?? 0
        if (!(depth > 0)) return
        const pair = pairNetwork.length
        pairNetwork.push(k)
        pairShare.push(depth / total)
        pairDepth.push(depth)
        this.at[t * networks.length + k] = pair
        pairs.push(pair)
      })
      return pairs
    })
    this.network = Uint8Array.from(pairNetwork)
    this.share = Float64Array.from(pairShare)
    this.depth = Float64Array.from(pairDepth)
    this.pricing = Int32Array.from(params, (p, t) => {
      const primary = this
        .at[t * networks.length + networks.indexOf(simulatorCatalog.tokenOf(p.symbol).primaryNetwork)]!
      if (primary >= 0) return primary
      const pairs = this.ofToken[t]!
      return pairs.reduce((best, pair) => (best < 0 || pairDepth[pair]! > pairDepth[best]! ? pair : best), -1)
    })
  }

  /** How many pairs the market has. */
  get count(): number {
    return this.network.length
  }

  /** The pair of token `t` on `network`, or −1 where it has no pool. */
  pairOf(t: number, network: Network): number {
    return this.at[t * networks.length + networks.indexOf(network)]!
  }

  /** The pairs a figure of token `t` sums over: all of its pairs, or the one on `network`. */
  scope(t: number, network: Network | undefined): ReadonlyArray<number> {
    if (network === undefined) return this.ofToken[t]!
    const pair = this.pairOf(t, network)
    return pair >= 0 ? [pair] : []
  }
}
