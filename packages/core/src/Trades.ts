/**
 * Trade use cases: quote, create, read, list, and the trade's later life as the chain reports it.
 * Creation reserves `amountIn` before the chain hears of the trade, and each trade's writes happen
 * under that trade's own lock, so a chain event can never overtake the creation that scheduled it,
 * while trades wait for no other trade's chain calls (docs/decisions.md, "One lock per trade").
 */
import { Context, Effect, Layer, Option, Result, Semaphore } from "effect"
import { type ApprovalRequest, Chain, type SwapQuote, type SwapSending, type TradeDecision } from "./Chain.ts"
import { DomainEvents } from "./DomainEvents.ts"
import {
  InsufficientBalance,
  invalid,
  InvalidToken,
  TradeNotAwaitingApproval,
  TradeNotFound,
  ValidationFailed,
  WalletNotConnected
} from "./Errors.ts"
import { IdGenerator } from "./Ids.ts"
import { MarketClock } from "./MarketClock.ts"
import { formatAmount, MoneyDecimal, parseAmount, type SwapOutcome, swapOutcome } from "./Money.ts"
import type { Network } from "./Network.ts"
import { nativeTokenOf } from "./Network.ts"
import type { OrderRecord } from "./Order.ts"
import type { Page } from "./Page.ts"
import { PriceFeed } from "./PriceFeed.ts"
import { foundOr, TradeRepository } from "./Repositories.ts"
import {
  type CreateTradeBody,
  DEFAULT_SLIPPAGE_PERCENT,
  inclusiveEndMs,
  type ListTradesQuery,
  pageLimits,
  type QuoteQuery
} from "./Requests.ts"
import type { Token } from "./Token.ts"
import { type TokenCatalog, TokenRegistry } from "./TokenRegistry.ts"
import type { TradeRecord } from "./Trade.ts"
import { statusOfStage } from "./Trade.ts"
import { applyTradeEvent, TradeEvent } from "./TradeMachine.ts"
import { Wallets } from "./Wallets.ts"
import { formatUnitRatio } from "./WireFormats.ts"

/** How long a quote is indicative for. */
export const QUOTE_VALIDITY_MS = 30_000

/** What a new trade has not done yet: it has no transaction, no output and no gas paid. */
const notYetBroadcast = {
  txHash: null,
  submittedAt: null,
  confirmedAt: null,
  amountOut: null,
  gasFee: null
} as const

export interface Quote {
  readonly tokenIn: Token
  readonly tokenOut: Token
  readonly network: Network
  readonly amountIn: bigint
  readonly slippage: number
  readonly chainQuote: SwapQuote
  readonly outcome: SwapOutcome
  /** tokenOut per tokenIn at the estimated amount out, as the API writes it (`formatUnitRatio`). */
  readonly rate: string
  readonly expiresAt: number
}

export type CreateTradeError = ValidationFailed | InvalidToken | WalletNotConnected | InsufficientBalance

interface SwapTerms {
  readonly tokenIn: Token
  readonly tokenOut: Token
  readonly network: Network
  readonly amountIn: bigint
  readonly slippage: number
}

export class Trades extends Context.Service<Trades, {
  /** What `create` would start with for the account, executing nothing: its wallet must be connected. */
  readonly quote: (
    accountId: string,
    query: QuoteQuery
  ) => Effect.Effect<Quote, ValidationFailed | InvalidToken | WalletNotConnected>
  readonly create: (accountId: string, body: CreateTradeBody) => Effect.Effect<TradeRecord, CreateTradeError>
  readonly get: (accountId: string, id: string) => Effect.Effect<TradeRecord, TradeNotFound>
  readonly list: (
    accountId: string,
    query: ListTradesQuery
  ) => Effect.Effect<Page<TradeRecord>, ValidationFailed | InvalidToken>
  /** The wallet approves or rejects a trade awaiting approval. */
  readonly decide: (
    tradeId: string,
    decision: TradeDecision
  ) => Effect.Effect<TradeRecord, TradeNotFound | TradeNotAwaitingApproval | ValidationFailed>
  /**
   * The account's wallet answers its trade awaiting approval (`POST /trades/{id}/approval`): a
   * trade of another account is not found.
   */
  readonly answer: (
    accountId: string,
    tradeId: string,
    decision: TradeDecision
  ) => Effect.Effect<TradeRecord, TradeNotFound | TradeNotAwaitingApproval | ValidationFailed>
  /** What the wallet must sign for the trade, while it awaits an approval the chain prepared. */
  readonly approvalOf: (trade: TradeRecord) => Effect.Effect<ApprovalRequest | undefined>
  /**
   * Starts the trade that fills an open limit order, priced by `chainQuote`: the order's hold
   * becomes the trade's, and the order's signature is the wallet's approval, so the trade is
   * broadcast at once. It fails at execution below the order's `minAmountOut`.
   */
  readonly fillOrder: (order: OrderRecord, chainQuote: SwapQuote) => Effect.Effect<TradeRecord>
  /** Records what the chain reports about a trade. */
  readonly apply: (tradeId: string, event: TradeEvent) => Effect.Effect<TradeRecord>
}>()("@swapdesk/core/Trades") {
  static readonly layer = Layer.effect(
    Trades,
    Effect.gen(function*() {
      const repository = yield* TradeRepository
      const chain = yield* Chain
      const wallets = yield* Wallets
      const ids = yield* IdGenerator
      const clock = yield* MarketClock
      const events = yield* DomainEvents
      const feed = yield* PriceFeed
      const tokens = yield* TokenRegistry
      const eventDataOf = tradeEventData(tokens)
      const withTradeLock = tradeLocks()

      const terms = Effect.fn("Trades.terms")(function*(request: {
        readonly tokenIn: string
        readonly tokenOut: string
        readonly amountIn: string
        readonly network: Network
        readonly slippage?: number
      }) {
        const tokenIn = yield* tokens.resolve(request.tokenIn, request.network)
        const tokenOut = yield* tokens.resolve(request.tokenOut, request.network)
        if (tokenIn.symbol === tokenOut.symbol) return yield* invalid("tokenOut", "must differ from tokenIn")
        const amountIn = parseAmount(request.amountIn, tokenIn.decimals)
        if (Result.isFailure(amountIn)) return yield* invalid("amountIn", amountIn.failure)
        return {
          tokenIn,
          tokenOut,
          network: request.network,
          amountIn: amountIn.success,
          slippage: request.slippage ?? DEFAULT_SLIPPAGE_PERCENT
        } satisfies SwapTerms
      })

      const connectedWallet = Effect.fnUntraced(function*(accountId: string, network: Network) {
        const wallet = yield* wallets.wallet(accountId, network)
        if (Option.isNone(wallet)) return yield* new WalletNotConnected({ network })
        return wallet.value
      })

      const price = Effect.fn("Trades.price")(function*(swap: SwapTerms, walletAddress: string) {
        const chainQuote = yield* chain.quote({
          network: swap.network,
          tokenIn: swap.tokenIn.symbol,
          tokenOut: swap.tokenOut.symbol,
          amountIn: swap.amountIn,
          walletAddress
        })
        const outcome = swapOutcome(chainQuote.grossOut, swap.slippage)
        if (outcome.netOut <= 0n) {
          return yield* invalid("amountIn", "is too small to receive any output after the fee")
        }
        return { chainQuote, outcome }
      })

      const quote = Effect.fn("Trades.quote")(function*(accountId: string, query: QuoteQuery) {
        const swap = yield* terms(query)
        const wallet = yield* connectedWallet(accountId, swap.network)
        const { chainQuote, outcome } = yield* price(swap, wallet.address)
        return {
          ...swap,
          chainQuote,
          outcome,
          rate: formatUnitRatio(outcome.netOut, swap.tokenOut.decimals, swap.amountIn, swap.tokenIn.decimals),
          expiresAt: (yield* clock.now) + QUOTE_VALIDITY_MS
        } satisfies Quote
      })

      const create = Effect.fn("Trades.create")(function*(accountId: string, body: CreateTradeBody) {
        const swap = yield* terms(body)
        const wallet = yield* connectedWallet(accountId, swap.network)
        const { chainQuote, outcome } = yield* price(swap, wallet.address)
        const id = yield* ids.next("trade")
        return yield* withTradeLock(id)(Effect.gen(function*() {
          yield* wallets.reserve({
            holdId: id,
            accountId,
            network: swap.network,
            token: swap.tokenIn.symbol,
            amount: swap.amountIn
          })
          const created: TradeRecord = {
            id,
            accountId,
            stage: "awaiting_approval",
            network: swap.network,
            tokenIn: swap.tokenIn.symbol,
            tokenOut: swap.tokenOut.symbol,
            amountIn: swap.amountIn,
            estimatedAmountOut: outcome.netOut,
            fee: outcome.fee,
            minAmountOut: outcome.minAmountOut,
            slippage: swap.slippage,
            walletAddress: wallet.address,
            createdAt: yield* clock.now,
            ...notYetBroadcast,
            estimatedGasFee: chainQuote.gasFee,
            failureReason: null,
            orderId: null
          }
          // A chain that sends over a network stores the trade as broadcast before the swap leaves:
          // a process killed mid-send then follows it by hash on restart, never losing a swap.
          const stored: { trade?: TradeRecord } = {}
          const beforeSending = (sending: SwapSending) =>
            Effect.gen(function*() {
              const sent = applyTradeEvent(created, TradeEvent.Broadcast({ at: sending.at, txHash: sending.txHash }))
              const trade = sending.approvalTxHash === undefined
                ? sent
                : { ...sent, approvalTxHash: sending.approvalTxHash }
              yield* repository.insert(trade)
              stored.trade = trade
            })
          const immediate = yield* chain.submit({
            tradeId: id,
            accountId,
            walletAddress: wallet.address,
            delegatedSigning: wallet.delegatedSigning,
            network: swap.network,
            tokenIn: swap.tokenIn.symbol,
            tokenOut: swap.tokenOut.symbol,
            amountIn: swap.amountIn,
            minAmountOut: outcome.minAmountOut
          }, beforeSending)
          // Stored before sending, the trade already holds the broadcast the chain answers.
          const trade = stored.trade ?? immediate.reduce(applyTradeEvent, created)
          if (stored.trade === undefined) yield* repository.insert(trade)
          yield* events.publish({ type: "trade.created", accountId, data: eventDataOf(trade) })
          return trade
        }))
      })

      const fillOrder = Effect.fn("Trades.fillOrder")(function*(order: OrderRecord, chainQuote: SwapQuote) {
        const { fee, netOut } = swapOutcome(chainQuote.grossOut, DEFAULT_SLIPPAGE_PERCENT)
        // The tolerance the order's own minimum leaves below the estimate, in percent.
        const slippage = netOut <= 0n || order.minAmountOut >= netOut
          ? 0
          : new MoneyDecimal((netOut - order.minAmountOut).toString()).div(netOut.toString()).mul(100)
            .toDecimalPlaces(6, MoneyDecimal.ROUND_DOWN).toNumber()
        const id = yield* ids.next("trade")
        return yield* withTradeLock(id)(Effect.gen(function*() {
          yield* wallets.transferHold(order.id, id)
          const created: TradeRecord = {
            id,
            accountId: order.accountId,
            stage: "awaiting_approval",
            network: order.network,
            tokenIn: order.tokenIn,
            tokenOut: order.tokenOut,
            amountIn: order.amountIn,
            estimatedAmountOut: netOut,
            fee,
            minAmountOut: order.minAmountOut,
            slippage,
            walletAddress: order.walletAddress,
            createdAt: yield* clock.now,
            ...notYetBroadcast,
            estimatedGasFee: chainQuote.gasFee,
            failureReason: null,
            orderId: order.id
          }
          const immediate = yield* chain.submit({
            tradeId: id,
            accountId: order.accountId,
            walletAddress: order.walletAddress,
            delegatedSigning: true,
            network: order.network,
            tokenIn: order.tokenIn,
            tokenOut: order.tokenOut,
            amountIn: order.amountIn,
            minAmountOut: order.minAmountOut,
            // Only a signed order is watched, so only a signed order fills.
            order: { id: order.id, signature: order.signature!, expiresAt: order.expiresAt }
          })
          const trade = immediate.reduce(applyTradeEvent, created)
          yield* repository.insert(trade)
          yield* events.publish({ type: "trade.created", accountId: order.accountId, data: eventDataOf(trade) })
          return trade
        }))
      })

      const get = (accountId: string, id: string) =>
        foundOr(repository.get(accountId, id), () => new TradeNotFound({ id }))

      /**
       * The token must exist on the network when one is given (as everywhere else); without one, a
       * contract address still names its token only on the network it is that token's contract on.
       */
      const tokenAndNetworkFilter = Effect.fnUntraced(function*(query: ListTradesQuery) {
        if (query.token === undefined) return query.network === undefined ? {} : { networks: [query.network] }
        const token = yield* tokens.resolve(query.token, query.network)
        return {
          token: token.symbol,
          networks: query.network === undefined ? tokens.networksNamedBy(token, query.token) : [query.network]
        }
      })

      const list = Effect.fn("Trades.list")(function*(accountId: string, query: ListTradesQuery) {
        // A bare date is midnight UTC as a start (`Date.parse`) and the whole day as an end.
        const fromMs = query.from === undefined ? undefined : Date.parse(query.from)
        const toMs = query.to === undefined ? undefined : inclusiveEndMs(query.to)
        if (fromMs !== undefined && toMs !== undefined && fromMs > toMs) {
          return yield* invalid("from", "must not be after to")
        }
        return yield* repository.list(accountId, {
          ...(yield* tokenAndNetworkFilter(query)),
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(fromMs === undefined ? {} : { fromMs }),
          ...(toMs === undefined ? {} : { toMs })
        }, { limit: query.limit ?? pageLimits.defaultLimit, offset: query.offset ?? 0 })
      })

      const record = Effect.fn("Trades.record")(function*(trade: TradeRecord, event: TradeEvent) {
        const applied = applyTradeEvent(trade, event)
        const next = applied.stage === "confirmed"
          ? { ...applied, tokenInPriceUsd: (yield* feed.priceUsd(applied.tokenIn)).toFixed() }
          : applied
        yield* repository.update(next)
        if (next.stage === "confirmed" || next.stage === "failed") {
          yield* events.publish({ type: `trade.${next.stage}`, accountId: next.accountId, data: eventDataOf(next) })
        } else {
          yield* events.publish({ type: "trade.broadcast", accountId: next.accountId, data: eventDataOf(next) })
        }
        return next
      })

      const decideFor = (accountId: string | undefined, tradeId: string, decision: TradeDecision) =>
        withTradeLock(tradeId)(Effect.gen(function*() {
          const trade = yield* repository.getById(tradeId)
          if (Option.isNone(trade) || (accountId !== undefined && trade.value.accountId !== accountId)) {
            return yield* new TradeNotFound({ id: tradeId })
          }
          if (trade.value.stage !== "awaiting_approval") return yield* new TradeNotAwaitingApproval({ id: tradeId })
          return yield* record(trade.value, yield* chain.decide(tradeId, decision))
        }))

      const decide = Effect.fn("Trades.decide")(function*(tradeId: string, decision: TradeDecision) {
        return yield* decideFor(undefined, tradeId, decision)
      })

      const answer = Effect.fn("Trades.answer")(function*(accountId: string, tradeId: string, decision: TradeDecision) {
        return yield* decideFor(accountId, tradeId, decision)
      })

      const approvalOf = (trade: TradeRecord) =>
        trade.stage === "awaiting_approval" ? chain.approvalOf(trade.id) : Effect.succeed(undefined)

      const apply = Effect.fn("Trades.apply")(function*(tradeId: string, event: TradeEvent) {
        return yield* withTradeLock(tradeId)(Effect.gen(function*() {
          const trade = yield* repository.getById(tradeId)
          if (Option.isNone(trade)) {
            return yield* Effect.die(new Error(`the chain reported on unknown trade ${tradeId}`))
          }
          return yield* record(trade.value, event)
        }))
      })

      return { quote, create, get, list, decide, answer, approvalOf, fillOrder, apply }
    })
  )
}

/**
 * One lock per trade id, kept only while someone holds or awaits it. A trade's id is drawn before
 * its lock is taken, but nothing else knows the id until the chain hears of the trade, which
 * happens under the lock: the creation always takes it first.
 */
const tradeLocks = () => {
  const locks = new Map<string, { readonly semaphore: Semaphore.Semaphore; users: number }>()
  return (tradeId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        let entry = locks.get(tradeId)
        if (entry === undefined) {
          entry = { semaphore: Semaphore.makeUnsafe(1), users: 0 }
          locks.set(tradeId, entry)
        }
        entry.users += 1
        return entry
      }),
      (entry) => entry.semaphore.withPermits(1)(effect),
      (entry) =>
        Effect.sync(() => {
          entry.users -= 1
          if (entry.users === 0) locks.delete(tradeId)
        })
    )
}

/** A trade as the event log and webhooks carry it: amounts as decimal strings in `tokens`' decimals. */
export const tradeEventData = (tokens: TokenCatalog) => (trade: TradeRecord): Record<string, unknown> => {
  const tokenIn = tokens.tokenOf(trade.tokenIn)
  const tokenOut = tokens.tokenOf(trade.tokenOut)
  const native = tokens.tokenOf(nativeTokenOf(trade.network))
  return {
    id: trade.id,
    status: statusOfStage(trade.stage),
    network: trade.network,
    tokenIn: trade.tokenIn,
    tokenOut: trade.tokenOut,
    amountIn: formatAmount(trade.amountIn, tokenIn.decimals),
    ...(trade.amountOut === null ? {} : { amountOut: formatAmount(trade.amountOut, tokenOut.decimals) }),
    fee: formatAmount(trade.fee, tokenOut.decimals),
    ...(trade.txHash === null ? {} : { txHash: trade.txHash }),
    ...(trade.gasFee === null ? {} : { gasFee: formatAmount(trade.gasFee, native.decimals) }),
    ...(trade.failureReason === null ? {} : { failureReason: trade.failureReason }),
    ...(trade.orderId === null ? {} : { orderId: trade.orderId })
  }
}
