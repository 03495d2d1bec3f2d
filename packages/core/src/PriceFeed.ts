/**
 * Port: the market's prices and statistics. Implemented by the simulator (and later by real market
 * data adapters). Symbols passed in are registry symbols, already validated.
 */
import type { Decimal } from "decimal.js"
import { Context, type Effect } from "effect"
import type { Currency, MarketStats, Timeframe, TrendingRanking, UsdCandle } from "./Market.ts"
import type { Network } from "./Network.ts"

export class PriceFeed extends Context.Service<PriceFeed, {
  /** The token's current USD price (one price across networks). */
  readonly priceUsd: (symbol: string) => Effect.Effect<Decimal>
  /**
   * 24 h statistics; with a network, volumes count that network's trading only. A stats object is
   * never changed once handed out: new figures come as a new object. `MarketData` builds one record
   * per object, and the HTTP layer renders each record once, so a changed object would be served
   * stale. Handing out one object while the market stands still is what lets both caches hit.
   */
  readonly stats: (symbol: string, network?: Network) => Effect.Effect<MarketStats>
  /**
   * The token's rolling 1 h volume and its average hourly volume over the 24 h before that hour,
   * the same figures as `stats` (`volume1hUsd`, `averageHourlyVolume24hUsd`), without computing the
   * rest of them: what volume alerts compare at each whole minute.
   */
  readonly hourlyVolumes: (
    symbol: string
  ) => Effect.Effect<Pick<MarketStats, "volume1hUsd" | "averageHourlyVolume24hUsd">>
  /** USD candles whose open time lies in `[fromMs, toMs)`, oldest first, gaps filled. */
  readonly candles: (
    symbol: string,
    timeframe: Timeframe,
    fromMs: number,
    toMs: number,
    network?: Network
  ) => Effect.Effect<ReadonlyArray<UsdCandle>>
  /** The latest trending ranking, optionally of one network's tokens. */
  readonly trending: (network?: Network) => Effect.Effect<TrendingRanking>
  /** Units of `currency` per US dollar. */
  readonly fxRate: (currency: Currency) => Effect.Effect<Decimal>
}>()("@swapdesk/core/PriceFeed") {}
