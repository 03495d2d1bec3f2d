/**
 * The trending rankings: every token, and each network's tradable tokens, ordered by
 * `trendingScore` (the core's `TrendingScore.ts`), recomputed on the simulator's schedule and read in between.
 */
import {
  type Network,
  networks,
  simulatorCatalog,
  type TrendingEntry,
  type TrendingRanking,
  trendingScore
} from "@swapdesk/core"
import { emptySums, type MarketStatistics, type MarketTokens } from "./MarketStatistics.ts"

/** The last computed rankings, as (scope, ranking) pairs: "all" and each network. */
export type TrendingRankingsSnapshot = ReadonlyArray<readonly [scope: Network | "all", ranking: TrendingRanking]>

/** A ranking that shares nothing with `ranking`. */
const copyRanking = (ranking: TrendingRanking): TrendingRanking => ({
  updatedAt: ranking.updatedAt,
  entries: ranking.entries.map((entry) => ({ ...entry }))
})

/** The last computed rankings. */
export class TrendingRankings {
  private readonly tokens: MarketTokens
  private readonly statistics: MarketStatistics
  private rankings = new Map<Network | "all", TrendingRanking>()

  constructor(tokens: MarketTokens, statistics: MarketStatistics) {
    this.tokens = tokens
    this.statistics = statistics
  }

  /** A copy of the last computed rankings. */
  snapshot(): TrendingRankingsSnapshot {
    return Array.from(this.rankings, ([scope, ranking]) => [scope, copyRanking(ranking)] as const)
  }

  /** Holds the rankings of `snapshot` (copies) as the last computed ones. */
  restore(snapshot: TrendingRankingsSnapshot): void {
    this.rankings = new Map(snapshot.map(([scope, ranking]) => [scope, copyRanking(ranking)]))
  }

  /** Recomputes every ranking from the market at `nowMs` (in minute `bucket`), stamped `atMs`. */
  recompute(atMs: number, nowMs: number, bucket: number): void {
    const statistics = this.statistics
    const pairSums = Array.from(
      this.tokens.pairs.network,
      (_, pair) => statistics.windowSums([pair], bucket, emptySums())
    )
    const rankings = new Map<Network | "all", TrendingRanking>()
    const rank = (scope: Network | undefined): TrendingRanking => {
      const entries: Array<TrendingEntry> = []
      this.tokens.params.forEach((params, t) => {
        const registry = simulatorCatalog.tokenOf(params.symbol)
        if (scope !== undefined && !simulatorCatalog.isTradableOn(registry, scope)) return
        const sums = emptySums()
        for (const pair of this.tokens.pairs.scope(t, scope)) {
          const s = pairSums[pair]!
          sums.volume24h += s.volume24h
          sums.volume1h += s.volume1h
          sums.buy1h += s.buy1h
          sums.averageHourly += s.averageHourly
        }
        const process = this.tokens.processOf[t]!
        const change24hPercent = statistics.change24hPercent(process, nowMs)
        entries.push({
          symbol: params.symbol,
          priceUsd: this.tokens.processes.price[process]!,
          change24hPercent,
          volume24hUsd: sums.volume24h,
          network: scope ?? registry.primaryNetwork,
          score: trendingScore({
            volume1hUsd: sums.volume1h,
            buyVolume1hUsd: sums.buy1h,
            averageHourlyVolume24hUsd: sums.averageHourly,
            change24hPercent,
            pegged: this.tokens.processes.pegged[process] === 1
          })
        })
      })
      entries.sort((a, b) =>
        b.score - a.score || b.volume24hUsd - a.volume24hUsd || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)
      )
      return { updatedAt: atMs, entries }
    }
    rankings.set("all", rank(undefined))
    for (const network of networks) rankings.set(network, rank(network))
    this.rankings = rankings
  }

  /** The last computed ranking, best first: all tokens, or the tokens tradable on `network`. */
  ranking(network: Network | undefined): TrendingRanking {
    return this.rankings.get(network ?? "all")!
  }
}
