/**
 * The request schemas of every operation (docs/reference/http-api.md#conventions): bodies are strict (unknown fields
 * are rejected where they are decoded), numbers in query strings are parsed and bounded, and
 * nothing is silently clamped. Rules that need the token registry (an amount's decimal places, a
 * token's existence on a network) or that span fields (an alert's type-dependent fields) are
 * checked by the use cases, which report them in the same `{ path, message }` form.
 */
import { Schema, SchemaTransformation, Struct } from "effect"
import { Channel } from "./Account.ts"
import { AlertCondition, AlertStatus, AlertType } from "./Alert.ts"
import { Currency, Timeframe } from "./Market.ts"
import { Network } from "./Network.ts"
import { OrderStatus } from "./Order.ts"
import { ApiScope } from "./Scope.ts"
import { TradeStatus } from "./Trade.ts"
import { WebhookEventType } from "./Webhook.ts"

/** Collection limits (docs/reference/http-api.md#conventions and the spec's Limits table). */
export const pageLimits = { defaultLimit: 20, maxLimit: 100 } as const
export const trendingLimits = { defaultLimit: 10, maxLimit: 50 } as const

/**
 * A plain decimal string; the token's decimal places are checked once the token is known. A JSON
 * number is refused with the fix rather than "Expected string": amounts travel as strings so that
 * no client rounds them through a binary float (docs/reference/http-api.md#conventions).
 */
export const DecimalAmount = Schema.String.annotate({
  message: "send amounts as decimal strings, e.g. \"1.5\""
}).check(
  // The `u` flag lets the pattern into the OpenAPI document (Effect exports only Unicode patterns).
  Schema.isPattern(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/u, {
    message: "must be a plain decimal string such as \"1.5\" (digits, at most one point, no sign or exponent)"
  })
)

/** A ticker symbol or a contract address. */
export const TokenReference = Schema.String.check(
  Schema.isMinLength(1, { message: "must name a token by symbol or contract address" }),
  Schema.isMaxLength(64, { message: "must be at most 64 characters" })
)

/** Slippage tolerance in percent: `0 < slippage <= 50`. */
export const Slippage = Schema.Finite.check(
  Schema.isGreaterThan(0, { message: "must be greater than 0" }),
  Schema.isLessThanOrEqualTo(50, { message: "must be at most 50" })
)
export const DEFAULT_SLIPPAGE_PERCENT = 0.5

const PositiveNumber = Schema.Finite.check(Schema.isGreaterThan(0, { message: "must be greater than 0" }))

const ISO_TIMESTAMP_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2})))?$/u

/**
 * Whether every field of an ISO timestamp names a real instant. `Date.parse` alone is not enough: it
 * rolls 2026-02-30 over to March 2 instead of rejecting it. Text that is not ISO at all passes here,
 * so that the pattern's message is the only one it gets.
 */
const isRealCalendarInstant = (text: string): boolean => {
  const match = ISO_TIMESTAMP_PATTERN.exec(text)
  if (match === null) return true
  const field = (index: number) => Number(match[index] ?? "0")
  const [year, month, day] = [field(1), field(2), field(3)]
  const daysInMonth = month === 2
    ? (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
    : [4, 6, 9, 11].includes(month)
    ? 30
    : 31
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth &&
    field(5) <= 23 && field(6) <= 59 && field(8) <= 59 && field(11) <= 23 && field(12) <= 59 &&
    !Number.isNaN(Date.parse(text))
}

/** ISO 8601 date or date-time in a query string; UTC offsets are accepted. */
export const IsoTimestamp = Schema.String.check(
  Schema.isPattern(ISO_TIMESTAMP_PATTERN, {
    message: "must be an ISO 8601 date or UTC date-time such as 2026-01-01T00:00:00Z"
  }),
  Schema.makeFilter((s: string) => isRealCalendarInstant(s) || "is not a real calendar date")
)

const DATE_ONLY_PATTERN = /^\d{4}-\d{2}-\d{2}$/
const DAY_MS = 86_400_000

/**
 * The last millisecond an `IsoTimestamp` covers, as an inclusive bound ("on or before"): a
 * date-time is its own instant, but a bare date names its whole UTC day, so it ends just before
 * the next midnight. Read as its own midnight, `to=2026-01-01` would exclude nearly all of that day.
 */
export const inclusiveEndMs = (timestamp: string): number =>
  DATE_ONLY_PATTERN.test(timestamp) ? Date.parse(timestamp) + DAY_MS - 1 : Date.parse(timestamp)

/**
 * A whole number in a query string, within bounds (`documented`: the pattern the OpenAPI document states). The text must be plain digits: `Number()` alone
 * would read "" as 0 and "1e1" or "0x10" as numbers, accepting what the client did not write.
 */
export const queryInteger = (min: number, max: number, documented: RegExp) =>
  Schema.String.check(Schema.isPattern(/^-?[0-9]+$/, {
    message: "must be a whole number",
    // What the OpenAPI document states: the whole numbers in range, written plainly. The check
    // itself takes any digits, so that a number out of range is reported as such.
    toJsonSchema: () => ({ pattern: documented.source }),
    description: `a whole number from ${min} to ${max}`
  })).pipe(
    Schema.decodeTo(
      Schema.Number.check(
        Schema.isBetween({ minimum: min, maximum: max }, { message: `must be between ${min} and ${max}` })
      ),
      SchemaTransformation.numberFromString
    )
  )

/**
 * A number in a query string: decimal digits with an optional sign, point and exponent. Without the
 * pattern `Number()` would read "" as 0 and "0x10" as 16, and text that is no number at all would
 * become NaN, which the range checks would then misreport as out of range.
 */
const queryNumber = <S extends Schema.Codec<number, number>>(target: S, documented: RegExp, description: string) =>
  Schema.String.check(
    Schema.isPattern(/^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/, {
      message: "must be a number",
      toJsonSchema: () => ({ pattern: documented.source }),
      description
    })
  ).pipe(Schema.decodeTo(target, SchemaTransformation.numberFromString))

const Limit = queryInteger(1, pageLimits.maxLimit, /^([1-9][0-9]?|100)$/)
/** Up to 15 digits are documented; larger offsets up to `Number.MAX_SAFE_INTEGER` are accepted too. */
const Offset = queryInteger(0, Number.MAX_SAFE_INTEGER, /^(0|[1-9][0-9]{0,14})$/)

/** The pagination every list query ends with. */
const pageQuery = { limit: Schema.optionalKey(Limit), offset: Schema.optionalKey(Offset) }

/** A list's query: its filters, each one optional, then the page. */
const listQuery = <const Filters extends Schema.Struct.Fields>(filters: Filters) =>
  Schema.Struct({ ...Struct.map(filters, Schema.optionalKey), ...pageQuery })

// ---- trades and quotes --------------------------------------------------------------------------

/** What a swap exchanges, as a quote, a trade and a limit order all name it. */
const swapTerms = {
  tokenIn: TokenReference,
  tokenOut: TokenReference,
  amountIn: DecimalAmount
}

export const CreateTradeBody = Schema.Struct({
  ...swapTerms,
  slippage: Schema.optionalKey(Slippage),
  network: Network
})
export type CreateTradeBody = typeof CreateTradeBody.Type

export const QuoteQuery = Schema.Struct({
  ...swapTerms,
  network: Network,
  slippage: Schema.optionalKey(
    queryNumber(
      Slippage,
      /^(50(\.0+)?|([1-9]|[1-4][0-9])(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)$/,
      "percent, greater than 0 and at most 50"
    )
  )
})
export type QuoteQuery = typeof QuoteQuery.Type

export const ListTradesQuery = listQuery({
  token: TokenReference,
  status: TradeStatus,
  network: Network,
  from: IsoTimestamp,
  to: IsoTimestamp
})
export type ListTradesQuery = typeof ListTradesQuery.Type

// ---- alerts -------------------------------------------------------------------------------------

/**
 * The alert body as a flat record: which fields belong to which `type` is checked by
 * `Alerts.create`, so that a misplaced field is named in the error rather than lost in a union.
 */
export const CreateAlertBody = Schema.Struct({
  type: AlertType,
  token: Schema.optionalKey(TokenReference),
  condition: Schema.optionalKey(AlertCondition),
  targetPrice: Schema.optionalKey(PositiveNumber),
  multiplier: Schema.optionalKey(PositiveNumber),
  minValueUsd: Schema.optionalKey(PositiveNumber),
  changePercent: Schema.optionalKey(PositiveNumber),
  channel: Channel
})
export type CreateAlertBody = typeof CreateAlertBody.Type

export const UpdateAlertBody = Schema.Struct({
  status: Schema.Literals(["active", "disabled"])
})
export type UpdateAlertBody = typeof UpdateAlertBody.Type

export const ListAlertsQuery = listQuery({ status: AlertStatus, type: AlertType, token: TokenReference })
export type ListAlertsQuery = typeof ListAlertsQuery.Type

// ---- market data --------------------------------------------------------------------------------

export const MarketDataQuery = Schema.Struct({
  token: TokenReference,
  network: Schema.optionalKey(Network),
  currency: Schema.optionalKey(Currency)
})
export type MarketDataQuery = typeof MarketDataQuery.Type

export const ChartQuery = Schema.Struct({
  token: TokenReference,
  timeframe: Timeframe,
  from: Schema.optionalKey(IsoTimestamp),
  to: Schema.optionalKey(IsoTimestamp),
  network: Schema.optionalKey(Network),
  currency: Schema.optionalKey(Currency)
})
export type ChartQuery = typeof ChartQuery.Type

export const TrendingQuery = Schema.Struct({
  network: Schema.optionalKey(Network),
  limit: Schema.optionalKey(queryInteger(1, trendingLimits.maxLimit, /^([1-9]|[1-4][0-9]|50)$/))
})
export type TrendingQuery = typeof TrendingQuery.Type

/** A chart request may span at most this many candles. */
export const MAX_CHART_CANDLES = 1500

// ---- orders, keys, notifications, webhooks (http-api.md#api-keys, #limit-orders, #notifications-and-webhooks) ---

/**
 * `POST /trades/{id}/approval`: an external wallet's answer, exactly one of the prepared swap it
 * signed, the hash of the swap it broadcast itself, or a rejection (docs/live.md).
 */
export const TradeApprovalBody = Schema.Union([
  Schema.Struct({ signedTransaction: Schema.String }),
  Schema.Struct({ txHash: Schema.String }),
  Schema.Struct({ reject: Schema.Literal(true) })
]).annotate({
  examples: [
    {
      signedTransaction: "0x02f8b1827a6980843b9aca008477359400830493e0945fbdb2315678afecb367f032d93f642f64180aa380b844"
    },
    { txHash: "0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060" },
    { reject: true }
  ]
})
export type TradeApprovalBody = typeof TradeApprovalBody.Type

/**
 * `POST /orders/{id}/signature`: an external wallet's EIP-712 signature over its order's
 * `typedData` (docs/live.md, "External wallets' limit orders").
 */
export const SubmitOrderSignatureBody = Schema.Struct({ signature: Schema.String }).annotate({
  examples: [{ signature: `0x${"ab".repeat(64)}1b` }]
})
export type SubmitOrderSignatureBody = typeof SubmitOrderSignatureBody.Type

export const CreateOrderBody = Schema.Struct({
  ...swapTerms,
  minAmountOut: DecimalAmount,
  network: Network,
  /** Rounded down to the whole second: what the wallet signs is Unix seconds. */
  expiresAt: Schema.optionalKey(IsoTimestamp)
}).annotate({
  examples: [{
    tokenIn: "SOL",
    tokenOut: "USDC",
    amountIn: "1.5",
    minAmountOut: "300",
    network: "solana",
    expiresAt: "2026-01-08T00:00:00Z"
  }]
})
export type CreateOrderBody = typeof CreateOrderBody.Type

export const ListOrdersQuery = Schema.Struct({
  status: Schema.optionalKey(OrderStatus.annotate({ examples: ["pending"] })),
  token: Schema.optionalKey(TokenReference.annotate({ examples: ["SOL"] })),
  network: Schema.optionalKey(Network.annotate({ examples: ["solana"] })),
  // A query string is text: the examples belong to the encoded side, which the OpenAPI document shows.
  limit: Schema.optionalKey(Limit.pipe(Schema.annotateEncoded({ examples: ["20"] }))),
  offset: Schema.optionalKey(Offset.pipe(Schema.annotateEncoded({ examples: ["0"] })))
})
export type ListOrdersQuery = typeof ListOrdersQuery.Type

export const CreateApiKeyBody = Schema.Struct({
  name: Schema.String.check(
    Schema.isMinLength(1, { message: "must not be empty" }),
    Schema.isMaxLength(100, { message: "must be at most 100 characters" })
  ),
  scopes: Schema.Array(ApiScope).check(Schema.isMinLength(1, { message: "must name at least one scope" })),
  /** Must be in the future. */
  expiresAt: Schema.optionalKey(IsoTimestamp)
}).annotate({
  examples: [{ name: "trading bot", scopes: ["read", "trade"], expiresAt: "2026-07-01T00:00:00Z" }]
})
export type CreateApiKeyBody = typeof CreateApiKeyBody.Type

/** `GET /portfolio`'s `range`: how far back `performance` reaches. */
export const PortfolioRange = Schema.Literals(["24h", "7d", "30d", "all"])
export type PortfolioRange = typeof PortfolioRange.Type

export const PortfolioQuery = Schema.Struct({
  network: Schema.optionalKey(Network.annotate({ examples: ["solana"] })),
  range: Schema.optionalKey(PortfolioRange.annotate({ examples: ["7d"] }))
})
export type PortfolioQuery = typeof PortfolioQuery.Type

const EmailAddress = Schema.String.check(
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u, { message: "must be an email address" }),
  Schema.isMaxLength(254, { message: "must be at most 254 characters" })
)

/** A Telegram chat: its numeric id (negative for groups and channels) or a public `@channel` name. */
const TelegramChatId = Schema.String.check(
  Schema.isPattern(/^(-?[1-9][0-9]{0,19}|@[A-Za-z][A-Za-z0-9_]{3,31})$/u, {
    message: "must be a numeric chat id (such as 123456789 or -1001234567890) or a public @channel name"
  })
)

/** An FCM registration token: opaque, but never empty or blank. */
const DeviceToken = Schema.String.check(
  Schema.isPattern(/\S/u, { message: "must not be empty" }),
  Schema.isMaxLength(4096, { message: "must be at most 4096 characters" })
)

/** A field present is set (null removes the channel); a field absent stays as it was. */
export const UpdateNotificationsBody = Schema.Struct({
  email: Schema.optionalKey(Schema.NullOr(EmailAddress)),
  telegram: Schema.optionalKey(Schema.NullOr(Schema.Struct({ chatId: TelegramChatId }))),
  push: Schema.optionalKey(Schema.NullOr(Schema.Struct({ deviceToken: DeviceToken })))
}).annotate({
  examples: [
    { email: "trader@example.com", telegram: { chatId: "123456789" } },
    { push: { deviceToken: "fcm-registration-token-from-the-device" } },
    { telegram: null }
  ]
})
export type UpdateNotificationsBody = typeof UpdateNotificationsBody.Type

export const CreateWebhookBody = Schema.Struct({
  url: Schema.String.check(
    Schema.isPattern(/^https?:\/\/[^\s]+$/u, { message: "must be an http(s) URL" }),
    Schema.isMaxLength(2048, { message: "must be at most 2048 characters" })
  ),
  events: Schema.Array(WebhookEventType).check(Schema.isMinLength(1, { message: "must name at least one event" }))
}).annotate({
  examples: [{
    url: "http://127.0.0.1:4000/webhooks/swapdesk",
    events: ["trade.confirmed", "trade.failed", "alert.triggered"]
  }]
})
export type CreateWebhookBody = typeof CreateWebhookBody.Type

export const ListDeliveriesQuery = Schema.Struct(pageQuery)
export type ListDeliveriesQuery = typeof ListDeliveriesQuery.Type
