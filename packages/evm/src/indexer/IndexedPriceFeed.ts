/**
 * The core's `PriceFeed` on the chain index: the current price is the spot feed's (the pools' mid
 * price), every other figure comes from the indexed swaps and transfers, with time windows on the
 * network's head block time (docs/live.md, "Market data from the chain"). A token's price, change,
 * market cap and holders are those of its network of record; volumes, with a network, are that
 * network's, else every network's together. `ETH` is read from WETH's pool.
 */
import {
  type MarketStats,
  MoneyDecimal,
  type Network,
  PriceFeed,
  type Token,
  type TrendingEntry,
  type TrendingRanking,
  trendingScore
} from "@swapdesk/core"
import { Clock, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { erc20Abi, type PublicClient } from "viem"
import { makeLivePriceFeed } from "../live/LivePriceFeed.ts"
import { LiveState } from "../live/LiveState.ts"
import { liveTokensOf } from "../live/LiveTokens.ts"
import type { LiveConfig } from "../LiveConfig.ts"
import { ChainIndex, layerChainIndex } from "./ChainIndex.ts"
import { type ChainIndexerOptions, indexClient } from "./ChainIndexer.ts"
import { fillCandles } from "./IndexedCandles.ts"

const minute = 60_000
const hour = 60 * minute
const day = 24 * hour

/** Settings that tests change. */
export interface IndexedPriceFeedOptions {
  /** How often trending is recalculated: 60 s when absent. */
  readonly trendingIntervalMs?: number
}

/** The index's name of a token: ETH trades as WETH. */
const keyOf = (symbol: string) => (symbol === "ETH" ? "WETH" : symbol)

interface WindowVolumes {
  readonly volume24h: MoneyDecimal
  readonly buy24h: MoneyDecimal
  readonly volume1h: MoneyDecimal
  readonly buy1h: MoneyDecimal
  readonly previous24h: MoneyDecimal
}

/** The full `PriceFeed` over the index; `spot` answers the current prices and the FX rates. */
export const makeIndexedPriceFeed = (
  config: LiveConfig,
  index: ChainIndex["Service"],
  spot: PriceFeed["Service"],
  options: IndexedPriceFeedOptions = {}
) =>
  Effect.gen(function*() {
    const tokens = liveTokensOf(config)
    const bySymbol = new Map(tokens.map((t) => [t.symbol, t]))
    const byNetwork = new Map(index.indexed.map((n) => [n.network as Network, n]))
    const clients = new Map<Network, PublicClient>()
    const clientOf = (network: Network) => {
      let client = clients.get(network)
      if (client === undefined) clients.set(network, client = indexClient(byNetwork.get(network)!, 10_000))
      return client
    }
    const networksOf = (token: Token) =>
      (Object.keys(token.addresses) as Array<Network>).filter((n) => byNetwork.has(n))

    /**
     * The network's "now": its head block's time, or before the node's head is read (at a start
     * with the node down) the last indexed block's. The server's clock only with nothing indexed,
     * when no figure depends on it.
     */
    const headTime = (network: Network) =>
      Effect.suspend(() => {
        const state = index.stateOf(network)
        const known = state?.headTime ?? state?.indexedTime ?? null
        return known === null ? Clock.currentTimeMillis : Effect.succeed(known)
      })

    const tokenOf = (symbol: string) =>
      Effect.suspend(() => {
        const token = bySymbol.get(symbol)
        return token === undefined
          ? Effect.die(new Error(`${symbol} is not a token of the live file`))
          : Effect.succeed(token)
      })

    /** The minute candles' volumes around the head: the last 24 h, the last hour, and the 24 h before that hour. */
    const windows = (network: Network, symbol: string) =>
      Effect.gen(function*() {
        const now = yield* headTime(network)
        const current = Math.floor(now / minute) * minute
        const from = current - day - hour + minute
        const { rows } = yield* index.store.candles(network, keyOf(symbol), "1m", from, current + minute).pipe(
          Effect.orDie
        )
        const zero = new MoneyDecimal(0)
        let volume24h = zero, buy24h = zero, volume1h = zero, buy1h = zero, previous24h = zero
        for (const row of rows) {
          const age = current - row.openTime
          if (age < day) {
            volume24h = volume24h.add(row.volumeUsd)
            buy24h = buy24h.add(row.buyVolumeUsd)
          }
          if (age < hour) {
            volume1h = volume1h.add(row.volumeUsd)
            buy1h = buy1h.add(row.buyVolumeUsd)
          } else if (age < hour + day) {
            previous24h = previous24h.add(row.volumeUsd)
          }
        }
        return { volume24h, buy24h, volume1h, buy1h, previous24h } satisfies WindowVolumes
      })

    const change24h = (token: Token, price: MoneyDecimal) =>
      Effect.gen(function*() {
        const network = token.primaryNetwork
        if (!byNetwork.has(network)) return 0
        const now = yield* headTime(network)
        const reference = yield* index.store.referencePrice(network, keyOf(token.symbol), now - day).pipe(Effect.orDie)
        return reference === undefined ? 0 : price.div(reference).sub(1).mul(100).toNumber()
      })

    const totalSupply = (token: Token) =>
      token.symbol === "ETH" || !byNetwork.has(token.primaryNetwork)
        ? Effect.succeed(undefined)
        : Effect.tryPromise(() =>
          clientOf(token.primaryNetwork).readContract({
            address: token.addresses[token.primaryNetwork] as `0x${string}`,
            abi: erc20Abi,
            functionName: "totalSupply"
          })
        ).pipe(Effect.orElseSucceed(() => undefined))

    const stats = (symbol: string, network?: Network): Effect.Effect<MarketStats> =>
      Effect.gen(function*() {
        const token = yield* tokenOf(symbol)
        const [price, supply] = yield* Effect.all([spot.priceUsd(symbol), totalSupply(token)], { concurrency: 2 })
        const changePercent = yield* change24h(token, price)
        const counted = network === undefined ? networksOf(token) : networksOf(token).filter((n) => n === network)
        const volumeByNetworkUsd: Partial<Record<Network, number>> = {}
        const zero = new MoneyDecimal(0)
        let volume24h = zero, buy24h = zero, volume1h = zero, previous24h = zero
        let whaleCount = 0
        let whaleNet = zero
        for (const n of counted) {
          const w = yield* windows(n, symbol)
          volumeByNetworkUsd[n] = w.volume24h.toNumber()
          volume24h = volume24h.add(w.volume24h)
          buy24h = buy24h.add(w.buy24h)
          volume1h = volume1h.add(w.volume1h)
          previous24h = previous24h.add(w.previous24h)
          const now = yield* headTime(n)
          const whales = yield* index.store.whales(n, keyOf(symbol), now - day, now).pipe(Effect.orDie)
          whaleCount += whales.length
          for (const whale of whales) {
            whaleNet = whale.side === "buy"
              ? whaleNet.add(whale.value_usd)
              : whaleNet.sub(whale.value_usd)
          }
        }
        const holders = byNetwork.has(token.primaryNetwork) && symbol !== "ETH"
          ? yield* index.store.holders(token.primaryNetwork, symbol).pipe(Effect.orDie)
          : { count: 0, top10: 0n }
        return {
          symbol,
          priceUsd: price,
          change24hPercent: changePercent,
          volume24hUsd: volume24h.toNumber(),
          marketCapUsd: supply === undefined
            ? 0
            : price.mul(new MoneyDecimal(supply.toString()).div(new MoneyDecimal(10).pow(token.decimals))).toNumber(),
          volumeByNetworkUsd,
          buyVolume24hUsd: buy24h.toNumber(),
          sellVolume24hUsd: volume24h.sub(buy24h).toNumber(),
          holders: {
            count: holders.count,
            top10Percent: supply === undefined || supply === 0n
              ? 0
              : new MoneyDecimal(holders.top10.toString()).div(supply.toString()).mul(100).toNumber()
          },
          whaleActivity: { transactions24h: whaleCount, netFlow24hUsd: whaleNet.toNumber() },
          volume1hUsd: volume1h.toNumber(),
          averageHourlyVolume24hUsd: previous24h.div(24).toNumber()
        }
      })

    const hourlyVolumes: PriceFeed["Service"]["hourlyVolumes"] = (symbol) =>
      Effect.gen(function*() {
        const token = yield* tokenOf(symbol)
        let volume1h = new MoneyDecimal(0), previous24h = new MoneyDecimal(0)
        for (const n of networksOf(token)) {
          const w = yield* windows(n, symbol)
          volume1h = volume1h.add(w.volume1h)
          previous24h = previous24h.add(w.previous24h)
        }
        return { volume1hUsd: volume1h.toNumber(), averageHourlyVolume24hUsd: previous24h.div(24).toNumber() }
      })

    const candles: PriceFeed["Service"]["candles"] = (symbol, timeframe, fromMs, toMs, network) =>
      Effect.gen(function*() {
        const token = yield* tokenOf(symbol)
        const on = network ?? token.primaryNetwork
        if (!byNetwork.has(on)) return []
        const { rows, before } = yield* index.store.candles(on, keyOf(symbol), timeframe, fromMs, toMs).pipe(
          Effect.orDie
        )
        return fillCandles(timeframe, fromMs, toMs, rows, before)
      })

    const rank = (network: Network | undefined) =>
      Effect.gen(function*() {
        const listed = tokens.filter((t) => network === undefined || t.addresses[network] !== undefined)
        const entries: Array<TrendingEntry> = []
        for (const token of listed) {
          const on = network ?? token.primaryNetwork
          if (!byNetwork.has(on)) continue
          const price = yield* spot.priceUsd(token.symbol).pipe(Effect.catchCause(() => Effect.succeed(undefined)))
          if (price === undefined) continue
          const change = yield* change24h(token, price)
          const w = yield* windows(on, token.symbol)
          const score = trendingScore({
            volume1hUsd: w.volume1h.toNumber(),
            buyVolume1hUsd: w.buy1h.toNumber(),
            averageHourlyVolume24hUsd: w.previous24h.div(24).toNumber(),
            change24hPercent: change,
            pegged: token.stablecoin
          })
          entries.push({
            symbol: token.symbol,
            priceUsd: price.toNumber(),
            change24hPercent: change,
            volume24hUsd: w.volume24h.toNumber(),
            network: on,
            score
          })
        }
        entries.sort((a, b) =>
          b.score - a.score || b.volume24hUsd - a.volume24hUsd ||
          (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)
        )
        return entries
      })

    const rankings = new Map<string, TrendingRanking>()
    const recalculate = Effect.gen(function*() {
      // The latest head block time read (or block indexed); the clock only with neither.
      const heads = index.indexed.map((n) => {
        const state = index.stateOf(n.network)
        return state?.headTime ?? state?.indexedTime ?? 0
      })
      const updatedAt = Math.max(0, ...heads) || (yield* Clock.currentTimeMillis)
      for (const key of [undefined, ...byNetwork.keys()]) {
        rankings.set(key ?? "all", { updatedAt, entries: yield* rank(key) })
      }
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("trending not recalculated", cause)))
    yield* recalculate
    yield* Effect.forkScoped(
      Effect.forever(Effect.andThen(Effect.sleep(options.trendingIntervalMs ?? 60_000), recalculate))
    )

    return PriceFeed.of({
      priceUsd: spot.priceUsd,
      stats,
      hourlyVolumes,
      candles,
      trending: (network) => Effect.sync(() => rankings.get(network ?? "all") ?? { updatedAt: 0, entries: [] }),
      fxRate: spot.fxRate
    })
  })

/**
 * The index's `PriceFeed`, replacing the spot-only one of `layerLivePorts` (provide it over them):
 * it needs the ports' `LiveState` and the running `ChainIndex`.
 */
export const layerIndexedPriceFeed = (config: LiveConfig, options: IndexedPriceFeedOptions = {}) =>
  Layer.effect(
    PriceFeed,
    Effect.gen(function*() {
      const state = yield* LiveState
      const index = yield* ChainIndex
      return yield* makeIndexedPriceFeed(config, index, makeLivePriceFeed(state, liveTokensOf(config)), options)
    })
  )

/**
 * Live market data in one layer: the index of every network (`layerChainIndex`) and the `PriceFeed`
 * on it. Provide it over `layerLivePorts` (whose `LiveState` it needs, and whose spot-only
 * `PriceFeed` it replaces) with the store's migrated `SqlClient`; `ChainIndex.networks` gives the
 * health answer's `indexedBlock` and `lagBlocks`.
 */
export const layerLiveMarketData = (
  config: LiveConfig,
  options: { readonly index?: ChainIndexerOptions; readonly feed?: IndexedPriceFeedOptions } = {}
): Layer.Layer<PriceFeed | ChainIndex, never, LiveState | SqlClient.SqlClient> =>
  layerIndexedPriceFeed(config, options.feed).pipe(Layer.provideMerge(layerChainIndex(config, options.index)))
