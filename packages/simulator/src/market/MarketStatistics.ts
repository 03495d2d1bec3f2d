/**
 * The 24 h picture of a token: price, change against 24 h ago, rolling volume windows, market cap,
 * holders and whale activity, from the minute store as of the current bucket. Answers are kept
 * until the market next changes (`invalidate`), because every request for a token's figures would
 * otherwise re-sum a day of minutes.
 */
import { type MarketStats, MoneyDecimal, type Network, networks } from "@swapdesk/core"
import { holdersCount, top10Percent } from "./Holders.ts"
import type { TokenMarketParams } from "./MarketParams.ts"
import type { MinuteStore } from "./MinuteStore.ts"
import type { PairBook } from "./PairBook.ts"
import type { PriceProcesses } from "./PriceProcess.ts"
import type { TradeLedger } from "./TradeLedger.ts"
import type { WhaleSummary } from "./WhaleLog.ts"

const SECOND_MS = 1_000
const HOUR_MINUTES = 60
const DAY_MINUTES = 1_440
const DAY_MS = 86_400_000

/**
 * How far back from the current minute `windowSums` reads (the 24 h before the last hour, and that
 * hour): the minute store's buy volume and prefix sums are needed no further back.
 */
export const WINDOW_SUMS_MINUTES = DAY_MINUTES + HOUR_MINUTES

/** Rolling-window sums of one scope (a pair or a token's pairs). */
export interface WindowSums {
  volume24h: number
  buy24h: number
  volume1h: number
  buy1h: number
  /** Average hourly volume over the 24 h before the last hour. */
  averageHourly: number
}

export const emptySums = (): WindowSums => ({ volume24h: 0, buy24h: 0, volume1h: 0, buy1h: 0, averageHourly: 0 })

/**
 * What every read of the market needs of its tokens: their parameters, the price processes, which
 * process each token follows, and the pairs they trade in.
 */
export interface MarketTokens {
  readonly params: ReadonlyArray<TokenMarketParams>
  readonly processes: PriceProcesses
  readonly processOf: Int32Array
  readonly pairs: PairBook
}

/** The 24 h figures of every token. */
export class MarketStatistics {
  private readonly tokens: MarketTokens
  private readonly store: MinuteStore
  private readonly ledger: TradeLedger
  private readonly whaleScratch: WhaleSummary = { transactions: 0, netFlowUsd: 0 }
  /** Answers since the market last changed (a tick, a price set, a swap), by scope. */
  private readonly cache = new Map<string, MarketStats>()

  constructor(tokens: MarketTokens, store: MinuteStore, ledger: TradeLedger) {
    this.tokens = tokens
    this.store = store
    this.ledger = ledger
  }

  /** The market changed: cached answers are stale. */
  invalidate(): void {
    // Most ticks find it empty, and clearing a Map allocates a new table even then.
    if (this.cache.size > 0) this.cache.clear()
  }

  /**
   * Token `t`'s 24 h picture at `nowMs`, whose minute is `bucket`. Volume windows are whole minute buckets: the last 24 h
   * is the current minute and the 1 439 before it. With a network, the volume figures (and whales)
   * are that network's only; price, change, market cap and holders are the token's.
   */
  stats(t: number, network: Network | undefined, nowMs: number, bucket: number): MarketStats {
    const symbol = this.tokens.params[t]!.symbol
    const key = network === undefined ? symbol : `${symbol}/${network}`
    const cached = this.cache.get(key)
    if (cached !== undefined) return cached
    const computed = this.compute(t, network, nowMs, bucket)
    this.cache.set(key, computed)
    return computed
  }

  private compute(t: number, network: Network | undefined, nowMs: number, bucket: number): MarketStats {
    const process = this.tokens.processOf[t]!
    const params = this.tokens.params[t]!
    const price = this.tokens.processes.price[process]!
    const pairs = this.tokens.pairs.scope(t, network)
    const sums = this.windowSums(pairs, bucket, emptySums())
    const volumeByNetworkUsd: Partial<Record<Network, number>> = {}
    if (network !== undefined) volumeByNetworkUsd[network] = sums.volume24h
    else {
      for (const pair of pairs) {
        volumeByNetworkUsd[networks[this.tokens.pairs.network[pair]!]!] =
          this.windowSums([pair], bucket, emptySums()).volume24h
      }
    }
    // Events of the current second (`setPrice`, `applySwap` at [nowMs, nowMs + 1000)) count already.
    const ledger = this.ledger
    const whales = ledger.whales[t]!.summarise(
      nowMs - DAY_MS,
      nowMs + SECOND_MS - 1,
      network === undefined ? -1 : networks.indexOf(network),
      this.whaleScratch
    )
    return {
      symbol: params.symbol,
      priceUsd: new MoneyDecimal(price),
      change24hPercent: this.change24hPercent(process, nowMs),
      volume24hUsd: sums.volume24h,
      marketCapUsd: price * params.circulatingSupply,
      volumeByNetworkUsd,
      buyVolume24hUsd: sums.buy24h,
      sellVolume24hUsd: Math.max(0, sums.volume24h - sums.buy24h),
      holders: {
        count: holdersCount(
          params.holders,
          ledger.volumeSinceStart[t]!,
          ledger.netBuySinceStart[t]!,
          params.dailyVolumeUsd
        ),
        top10Percent: top10Percent(params.top10Percent, ledger.whaleNetSinceStart[t]!, params.dailyVolumeUsd)
      },
      whaleActivity: { transactions24h: whales.transactions, netFlow24hUsd: whales.netFlowUsd },
      volume1hUsd: sums.volume1h,
      averageHourlyVolume24hUsd: sums.averageHourly
    }
  }

  /** Percent change of a process's price against its price 24 h before `nowMs` (the open of that minute). */
  change24hPercent(process: number, nowMs: number): number {
    const bucket = this.store.bucketOf(nowMs - DAY_MS)
    const then = bucket <= 0
      ? this.store.firstOpen[process]!
      : this.store.close[process]![this.store.indexOf(bucket - 1)]!
    return (this.tokens.processes.price[process]! / then - 1) * 100
  }

  /** Token `t`'s rolling 1 h volume and its average hourly volume over the 24 h before, at minute `bucket`. */
  hourlyVolumes(
    t: number,
    bucket: number
  ): { readonly volume1hUsd: number; readonly averageHourlyVolume24hUsd: number } {
    const sums = this.windowSums(this.tokens.pairs.scope(t, undefined), bucket, emptySums())
    return { volume1hUsd: sums.volume1h, averageHourlyVolume24hUsd: sums.averageHourly }
  }

  /** The window sums of a scope as of bucket `current`. */
  windowSums(pairs: ReadonlyArray<number>, current: number, into: WindowSums): WindowSums {
    const store = this.store
    into.volume24h = store.sum(store.volume, pairs, current - DAY_MINUTES + 1, current)
    into.buy24h = store.sum(store.buyVolume, pairs, current - DAY_MINUTES + 1, current)
    into.volume1h = store.sum(store.volume, pairs, current - HOUR_MINUTES + 1, current)
    into.buy1h = store.sum(store.buyVolume, pairs, current - HOUR_MINUTES + 1, current)
    const priorFirst = Math.max(0, current - HOUR_MINUTES - DAY_MINUTES + 1)
    const priorLast = current - HOUR_MINUTES
    const priorMinutes = priorLast - priorFirst + 1
    into.averageHourly = priorMinutes > 0
      ? store.sum(store.volume, pairs, priorFirst, priorLast) / (priorMinutes / HOUR_MINUTES)
      : 0
    return into
  }
}
