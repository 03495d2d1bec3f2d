/**
 * `/v1/market-data`: prices and 24 h figures, the trending ranking (public), and candles (`read`).
 */
import { ChartQuery, ChartView, MarketDataQuery, MarketDataView, TrendingQuery, TrendingView } from "@swapdesk/core"
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { queryRoute } from "./Routes.ts"
import { Authentication, OptionalAuthentication, RequiredScope } from "./Security.ts"

/** `/v1/market-data` and `/v1/market-data/trending`: prices and the trending ranking. */
export class MarketApi extends HttpApiGroup.make("market")
  .add(
    queryRoute("marketData", "/v1/market-data", MarketDataQuery, MarketDataView, {
      summary: "Price and 24 h figures; a key with the read scope adds `extended`"
    }),
    queryRoute("trending", "/v1/market-data/trending", TrendingQuery, TrendingView, {
      summary: "The trending tokens, recalculated every 60 s of market time"
    })
  )
  .annotate(OpenApi.Description, "Prices, 24 h figures and the trending ranking (public; `read` adds extended fields)")
  .middleware(OptionalAuthentication)
{}

/** `/v1/market-data/chart`: OHLCV candles. */
export class ChartsApi extends HttpApiGroup.make("charts")
  .add(
    queryRoute("chart", "/v1/market-data/chart", ChartQuery, ChartView, {
      summary: "OHLCV candles, oldest first",
      description:
        "Candles whose open time lies in `[from, to)` (`to` defaults to now, `from` to 24 hours before `to`), " +
        "at most 1500 (`400 RANGE_TOO_LARGE` beyond). `1m`, `5m` and `15m` candles cover the last 30 days of " +
        "market time: reaching further back is `400 VALIDATION_ERROR` naming the window; `1h`, `4h` and `1d` " +
        "reach back to the start of history."
    })
  )
  .annotate(OpenApi.Description, "OHLCV candles (scope `read`)")
  .annotate(RequiredScope, "read")
  .middleware(Authentication)
{}
