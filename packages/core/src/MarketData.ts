/**
 * Market data use cases: a token's price and 24 h figures, its candles, and the trending ranking,
 * converted into the requested currency. Prices are exact decimals until the response, where the
 * spec asks for numbers.
 */
import type { Decimal } from "decimal.js"
import { Context, Effect, Layer } from "effect"
import { invalid, type InvalidToken, RangeTooLarge, type ValidationFailed } from "./Errors.ts"
import { CHART_DEFAULT_SPAN_MS, MINUTE_HISTORY_MS } from "./Limits.ts"
import { type Currency, type MarketStats, type Timeframe, timeframeMs } from "./Market.ts"
import { MarketClock, toIso } from "./MarketClock.ts"
import type { ChartView, MarketDataView, TrendingView } from "./MarketViews.ts"
import { MoneyDecimal } from "./Money.ts"
import type { Network } from "./Network.ts"
import { PriceFeed } from "./PriceFeed.ts"
import {
  type ChartQuery,
  type MarketDataQuery,
  MAX_CHART_CANDLES,
  trendingLimits,
  type TrendingQuery
} from "./Requests.ts"
import type { Token } from "./Token.ts"
import { TokenRegistry } from "./TokenRegistry.ts"

/** The market data record a `GET /market-data` answers: its wire shape (`MarketViews`). */
export type MarketSnapshot = MarketDataView

/** The candles a `GET /market-data/chart` answers: its wire shape (`MarketViews`). */
export type Chart = ChartView

/** The ranking a `GET /market-data/trending` answers: its wire shape (`MarketViews`). */
export type Trending = TrendingView

const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

/** How many aligned candle open times lie in `[fromMs, toMs)`. */
export const candleCount = (timeframe: Timeframe, fromMs: number, toMs: number): number => {
  const step = timeframeMs[timeframe]
  const first = Math.ceil(fromMs / step) * step
  return toMs <= first ? 0 : Math.ceil((toMs - first) / step)
}

/**
 * A figure as a response carries it. The spec promises numbers and JSON has none for infinity or
 * NaN (they would go out as `null`), so a non-finite figure from the price feed is a defect that
 * fails the request loudly rather than an answer the client cannot read.
 */
const finite = (figure: number): number => {
  if (Number.isFinite(figure)) return figure
  throw new Error(`the price feed produced a non-finite market figure: ${figure}`)
}

/**
 * USD figures in the currency of `rate`, as the numbers a response carries. Decided once per
 * request: for USD itself (rate 1) the figures pass through without Decimal arithmetic, which
 * could not change them.
 */
const inCurrency = (rate: Decimal): (usd: number | Decimal) => number =>
  rate.eq(1) ? inUsd : (usd) => finite(new MoneyDecimal(usd).mul(rate).toNumber())

const inUsd = (usd: number | Decimal): number => finite(typeof usd === "number" ? usd : usd.toNumber())

/** The market-data record of `token` from its statistics, its figures in `convert`'s currency. */
const snapshotOf = (
  token: Token,
  currency: Currency,
  convert: (usd: number | Decimal) => number,
  stats: MarketStats,
  extended: boolean
): MarketSnapshot => {
  const basic = {
    token: token.symbol,
    price: convert(stats.priceUsd),
    currency,
    change24h: finite(stats.change24hPercent),
    volume24h: convert(stats.volume24hUsd),
    marketCap: convert(stats.marketCapUsd)
  }
  if (!extended) return basic
  const volumeByNetwork: Partial<Record<Network, number>> = {}
  for (const [network, usd] of Object.entries(stats.volumeByNetworkUsd) as Array<[Network, number]>) {
    volumeByNetwork[network] = convert(usd)
  }
  return {
    ...basic,
    extended: {
      volumeByNetwork,
      buyVolume24h: convert(stats.buyVolume24hUsd),
      sellVolume24h: convert(stats.sellVolume24hUsd),
      holders: { count: finite(stats.holders.count), top10Percent: finite(stats.holders.top10Percent) },
      whaleActivity: {
        transactions24h: finite(stats.whaleActivity.transactions24h),
        netFlow24h: convert(stats.whaleActivity.netFlow24hUsd)
      }
    }
  }
}

export class MarketData extends Context.Service<MarketData, {
  readonly snapshot: (
    query: MarketDataQuery,
    extended: boolean
  ) => Effect.Effect<MarketSnapshot, InvalidToken>
  readonly chart: (query: ChartQuery) => Effect.Effect<Chart, InvalidToken | ValidationFailed | RangeTooLarge>
  readonly trending: (query: TrendingQuery) => Effect.Effect<Trending>
}>()("@swapdesk/core/MarketData") {
  static readonly layer = Layer.effect(
    MarketData,
    Effect.gen(function*() {
      const feed = yield* PriceFeed
      const clock = yield* MarketClock
      const tokens = yield* TokenRegistry

      /**
       * The USD records built from each stats object the feed handed out. A feed hands out one
       * object while its market stands still, so between two ticks each record is built once, and
       * is the same object every time: a caller that renders it can render it once too.
       */
      const usdRecords = new WeakMap<MarketStats, { basic?: MarketSnapshot; extended?: MarketSnapshot }>()
      const usdSnapshotOf = (token: Token, stats: MarketStats, extended: boolean): MarketSnapshot => {
        let records = usdRecords.get(stats)
        if (records === undefined) usdRecords.set(stats, records = {})
        return extended
          ? records.extended ??= snapshotOf(token, "USD", inUsd, stats, true)
          : records.basic ??= snapshotOf(token, "USD", inUsd, stats, false)
      }

      // A chain rather than a generator: this runs on every market-data request. USD figures need
      // no rate: every figure the feed gives is in USD.
      const snapshot = (query: MarketDataQuery, extended: boolean) =>
        Effect.flatMap(tokens.resolve(query.token, query.network), (token) => {
          const currency = query.currency ?? "USD"
          const statsNow = feed.stats(token.symbol, query.network)
          return currency === "USD"
            ? Effect.map(statsNow, (stats) => usdSnapshotOf(token, stats, extended))
            : Effect.flatMap(
              feed.fxRate(currency),
              (rate) => Effect.map(statsNow, (stats) => snapshotOf(token, currency, inCurrency(rate), stats, extended))
            )
        })

      const chart = Effect.fn("MarketData.chart")(function*(query: ChartQuery) {
        const token = yield* tokens.resolve(query.token, query.network)
        const now = yield* clock.now
        const toMs = query.to === undefined ? now : Date.parse(query.to)
        const fromMs = query.from === undefined ? toMs - CHART_DEFAULT_SPAN_MS : Date.parse(query.from)
        if (fromMs > toMs) return yield* invalid("from", "must not be after to")
        if (timeframeMs[query.timeframe] < HOUR_MS && fromMs < now - MINUTE_HISTORY_MS) {
          return yield* invalid(
            query.from === undefined ? "to" : "from",
            `${query.timeframe} candles cover the last ${MINUTE_HISTORY_MS / DAY_MS} days of market time, from ${
              toIso(now - MINUTE_HISTORY_MS)
            }; use 1h, 4h or 1d candles for older history`
          )
        }
        const count = candleCount(query.timeframe, fromMs, toMs)
        if (count > MAX_CHART_CANDLES) return yield* new RangeTooLarge({ candles: count, max: MAX_CHART_CANDLES })
        const currency = query.currency ?? "USD"
        const convert = inCurrency(yield* feed.fxRate(currency))
        const candles = yield* feed.candles(token.symbol, query.timeframe, fromMs, toMs, query.network)
        return {
          token: token.symbol,
          timeframe: query.timeframe,
          currency,
          candles: candles.map((c) => ({
            timestamp: toIso(c.openTime),
            open: convert(c.open),
            high: convert(c.high),
            low: convert(c.low),
            close: convert(c.close),
            volume: convert(c.volumeUsd)
          }))
        } satisfies Chart
      })

      const trending = Effect.fn("MarketData.trending")(function*(query: TrendingQuery) {
        const ranking = yield* feed.trending(query.network)
        const limit = query.limit ?? trendingLimits.defaultLimit
        return {
          network: query.network ?? "all",
          updatedAt: toIso(ranking.updatedAt),
          tokens: ranking.entries.slice(0, limit).map((entry, index) => ({
            rank: index + 1,
            token: entry.symbol,
            price: finite(entry.priceUsd),
            change24h: finite(entry.change24hPercent),
            volume24h: finite(entry.volume24hUsd),
            network: entry.network
          }))
        } satisfies Trending
      })

      return { snapshot, chart, trending }
    })
  )
}
