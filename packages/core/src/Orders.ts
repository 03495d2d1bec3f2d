/**
 * Limit order use cases (docs/orders.md): create (reserve `amountIn`, the wallet signs), read,
 * list, cancel, and the watcher that fills and expires orders as the market moves. Every write to
 * an order happens under one lock, so a cancellation and a fill of the same order cannot both win:
 * once the watcher has matched an order to its filling trade, the order is no longer open.
 *
 * The watcher runs at every market observation: first it expires the open orders whose `expiresAt`
 * has come (an order is expired from the instant it expires), then, pair by pair, it takes from the
 * index the orders whose limit the spot rate reaches, quotes each exactly, verifies its signature
 * and starts the filling trade. An order whose signature does not verify never fills: it fails and
 * its funds go back.
 */
import { Context, Effect, Layer, Option, Result, Semaphore } from "effect"
import { Chain } from "./Chain.ts"
import { DomainEvents } from "./DomainEvents.ts"
import {
  InsufficientBalance,
  InvalidToken,
  OrderNotAwaitingSignature,
  OrderNotCancellable,
  OrderNotFound,
  ValidationFailed,
  WalletNotConnected
} from "./Errors.ts"
import { IdGenerator } from "./Ids.ts"
import { MarketClock } from "./MarketClock.ts"
import { parseAmount, platformFee } from "./Money.ts"
import { awaitsSignature, isOpen, limitPriceOf, type OrderRecord } from "./Order.ts"
import { OrderIndex } from "./OrderIndex.ts"
import { applyOrderEvent, cancelOrder, OrderEvent } from "./OrderMachine.ts"
import { OrderSigner, type OrderTerms } from "./OrderSigning.ts"
import { orderView } from "./OrderViews.ts"
import type { Page } from "./Page.ts"
import { PriceFeed } from "./PriceFeed.ts"
import { foundOr, OrderRepository } from "./Repositories.ts"
import { type CreateOrderBody, type ListOrdersQuery, pageLimits } from "./Requests.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import type { TradeRecord } from "./Trade.ts"
import { Trades } from "./Trades.ts"
import { Wallets } from "./Wallets.ts"

/** What placing an order can fail with, each a client's fact with its public code. */
export type CreateOrderError = ValidationFailed | InvalidToken | WalletNotConnected | InsufficientBalance

/**
 * How long an external wallet's order waits for its owner's signature before it expires: 10
 * minutes (docs/live.md, "External wallets' limit orders"); only tests shorten it.
 */
export const UnsignedOrderTimeout = Context.Reference<number>("@swapdesk/core/UnsignedOrderTimeout", {
  defaultValue: () => 10 * 60_000
})

/** The terms an order's signature covers. */
export const termsOf = (order: OrderRecord): OrderTerms => ({
  id: order.id,
  network: order.network,
  tokenIn: order.tokenIn,
  tokenOut: order.tokenOut,
  amountIn: order.amountIn,
  minAmountOut: order.minAmountOut,
  expiresAt: order.expiresAt
})

export class Orders extends Context.Service<Orders, {
  readonly create: (accountId: string, body: CreateOrderBody) => Effect.Effect<OrderRecord, CreateOrderError>
  readonly get: (accountId: string, id: string) => Effect.Effect<OrderRecord, OrderNotFound>
  readonly list: (
    accountId: string,
    query: ListOrdersQuery
  ) => Effect.Effect<Page<OrderRecord>, ValidationFailed | InvalidToken>
  /**
   * The owner's signature for an order created unsigned: it opens the order when it recovers to
   * the wallet, else `ValidationFailed` on `signature`.
   */
  readonly submitSignature: (
    accountId: string,
    id: string,
    signature: string
  ) => Effect.Effect<OrderRecord, OrderNotFound | OrderNotAwaitingSignature | ValidationFailed>
  /** Cancels an open order and releases its funds. */
  readonly cancel: (accountId: string, id: string) => Effect.Effect<OrderRecord, OrderNotFound | OrderNotCancellable>
  /** The watcher: expires due orders and starts the fills the market at `at` allows. */
  readonly observe: (at: number) => Effect.Effect<void>
  /** A filling trade reached its end: the order is filled (confirmed) or failed. */
  readonly settle: (trade: TradeRecord) => Effect.Effect<void>
}>()("@swapdesk/core/Orders") {
  static readonly layer = Layer.effect(
    Orders,
    Effect.gen(function*() {
      const repository = yield* OrderRepository
      const trades = yield* Trades
      const chain = yield* Chain
      const feed = yield* PriceFeed
      const wallets = yield* Wallets
      const signer = yield* OrderSigner
      const ids = yield* IdGenerator
      const clock = yield* MarketClock
      const events = yield* DomainEvents
      const lock = yield* Semaphore.make(1)
      const book = yield* OrderIndex
      const tokens = yield* TokenRegistry
      const viewOf = orderView(tokens)
      const unsignedTimeout = yield* UnsignedOrderTimeout
      // The orders waiting for their owner's signature, by id, with the instant they expire unsigned.
      const awaiting = new Map<string, number>()
      for (const order of yield* repository.open) {
        if (awaitsSignature(order)) awaiting.set(order.id, order.signatureDueAt ?? order.createdAt + unsignedTimeout)
      }

      const publish = (type: string, order: OrderRecord) =>
        events.publish({ type, accountId: order.accountId, data: viewOf(order) })

      const create = Effect.fn("Orders.create")(function*(accountId: string, body: CreateOrderBody) {
        const tokenIn = yield* tokens.resolve(body.tokenIn, body.network)
        const tokenOut = yield* tokens.resolve(body.tokenOut, body.network)
        const issues = []
        if (tokenIn.symbol === tokenOut.symbol) issues.push({ path: "tokenOut", message: "must differ from tokenIn" })
        const amountIn = parseAmount(body.amountIn, tokenIn.decimals)
        if (Result.isFailure(amountIn)) issues.push({ path: "amountIn", message: amountIn.failure })
        const minAmountOut = parseAmount(body.minAmountOut, tokenOut.decimals)
        if (Result.isFailure(minAmountOut)) issues.push({ path: "minAmountOut", message: minAmountOut.failure })
        const now = yield* clock.now
        // What is signed is Unix seconds: the order expires at the whole second its signature names.
        const expiresAt = body.expiresAt === undefined ? null : Math.floor(Date.parse(body.expiresAt) / 1000) * 1000
        if (expiresAt !== null && expiresAt <= now) {
          issues.push({ path: "expiresAt", message: "must be in the future (at least a whole second ahead)" })
        }
        if (issues.length > 0 || Result.isFailure(amountIn) || Result.isFailure(minAmountOut)) {
          return yield* new ValidationFailed({ details: issues })
        }
        const wallet = yield* wallets.wallet(accountId, body.network)
        if (Option.isNone(wallet)) return yield* new WalletNotConnected({ network: body.network })
        return yield* lock.withPermits(1)(Effect.gen(function*() {
          const id = yield* ids.next("order")
          yield* wallets.reserve({
            holdId: id,
            accountId,
            network: body.network,
            token: tokenIn.symbol,
            amount: amountIn.success
          })
          const terms: OrderTerms = {
            id,
            network: body.network,
            tokenIn: tokenIn.symbol,
            tokenOut: tokenOut.symbol,
            amountIn: amountIn.success,
            minAmountOut: minAmountOut.success,
            expiresAt
          }
          // A wallet that cannot sign leaves nothing behind: its funds are free again.
          const signed = yield* signer.sign(accountId, terms).pipe(Effect.tapCause(() => wallets.release(id)))
          const order: OrderRecord = {
            ...terms,
            accountId,
            status: "pending",
            walletAddress: wallet.value.address,
            signer: signed.signer,
            signature: signed.signature,
            ...(signed.verifyingContract === undefined ? {} : { verifyingContract: signed.verifyingContract }),
            ...(signed.signature === null
              ? {
                typedData: signed.typedData,
                allowance: signed.allowance ?? null,
                signatureDueAt: now + unsignedTimeout
              }
              : {}),
            createdAt: now,
            tradeId: null,
            closedAt: null
          }
          yield* repository.insert(order)
          // An unsigned order keeps its hold but is not watched until its owner signs it.
          if (order.signature === null) awaiting.set(order.id, order.signatureDueAt!)
          else book.add({ ...order, limitPrice: limitPriceOf(order, tokens) })
          yield* publish("order.created", order)
          return order
        }))
      })

      const get = (accountId: string, id: string) =>
        foundOr(repository.get(accountId, id), () => new OrderNotFound({ id }))

      const list = Effect.fn("Orders.list")(function*(accountId: string, query: ListOrdersQuery) {
        const token = query.token === undefined ? undefined : (yield* tokens.resolve(query.token, query.network)).symbol
        return yield* repository.list(accountId, {
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(token === undefined ? {} : { token }),
          ...(query.network === undefined ? {} : { network: query.network })
        }, { limit: query.limit ?? pageLimits.defaultLimit, offset: query.offset ?? 0 })
      })

      /** Closes an open order without a trade: its hold goes back to free balance. */
      const close = Effect.fnUntraced(function*(order: OrderRecord, event: OrderEvent, type: string) {
        const next = applyOrderEvent(order, event)
        book.remove(order.id)
        awaiting.delete(order.id)
        yield* wallets.release(order.id)
        yield* repository.update(next)
        yield* publish(type, next)
        return next
      })

      const cancel = Effect.fn("Orders.cancel")(function*(accountId: string, id: string) {
        return yield* lock.withPermits(1)(Effect.gen(function*() {
          const order = yield* get(accountId, id)
          const at = yield* clock.now
          yield* cancelOrder(order, at)
          return yield* close(order, OrderEvent.Cancel({ at }), "order.cancelled")
        }))
      })

      const submitSignature = Effect.fn("Orders.submitSignature")(
        function*(accountId: string, id: string, signature: string) {
          return yield* lock.withPermits(1)(Effect.gen(function*() {
            const order = yield* get(accountId, id)
            if (!awaitsSignature(order)) return yield* new OrderNotAwaitingSignature({ id })
            const valid = /^0x[0-9a-fA-F]{130}$/.test(signature) &&
              (yield* signer.verify(accountId, termsOf(order), { signer: order.signer, signature }))
            if (!valid) {
              return yield* new ValidationFailed({
                details: [{
                  path: "signature",
                  message: "must be the wallet's EIP-712 signature over the order's typedData"
                }]
              })
            }
            const signed: OrderRecord = { ...order, signature }
            awaiting.delete(id)
            yield* repository.update(signed)
            book.add({ ...signed, limitPrice: limitPriceOf(signed, tokens) })
            return signed
          }))
        }
      )

      const openOrder = Effect.fnUntraced(function*(id: string) {
        const order = yield* repository.getById(id)
        // The index holds only open orders: anything else is a defect.
        if (Option.isNone(order) || !isOpen(order.value)) {
          return yield* Effect.die(new Error(`the order index holds ${id}, which is not open`))
        }
        return order.value
      })

      /** Tries to fill one candidate: an exact quote first, then the signature. */
      const tryFill = Effect.fnUntraced(function*(id: string, at: number) {
        const order = yield* openOrder(id)
        const quote = yield* chain.quote(order)
        if (quote.grossOut - platformFee(quote.grossOut) < order.minAmountOut) return
        const valid = order.signature !== null &&
          (yield* signer.verify(order.accountId, termsOf(order), { signer: order.signer, signature: order.signature }))
        if (!valid) {
          yield* close(order, OrderEvent.Fail({ at }), "order.failed")
          return
        }
        book.remove(order.id)
        const trade = yield* trades.fillOrder(order, quote)
        const matched = applyOrderEvent(order, OrderEvent.Match({ tradeId: trade.id }))
        yield* repository.update(matched)
      })

      const observe = (at: number) =>
        book.size === 0 && awaiting.size === 0 ? Effect.void : lock.withPermits(1)(Effect.gen(function*() {
          // Unsigned orders past their signing window (or their own expiry) expire; their hold goes back.
          for (const [id, due] of Array.from(awaiting)) {
            const order = yield* repository.getById(id)
            if (Option.isNone(order) || !awaitsSignature(order.value)) {
              awaiting.delete(id)
              continue
            }
            const expiresAt = order.value.expiresAt
            if (due <= at || (expiresAt !== null && expiresAt <= at)) {
              yield* close(order.value, OrderEvent.Expire({ at }), "order.expired")
            }
          }
          for (const id of book.dueExpiries(at)) {
            yield* close(yield* openOrder(id), OrderEvent.Expire({ at }), "order.expired")
          }
          // Each token's price once per pass, as a number: the index only picks candidates (its
          // margin covers the rounding), and every candidate is then checked exactly.
          const prices = new Map<string, number>()
          const priceOf = (token: string) =>
            Effect.suspend(() => {
              const known = prices.get(token)
              return known === undefined
                ? Effect.map(feed.priceUsd(token), (price) => {
                  const value = price.toNumber()
                  prices.set(token, value)
                  return value
                })
                : Effect.succeed(known)
            })
          // The pairs first: filling an order may empty its pair, which the iteration must not see.
          for (const pair of Array.from(book.pairs())) {
            const candidates = book.candidates(pair, (yield* priceOf(pair.tokenIn)) / (yield* priceOf(pair.tokenOut)))
            for (const id of candidates) yield* tryFill(id, at)
          }
        }))

      const settle = Effect.fn("Orders.settle")(function*(trade: TradeRecord) {
        if (trade.orderId === null || (trade.stage !== "confirmed" && trade.stage !== "failed")) return
        const orderId = trade.orderId
        yield* lock.withPermits(1)(Effect.gen(function*() {
          const order = yield* repository.getById(orderId)
          if (Option.isNone(order)) {
            return yield* Effect.die(new Error(`trade ${trade.id} fills unknown order ${orderId}`))
          }
          const at = trade.stage === "confirmed" ? trade.confirmedAt! : (yield* clock.now)
          const next = applyOrderEvent(
            order.value,
            trade.stage === "confirmed" ? OrderEvent.Fill({ at }) : OrderEvent.Fail({ at })
          )
          yield* repository.update(next)
          yield* publish(trade.stage === "confirmed" ? "order.filled" : "order.failed", next)
        }))
      })

      return { create, get, list, submitSignature, cancel, observe, settle }
    })
  )
}
