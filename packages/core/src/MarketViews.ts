/**
 * Market data on the wire (the spec's market data record, Candle and Trending token;
 * docs/reference/http-api.md#market-data). Every figure is `Schema.Finite`: JSON has no infinity
 * or NaN, and a number field never carries anything but a number (`MarketData` fails the request
 * before it would). The wire's value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import { Currency, Timeframe } from "./Market.ts"
import { Network, networks } from "./Network.ts"
import { IsoDateTime } from "./WireFormats.ts"

/** `data.extended`: only for a caller whose key has the `read` scope. Values in the requested currency. */
export const MarketDataExtendedView = Schema.Struct({
  volumeByNetwork: Schema.Struct(
    Object.fromEntries(networks.map((network) => [network, Schema.optionalKey(Schema.Finite)])) as {
      readonly [N in Network]: Schema.optionalKey<Schema.Finite>
    }
  ),
  buyVolume24h: Schema.Finite,
  sellVolume24h: Schema.Finite,
  holders: Schema.Struct({ count: Schema.Finite, top10Percent: Schema.Finite }),
  whaleActivity: Schema.Struct({ transactions24h: Schema.Finite, netFlow24h: Schema.Finite })
})

/** `GET /market-data` `data`. */
export const MarketDataView = Schema.Struct({
  token: Schema.String,
  price: Schema.Finite,
  currency: Currency,
  /** Percent. */
  change24h: Schema.Finite,
  volume24h: Schema.Finite,
  marketCap: Schema.Finite,
  extended: Schema.optionalKey(MarketDataExtendedView)
})
export type MarketDataView = typeof MarketDataView.Type

/** One OHLCV candle in the response currency. */
export const CandleView = Schema.Struct({
  /** Open time, a UTC multiple of the timeframe. */
  timestamp: IsoDateTime,
  open: Schema.Finite,
  high: Schema.Finite,
  low: Schema.Finite,
  close: Schema.Finite,
  volume: Schema.Finite
})
export type CandleView = typeof CandleView.Type

/** `GET /market-data/chart` `data`: candles oldest first. */
export const ChartView = Schema.Struct({
  token: Schema.String,
  timeframe: Timeframe,
  currency: Currency,
  candles: Schema.Array(CandleView)
})
export type ChartView = typeof ChartView.Type

/** One entry of the trending ranking. */
export const TrendingTokenView = Schema.Struct({
  rank: Schema.Finite,
  token: Schema.String,
  /** USD. */
  price: Schema.Finite,
  change24h: Schema.Finite,
  volume24h: Schema.Finite,
  network: Network
})
export type TrendingTokenView = typeof TrendingTokenView.Type

/** `GET /market-data/trending` `data`: highest rank first. */
export const TrendingView = Schema.Struct({
  /** The network filter applied, or `all`. */
  network: Schema.Literals([...networks, "all"]),
  updatedAt: IsoDateTime,
  tokens: Schema.Array(TrendingTokenView)
})
export type TrendingView = typeof TrendingView.Type
