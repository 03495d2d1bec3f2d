/**
 * The portfolio on the wire (docs/reference/http-api.md#portfolio): holdings valued in USD, the
 * wallets, and the performance series. The wire's value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import { Network } from "./Network.ts"
import { PortfolioRange } from "./Requests.ts"
import { DecimalString, IsoDateTime } from "./WireFormats.ts"

/** One token held on one network, valued in USD at the current price. */
export const PortfolioHoldingView = Schema.Struct({
  token: Schema.String,
  network: Network,
  amount: DecimalString,
  price: Schema.Finite,
  value: Schema.Finite,
  costBasis: Schema.Finite,
  averageCost: Schema.Finite,
  unrealizedPnl: Schema.Finite,
  unrealizedPnlPercent: Schema.Finite,
  allocationPercent: Schema.Finite
})
export type PortfolioHoldingView = typeof PortfolioHoldingView.Type

/** `GET /portfolio` `data`; values in USD. */
export const PortfolioView = Schema.Struct({
  currency: Schema.Literal("USD"),
  totalValue: Schema.Finite,
  totalCostBasis: Schema.Finite,
  unrealizedPnl: Schema.Finite,
  unrealizedPnlPercent: Schema.Finite,
  realizedPnl: Schema.Finite,
  /** Percent. */
  change24h: Schema.Finite,
  wallets: Schema.Array(Schema.Struct({ network: Network, address: Schema.String, value: Schema.Finite })),
  holdings: Schema.Array(PortfolioHoldingView),
  performance: Schema.Struct({
    range: PortfolioRange,
    points: Schema.Array(Schema.Struct({ timestamp: IsoDateTime, value: Schema.Finite }))
  }),
  updatedAt: IsoDateTime
})
export type PortfolioView = typeof PortfolioView.Type
