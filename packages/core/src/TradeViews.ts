/**
 * Trades and quotes on the wire: a trade's creation form, its list item, its single read with
 * every field, a page of them, and a quote. Which keys a trade shows depends on its state (the
 * spec ties `amountOut` to `confirmed`, `txHash` to a broadcast), decided here once. The wire's
 * value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import type { ApprovalRequest } from "./Chain.ts"
import { PageView, pageView } from "./ListViews.ts"
import { toIso } from "./MarketClock.ts"
import { formatAmount } from "./Money.ts"
import { nativeTokenOf, Network } from "./Network.ts"
import type { Page } from "./Page.ts"
import type { TokenCatalog } from "./TokenRegistry.ts"
import type { TradeRecord } from "./Trade.ts"
import { FailureReason, statusOfStage, TradeStatus } from "./Trade.ts"
import type { Quote } from "./Trades.ts"
import { DecimalString, IsoDateTime, isoOrNull, RateString } from "./WireFormats.ts"

/** An integer as the chain has it: base-10 digits (wei, gas units, token base units). */
const ChainInteger = Schema.String.annotate({ examples: ["150000"] })

/**
 * What an external wallet must send for a trade awaiting its approval (docs/live.md): the swap to
 * sign, the ERC-20 approval of the project's contract it needs first (null when its allowance
 * covers `amountIn`), and when the trade fails unanswered.
 */
export const ApprovalView = Schema.Struct({
  transaction: Schema.Struct({
    to: Schema.String,
    data: Schema.String,
    value: ChainInteger,
    chainId: Schema.Int,
    gas: ChainInteger
  }),
  allowance: Schema.NullOr(Schema.Struct({
    token: Schema.String,
    spender: Schema.String,
    required: ChainInteger,
    current: ChainInteger
  })),
  expiresAt: IsoDateTime
})
export type ApprovalView = typeof ApprovalView.Type

/** The approval a chain prepared, on the wire. */
export const approvalView = (request: ApprovalRequest): ApprovalView => ({
  transaction: {
    to: request.transaction.to,
    data: request.transaction.data,
    value: request.transaction.value.toString(),
    chainId: request.transaction.chainId,
    gas: request.transaction.gas.toString()
  },
  allowance: request.allowance === null ? null : {
    token: request.allowance.token,
    spender: request.allowance.spender,
    required: request.allowance.required.toString(),
    current: request.allowance.current.toString()
  },
  expiresAt: toIso(request.expiresAt)
})

/** What every form of a trade shows first. */
const tradeFields = {
  id: Schema.String,
  status: TradeStatus,
  tokenIn: Schema.String,
  tokenOut: Schema.String,
  amountIn: DecimalString
}

/** `POST /trades` `data`: exactly the spec's eight creation fields. */
export const TradeCreatedView = Schema.Struct({
  ...tradeFields,
  estimatedAmountOut: DecimalString,
  fee: DecimalString,
  network: Network
})
export type TradeCreatedView = typeof TradeCreatedView.Type

/** A `GET /trades` item: the spec's list fields; `amountOut` only when confirmed, `txHash` once broadcast. */
export const TradeListItemView = Schema.Struct({
  ...tradeFields,
  amountOut: Schema.optionalKey(DecimalString),
  fee: DecimalString,
  network: Network,
  txHash: Schema.optionalKey(Schema.String),
  createdAt: IsoDateTime,
  confirmedAt: Schema.NullOr(IsoDateTime)
})
export type TradeListItemView = typeof TradeListItemView.Type

/** `GET /trades` `data`. */
export const TradeListView = PageView("trades", TradeListItemView)
export type TradeListView = typeof TradeListView.Type

/**
 * `GET /trades/{id}` `data`: every field of the spec's Trade table plus the published extras
 * (docs/reference/http-api.md#trades: `minAmountOut`, `gasFee`, `failureReason`, `orderId`), and no other; the price
 * impact belongs to the quote. Keys that exist only in some states are absent until then.
 */
export const TradeView = Schema.Struct({
  ...tradeFields,
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
  orderId: Schema.optionalKey(Schema.String),
  /** Only while an external wallet's swap awaits its owner's answer (live mode). */
  approval: Schema.optionalKey(ApprovalView)
})
export type TradeView = typeof TradeView.Type

/** `units` of the token `symbol` as a decimal string in its decimals. */
type AmountOf = (units: bigint, symbol: string) => string

const amountsIn = (tokens: TokenCatalog): AmountOf => (units, symbol) =>
  formatAmount(units, tokens.tokenOf(symbol).decimals)

const tradeFieldsOf = (trade: TradeRecord, amountOf: AmountOf) => ({
  id: trade.id,
  status: statusOfStage(trade.stage),
  tokenIn: trade.tokenIn,
  tokenOut: trade.tokenOut,
  amountIn: amountOf(trade.amountIn, trade.tokenIn)
})

/** The creation form of a trade. */
export const tradeCreatedView = (tokens: TokenCatalog) => {
  const amountOf = amountsIn(tokens)
  return (trade: TradeRecord): TradeCreatedView => ({
    ...tradeFieldsOf(trade, amountOf),
    estimatedAmountOut: amountOf(trade.estimatedAmountOut, trade.tokenOut),
    fee: amountOf(trade.fee, trade.tokenOut),
    network: trade.network
  })
}

// `amountOut` is shown only for a confirmed trade even if a record carried one otherwise: the spec
// ties its presence to the status, not to the record's shape.
const confirmedAmountOut = (trade: TradeRecord, amountOf: AmountOf) =>
  trade.stage === "confirmed" && trade.amountOut !== null
    ? { amountOut: amountOf(trade.amountOut, trade.tokenOut) }
    : {}

const broadcastTxHash = (trade: TradeRecord) => trade.txHash === null ? {} : { txHash: trade.txHash }

/** A trade as `GET /trades` lists it. */
export const tradeListItemView = (tokens: TokenCatalog) => {
  const amountOf = amountsIn(tokens)
  return (trade: TradeRecord): TradeListItemView => ({
    ...tradeFieldsOf(trade, amountOf),
    ...confirmedAmountOut(trade, amountOf),
    fee: amountOf(trade.fee, trade.tokenOut),
    network: trade.network,
    ...broadcastTxHash(trade),
    createdAt: toIso(trade.createdAt),
    confirmedAt: isoOrNull(trade.confirmedAt)
  })
}

/** A page of trades as `GET /trades` answers it, most recent first as the page was cut. */
export const tradeListView = (tokens: TokenCatalog): (page: Page<TradeRecord>) => TradeListView =>
  pageView("trades", tradeListItemView(tokens))

/**
 * Gas in the native token: what was paid once the chain executed the transaction; before that the
 * estimate; nothing for a trade that failed before it was ever broadcast (rejected, timed out).
 */
const gasFeeOf = (trade: TradeRecord): bigint =>
  trade.gasFee ?? (trade.stage === "failed" && trade.txHash === null ? 0n : trade.estimatedGasFee)

/** A trade awaiting its wallet's answer, with what the wallet must sign. */
export interface TradeAwaitingApproval {
  readonly trade: TradeRecord
  readonly approval: ApprovalRequest
}

/** A trade as `GET /trades/{id}` shows it, with what its wallet must sign while it awaits an answer. */
export const tradeDetailView = (tokens: TokenCatalog) => {
  const viewOf = tradeView(tokens)
  return (detail: TradeRecord | TradeAwaitingApproval): TradeView =>
    "approval" in detail ? { ...viewOf(detail.trade), approval: approvalView(detail.approval) } : viewOf(detail)
}

/** A trade as `GET /trades/{id}` shows it: every field. */
export const tradeView = (tokens: TokenCatalog) => {
  const amountOf = amountsIn(tokens)
  return (trade: TradeRecord): TradeView => ({
    ...tradeFieldsOf(trade, amountOf),
    estimatedAmountOut: amountOf(trade.estimatedAmountOut, trade.tokenOut),
    ...confirmedAmountOut(trade, amountOf),
    fee: amountOf(trade.fee, trade.tokenOut),
    minAmountOut: amountOf(trade.minAmountOut, trade.tokenOut),
    slippage: trade.slippage,
    gasFee: amountOf(gasFeeOf(trade), nativeTokenOf(trade.network)),
    network: trade.network,
    ...broadcastTxHash(trade),
    walletAddress: trade.walletAddress,
    createdAt: toIso(trade.createdAt),
    ...(trade.submittedAt === null ? {} : { submittedAt: toIso(trade.submittedAt) }),
    confirmedAt: isoOrNull(trade.confirmedAt),
    ...(trade.stage === "failed" && trade.failureReason !== null ? { failureReason: trade.failureReason } : {}),
    ...(trade.orderId === null ? {} : { orderId: trade.orderId })
  })
}

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
  /** `tokenOut` per `tokenIn` at the estimated amount out, rounded down to 10 significant digits. */
  rate: RateString,
  /** Until when the quote is indicative. */
  expiresAt: IsoDateTime
})
export type QuoteView = typeof QuoteView.Type

/** A quote on the wire; gas in the decimals of the network's native token in `tokens`. */
export const quoteView = (tokens: TokenCatalog) => (quote: Quote): QuoteView => ({
  tokenIn: quote.tokenIn.symbol,
  tokenOut: quote.tokenOut.symbol,
  amountIn: formatAmount(quote.amountIn, quote.tokenIn.decimals),
  network: quote.network,
  slippage: quote.slippage,
  estimatedAmountOut: formatAmount(quote.outcome.netOut, quote.tokenOut.decimals),
  fee: formatAmount(quote.outcome.fee, quote.tokenOut.decimals),
  minAmountOut: formatAmount(quote.outcome.minAmountOut, quote.tokenOut.decimals),
  priceImpact: quote.chainQuote.priceImpactPercent,
  gasFee: formatAmount(quote.chainQuote.gasFee, tokens.tokenOf(nativeTokenOf(quote.network)).decimals),
  rate: quote.rate,
  expiresAt: toIso(quote.expiresAt)
})
