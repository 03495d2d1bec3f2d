/**
 * The response resources as they appear on the wire, and the pure functions that build them from
 * the core's records. On the wire token amounts are decimal strings (never exponent notation, no
 * trailing zeros), timestamps are ISO 8601 UTC strings and prices, USD values and percentages are
 * numbers, as the spec says. A field that exists only in some states is an optional key that is
 * absent, not `null`, except where the spec says `null` (`confirmedAt`, `triggeredAt`).
 *
 * The schemas document the contract (OpenAPI) and let tests check a view against it; the mapping
 * functions are the only place a record becomes a response, so the spec's field rules (which keys
 * the creation form has, when `amountOut` appears) are decided once.
 */
import { Schema } from "effect"
import { Channel, NotificationSettings } from "./Account.ts"
import type { AlertRecord } from "./Alert.ts"
import { AlertCondition, AlertStatus, AlertType } from "./Alert.ts"
import type { ApiKeyRecord } from "./ApiKey.ts"
import { Currency, Timeframe } from "./Market.ts"
import { toIso } from "./MarketClock.ts"
import { formatAmount, MoneyDecimal } from "./Money.ts"
import { nativeTokenOf, Network, networks } from "./Network.ts"
import type { OrderRecord } from "./Order.ts"
import { OrderStatus } from "./Order.ts"
import type { Page } from "./Page.ts"
import { PortfolioRange } from "./Requests.ts"
import { ApiScope } from "./Scope.ts"
import { tokenOf } from "./Token.ts"
import type { TradeRecord } from "./Trade.ts"
import { FailureReason, statusOfStage, TradeStatus } from "./Trade.ts"
import type { Quote } from "./Trades.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"
import { WebhookDeliveryStatus, WebhookEventType } from "./Webhook.ts"

// ---- wire primitives ----------------------------------------------------------------------------

/** A token amount as the API writes it: plain digits, at most one point, no trailing zeros after it. */
export const DecimalString = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/, {
    message: "must be a plain decimal string without exponent or trailing zeros"
  })
).annotate({ description: "Decimal string, e.g. \"1.5\": never exponent notation, no trailing zeros" })

/** A timestamp as the API writes it: `Date.prototype.toISOString`'s UTC form with milliseconds. */
export const IsoDateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, { message: "must be an ISO 8601 UTC date-time" })
).annotate({ description: "ISO 8601 UTC date-time, e.g. 2026-01-01T00:00:00.000Z" })

/**
 * `numerator / denominator` of two token amounts in whole tokens (`numerator` has
 * `numeratorDecimals`, `denominator` has `denominatorDecimals`), as a decimal string rounded down
 * to 20 significant digits: a rate or a limit price, never overstated, never in exponent notation.
 */
export const formatUnitRatio = (
  numerator: bigint,
  numeratorDecimals: number,
  denominator: bigint,
  denominatorDecimals: number
): string => {
  const ratio = new MoneyDecimal(numerator.toString())
    .mul(new MoneyDecimal(10).pow(denominatorDecimals))
    .div(new MoneyDecimal(denominator.toString()).mul(new MoneyDecimal(10).pow(numeratorDecimals)))
  return ratio.toSignificantDigits(20, MoneyDecimal.ROUND_DOWN).toFixed()
}

/** A count on a list answer (`total`, `limit`, `offset`): a whole number, never negative. */
const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

// ---- alerts -------------------------------------------------------------------------------------

/**
 * Exactly the spec's Alert table. The optional settings of the other types (`multiplier`,
 * `minValueUsd`, `changePercent`) are accepted at creation and kept in the alert, but no view shows
 * them: the spec lists the fields an alert has, and these are not among them.
 */
const alertFields = {
  id: Schema.String,
  type: AlertType,
  /** Absent for portfolio alerts. */
  token: Schema.optionalKey(Schema.String),
  /** Price alerts only. */
  condition: Schema.optionalKey(AlertCondition),
  /** Price alerts only: the USD threshold. */
  targetPrice: Schema.optionalKey(Schema.Finite),
  channel: Channel,
  status: AlertStatus,
  createdAt: IsoDateTime
}

/** `POST /alerts` `data`: the alert without `triggeredAt` (the spec's creation form). */
export const AlertCreatedView = Schema.Struct(alertFields)
export type AlertCreatedView = typeof AlertCreatedView.Type

/** An alert in `GET /alerts`, `GET /alerts/{id}` and `PATCH /alerts/{id}`: with `triggeredAt`. */
export const AlertView = Schema.Struct({ ...alertFields, triggeredAt: Schema.NullOr(IsoDateTime) })
export type AlertView = typeof AlertView.Type

/** `GET /alerts` `data`. */
export const AlertListView = Schema.Struct({
  total: Count,
  limit: Count,
  offset: Count,
  alerts: Schema.Array(AlertView)
})
export type AlertListView = typeof AlertListView.Type

/** The rule's fields that the spec's Alert table lists for its type. */
const ruleFields = (rule: AlertRecord["rule"]) => {
  switch (rule.type) {
    case "price":
      return { token: rule.token, condition: rule.condition, targetPrice: rule.targetPrice }
    case "volume":
    case "whale":
      return { token: rule.token }
    case "portfolio":
      return {}
  }
}

/** The creation form of an alert. */
export const alertCreatedView = (alert: AlertRecord): AlertCreatedView => ({
  id: alert.id,
  type: alert.rule.type,
  ...ruleFields(alert.rule),
  channel: alert.channel,
  status: alert.status,
  createdAt: toIso(alert.createdAt)
})

/** An alert as lists and single reads show it. */
export const alertView = (alert: AlertRecord): AlertView => ({
  ...alertCreatedView(alert),
  triggeredAt: alert.triggeredAt === null ? null : toIso(alert.triggeredAt)
})

/** The pagination fields every list answer carries beside its array. */
const pageFields = (page: Page<unknown>) => ({ total: page.total, limit: page.limit, offset: page.offset })

/** A page of alerts as `GET /alerts` answers it. */
export const alertListView = (page: Page<AlertRecord>): AlertListView => ({
  ...pageFields(page),
  alerts: page.items.map(alertView)
})

// ---- trades -------------------------------------------------------------------------------------

/** `POST /trades` `data`: exactly the spec's eight creation fields. */
export const TradeCreatedView = Schema.Struct({
  id: Schema.String,
  status: TradeStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  estimatedAmountOut: DecimalString,
  fee: DecimalString,
  network: Network
})
export type TradeCreatedView = typeof TradeCreatedView.Type

/** A `GET /trades` item: the spec's list fields; `amountOut` only when confirmed, `txHash` once broadcast. */
export const TradeListItemView = Schema.Struct({
  id: Schema.String,
  status: TradeStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  amountOut: Schema.optionalKey(DecimalString),
  fee: DecimalString,
  network: Network,
  txHash: Schema.optionalKey(Schema.String),
  createdAt: IsoDateTime,
  confirmedAt: Schema.NullOr(IsoDateTime)
})
export type TradeListItemView = typeof TradeListItemView.Type

/** `GET /trades` `data`. */
export const TradeListView = Schema.Struct({
  total: Count,
  limit: Count,
  offset: Count,
  trades: Schema.Array(TradeListItemView)
})
export type TradeListView = typeof TradeListView.Type

/**
 * `GET /trades/{id}` `data`: every field of the spec's Trade table plus the published extras
 * (docs/reference/http-api.md#trades: `minAmountOut`, `gasFee`, `failureReason`, `orderId`), and no other; the price
 * impact belongs to the quote. Keys that exist only in some states are absent until then.
 */
export const TradeView = Schema.Struct({
  id: Schema.String,
  status: TradeStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  estimatedAmountOut: DecimalString,
  /** Only when confirmed. */
  amountOut: Schema.optionalKey(DecimalString),
  /** The fee quoted at creation; at confirmation, the fee charged on the actual output. */
  fee: DecimalString,
  /** The least `tokenOut` the trade accepts at execution. */
  minAmountOut: DecimalString,
  /** Percent. */
  slippage: Schema.Finite,
  /** In the network's native token: paid once executed, estimated before, zero if never broadcast. */
  gasFee: DecimalString,
  network: Network,
  /** Only once broadcast. */
  txHash: Schema.optionalKey(Schema.String),
  walletAddress: Schema.String,
  createdAt: IsoDateTime,
  /** Only once broadcast. */
  submittedAt: Schema.optionalKey(IsoDateTime),
  confirmedAt: Schema.NullOr(IsoDateTime),
  /** Only when failed. */
  failureReason: Schema.optionalKey(FailureReason),
  /** Only when a limit order made the trade. */
  orderId: Schema.optionalKey(Schema.String)
})
export type TradeView = typeof TradeView.Type

const amountOf = (units: bigint, symbol: string): string => formatAmount(units, tokenOf(symbol).decimals)

/** The creation form of a trade. */
export const tradeCreatedView = (trade: TradeRecord): TradeCreatedView => ({
  id: trade.id,
  status: statusOfStage(trade.stage),
  tokenIn: trade.tokenIn,
  tokenOut: trade.tokenOut,
  amountIn: amountOf(trade.amountIn, trade.tokenIn),
  estimatedAmountOut: amountOf(trade.estimatedAmountOut, trade.tokenOut),
  fee: amountOf(trade.fee, trade.tokenOut),
  network: trade.network
})

// `amountOut` is shown only for a confirmed trade even if a record carried one otherwise: the spec
// ties its presence to the status, not to the record's shape.
const confirmedAmountOut = (trade: TradeRecord) =>
  trade.stage === "confirmed" && trade.amountOut !== null
    ? { amountOut: amountOf(trade.amountOut, trade.tokenOut) }
    : {}

const broadcastTxHash = (trade: TradeRecord) => trade.txHash === null ? {} : { txHash: trade.txHash }

/** A trade as `GET /trades` lists it. */
export const tradeListItemView = (trade: TradeRecord): TradeListItemView => ({
  id: trade.id,
  status: statusOfStage(trade.stage),
  tokenIn: trade.tokenIn,
  tokenOut: trade.tokenOut,
  amountIn: amountOf(trade.amountIn, trade.tokenIn),
  ...confirmedAmountOut(trade),
  fee: amountOf(trade.fee, trade.tokenOut),
  network: trade.network,
  ...broadcastTxHash(trade),
  createdAt: toIso(trade.createdAt),
  confirmedAt: trade.confirmedAt === null ? null : toIso(trade.confirmedAt)
})

/** A page of trades as `GET /trades` answers it, most recent first as the page was cut. */
export const tradeListView = (page: Page<TradeRecord>): TradeListView => ({
  ...pageFields(page),
  trades: page.items.map(tradeListItemView)
})

/**
 * Gas in the native token: what was paid once the chain executed the transaction; before that the
 * estimate; nothing for a trade that failed before it was ever broadcast (rejected, timed out).
 */
const gasFeeOf = (trade: TradeRecord): bigint =>
  trade.gasFee ?? (trade.stage === "failed" && trade.txHash === null ? 0n : trade.estimatedGasFee)

/** A trade as `GET /trades/{id}` shows it: every field. */
export const tradeView = (trade: TradeRecord): TradeView => ({
  id: trade.id,
  status: statusOfStage(trade.stage),
  tokenIn: trade.tokenIn,
  tokenOut: trade.tokenOut,
  amountIn: amountOf(trade.amountIn, trade.tokenIn),
  estimatedAmountOut: amountOf(trade.estimatedAmountOut, trade.tokenOut),
  ...confirmedAmountOut(trade),
  fee: amountOf(trade.fee, trade.tokenOut),
  minAmountOut: amountOf(trade.minAmountOut, trade.tokenOut),
  slippage: trade.slippage,
  gasFee: amountOf(gasFeeOf(trade), nativeTokenOf(trade.network)),
  network: trade.network,
  ...broadcastTxHash(trade),
  walletAddress: trade.walletAddress,
  createdAt: toIso(trade.createdAt),
  ...(trade.submittedAt === null ? {} : { submittedAt: toIso(trade.submittedAt) }),
  confirmedAt: trade.confirmedAt === null ? null : toIso(trade.confirmedAt),
  ...(trade.stage === "failed" && trade.failureReason !== null ? { failureReason: trade.failureReason } : {}),
  ...(trade.orderId === null ? {} : { orderId: trade.orderId })
})

/** `GET /quote` `data`: what `POST /trades` would start with, executing nothing (docs/reference/http-api.md#trades). */
export const QuoteView = Schema.Struct({
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  network: Network,
  /** Percent, as requested or the default. */
  slippage: Schema.Finite,
  estimatedAmountOut: DecimalString,
  fee: DecimalString,
  minAmountOut: DecimalString,
  /** Percent. */
  priceImpact: Schema.Finite,
  /** Estimated, in the network's native token. */
  gasFee: DecimalString,
  /** `tokenOut` per `tokenIn` at the estimated amount out. */
  rate: DecimalString,
  /** Until when the quote is indicative. */
  expiresAt: IsoDateTime
})
export type QuoteView = typeof QuoteView.Type

/** A quote on the wire. */
export const quoteView = (quote: Quote): QuoteView => ({
  tokenIn: quote.tokenIn.symbol,
  tokenOut: quote.tokenOut.symbol,
  amountIn: formatAmount(quote.amountIn, quote.tokenIn.decimals),
  network: quote.network,
  slippage: quote.slippage,
  estimatedAmountOut: formatAmount(quote.outcome.netOut, quote.tokenOut.decimals),
  fee: formatAmount(quote.outcome.fee, quote.tokenOut.decimals),
  minAmountOut: formatAmount(quote.outcome.minAmountOut, quote.tokenOut.decimals),
  priceImpact: quote.chainQuote.priceImpactPercent,
  gasFee: formatAmount(quote.chainQuote.gasFee, tokenOf(nativeTokenOf(quote.network)).decimals),
  rate: quote.rate,
  expiresAt: toIso(quote.expiresAt)
})

// ---- limit orders (http-api.md#limit-orders) ----------------------------------------------------

/** A limit order on the wire (docs/reference/http-api.md#limit-orders). */
export const OrderView = Schema.Struct({
  id: Schema.String,
  status: OrderStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString,
  minAmountOut: DecimalString,
  /** `minAmountOut / amountIn`: `tokenOut` per `tokenIn`, rounded down. */
  limitPrice: DecimalString,
  network: Network,
  /** Who signed: a base58 ed25519 public key on solana, a checksummed address on the EVM networks. */
  signer: Schema.String,
  /** The signer's signature over the order (docs/orders.md, "Signing"), made at creation. */
  signature: Schema.String,
  /** The wallet whose funds back the order. */
  walletAddress: Schema.String,
  createdAt: IsoDateTime,
  expiresAt: Schema.NullOr(IsoDateTime),
  /** The trade that filled (or tried to fill) the order. */
  tradeId: Schema.NullOr(Schema.String),
  /** When the order left `pending`: filled, failed, cancelled or expired. */
  closedAt: Schema.NullOr(IsoDateTime)
})
export type OrderView = typeof OrderView.Type

/** `GET /orders` `data`. */
export const OrderListView = Schema.Struct({
  total: Count,
  limit: Count,
  offset: Count,
  orders: Schema.Array(OrderView)
})
export type OrderListView = typeof OrderListView.Type

/** A limit order as `GET /orders/{id}`, `POST /orders` and `DELETE /orders/{id}` show it. */
export const orderView = (order: OrderRecord): OrderView => {
  const decimalsIn = tokenOf(order.tokenIn).decimals
  const decimalsOut = tokenOf(order.tokenOut).decimals
  return {
    id: order.id,
    status: order.status,
    tokenIn: order.tokenIn,
    tokenOut: order.tokenOut,
    amountIn: formatAmount(order.amountIn, decimalsIn),
    minAmountOut: formatAmount(order.minAmountOut, decimalsOut),
    limitPrice: formatUnitRatio(order.minAmountOut, decimalsOut, order.amountIn, decimalsIn),
    network: order.network,
    signer: order.signer,
    signature: order.signature,
    walletAddress: order.walletAddress,
    createdAt: toIso(order.createdAt),
    expiresAt: order.expiresAt === null ? null : toIso(order.expiresAt),
    tradeId: order.tradeId,
    closedAt: order.closedAt === null ? null : toIso(order.closedAt)
  }
}

/** A page of orders as `GET /orders` answers it. */
export const orderListView = (page: Page<OrderRecord>): OrderListView => ({
  ...pageFields(page),
  orders: page.items.map(orderView)
})

// ---- market data (spec: market data record, Candle, Trending token; http-api.md#market-data) ----

// Every figure is `Schema.Finite`: JSON has no infinity or NaN, and a number field never carries
// anything but a number (`MarketData` fails the request before it would).

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

// ---- portfolio (http-api.md#portfolio) ----------------------------------------------------------

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

// ---- API keys (http-api.md#api-keys) ------------------------------------------------------------

/** A key in `GET /auth/api-keys`: never the secret or its hash. */
export const ApiKeyView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  last4: Schema.String,
  scopes: Schema.Array(ApiScope),
  createdAt: IsoDateTime,
  lastUsedAt: Schema.NullOr(IsoDateTime),
  expiresAt: Schema.NullOr(IsoDateTime)
})
export type ApiKeyView = typeof ApiKeyView.Type

/** `POST /auth/api-keys` `data`: the one response that carries the secret (`key`). */
export const ApiKeyCreatedView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  key: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(ApiScope),
  createdAt: IsoDateTime,
  expiresAt: Schema.NullOr(IsoDateTime)
})
export type ApiKeyCreatedView = typeof ApiKeyCreatedView.Type

/** `GET /auth/api-keys` `data`. */
export const ApiKeyListView = Schema.Struct({ total: Count, keys: Schema.Array(ApiKeyView) })
export type ApiKeyListView = typeof ApiKeyListView.Type

/** A key as `GET /auth/api-keys` lists it. */
export const apiKeyView = (key: ApiKeyRecord): ApiKeyView => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  last4: key.last4,
  scopes: key.scopes,
  createdAt: toIso(key.createdAt),
  lastUsedAt: key.lastUsedAt === null ? null : toIso(key.lastUsedAt),
  expiresAt: key.expiresAt === null ? null : toIso(key.expiresAt)
})

/** The creation form; `secret` is the whole key, which only this response ever shows. */
export const apiKeyCreatedView = (key: ApiKeyRecord, secret: string): ApiKeyCreatedView => ({
  id: key.id,
  name: key.name,
  key: secret,
  prefix: key.prefix,
  scopes: key.scopes,
  createdAt: toIso(key.createdAt),
  expiresAt: key.expiresAt === null ? null : toIso(key.expiresAt)
})

/** `GET /auth/api-keys`: the keys given (the caller passes only unrevoked ones). */
export const apiKeyListView = (keys: ReadonlyArray<ApiKeyRecord>): ApiKeyListView => ({
  total: keys.length,
  keys: keys.map(apiKeyView)
})

// ---- notifications and webhooks (http-api.md#notifications-and-webhooks) ------------------------

/** `GET`/`PUT /account/notifications` `data`: `null` marks a channel that is not configured. */
export const NotificationSettingsView = NotificationSettings
export type NotificationSettingsView = typeof NotificationSettingsView.Type

/** A webhook in `GET /webhooks`: never its secret. */
export const WebhookView = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  createdAt: IsoDateTime
})
export type WebhookView = typeof WebhookView.Type

/** `POST /webhooks` `data`: the one response that carries the signing secret. */
export const WebhookCreatedView = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  secret: Schema.String,
  createdAt: IsoDateTime
})
export type WebhookCreatedView = typeof WebhookCreatedView.Type

/** `GET /webhooks` `data`. */
export const WebhookListView = Schema.Struct({ total: Count, webhooks: Schema.Array(WebhookView) })
export type WebhookListView = typeof WebhookListView.Type

/** A webhook as `GET /webhooks` lists it. */
export const webhookView = (webhook: WebhookRecord): WebhookView => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  createdAt: toIso(webhook.createdAt)
})

/** The creation form of a webhook, with its signing secret. */
export const webhookCreatedView = (webhook: WebhookRecord): WebhookCreatedView => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  secret: webhook.secret,
  createdAt: toIso(webhook.createdAt)
})

/** `GET /webhooks`. */
export const webhookListView = (webhooks: ReadonlyArray<WebhookRecord>): WebhookListView => ({
  total: webhooks.length,
  webhooks: webhooks.map(webhookView)
})

/** One attempt in `GET /webhooks/{id}/deliveries`. */
export const WebhookDeliveryView = Schema.Struct({
  id: Schema.String,
  event: WebhookEventType,
  /** The `webhook-id` header this attempt carried: the same on every attempt of one event. */
  webhookId: Schema.String,
  attempt: Count,
  status: WebhookDeliveryStatus,
  responseStatus: Schema.NullOr(Schema.Int),
  createdAt: IsoDateTime,
  nextAttemptAt: Schema.NullOr(IsoDateTime)
})
export type WebhookDeliveryView = typeof WebhookDeliveryView.Type

/** `GET /webhooks/{id}/deliveries` `data`. */
export const WebhookDeliveryListView = Schema.Struct({
  total: Count,
  limit: Count,
  offset: Count,
  deliveries: Schema.Array(WebhookDeliveryView)
})
export type WebhookDeliveryListView = typeof WebhookDeliveryListView.Type

export const webhookDeliveryView = (delivery: WebhookDeliveryRecord): WebhookDeliveryView => ({
  id: delivery.id,
  event: delivery.event,
  webhookId: delivery.webhookId,
  attempt: delivery.attempt,
  status: delivery.status,
  responseStatus: delivery.responseStatus,
  createdAt: toIso(delivery.createdAt),
  nextAttemptAt: delivery.nextAttemptAt === null ? null : toIso(delivery.nextAttemptAt)
})

export const webhookDeliveryListView = (page: Page<WebhookDeliveryRecord>): WebhookDeliveryListView => ({
  total: page.total,
  limit: page.limit,
  offset: page.offset,
  deliveries: page.items.map(webhookDeliveryView)
})
