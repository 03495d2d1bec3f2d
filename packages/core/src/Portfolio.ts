/**
 * The portfolio (docs/portfolio.md): holdings across the account's connected wallets valued at the
 * current price, weighted-average cost basis, realised and unrealised PnL, allocation, the 24 h
 * change, and a performance series that is honest history: at each point, what the account held
 * then (its opening balances and its trades replayed), valued at that time's prices.
 *
 * Cost basis, per (network, token):
 * - a balance held when the wallet was connected costs its amount at the price of that instant;
 * - a confirmed swap sells `amountIn` of tokenIn at its price at confirmation (kept on the trade
 *   record then): the sold units leave at their average cost, and the difference to their market
 *   value is realised PnL; the bought `amountOut` (net of the platform fee) costs that market
 *   value plus the gas's cost basis;
 * - gas leaves the native token at its average cost; on a confirmed swap that cost moves into the
 *   bought token's basis (fees included), on a failed one that paid gas it is a realised loss.
 *
 * Other prices in the past (an opening balance's, a point of the series) are the open of the
 * candle starting at that instant, or containing it at one-minute resolution. USD values are
 * rounded to the cent, so that every holding's `value` is exactly `costBasis + unrealizedPnl`.
 */
import type { Decimal } from "decimal.js"
import { Context, Effect, Layer } from "effect"
import { MINUTE_HISTORY_MS } from "./Limits.ts"
import type { Timeframe } from "./Market.ts"
import { MarketClock, toIso } from "./MarketClock.ts"
import { formatAmount, MoneyDecimal, unitsToDecimal } from "./Money.ts"
import { nativeTokenOf, type Network } from "./Network.ts"
import type { PortfolioView } from "./PortfolioViews.ts"
import { PriceFeed } from "./PriceFeed.ts"
import { TradeRepository } from "./Repositories.ts"
import type { PortfolioQuery, PortfolioRange } from "./Requests.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { Wallets } from "./Wallets.ts"

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000
const DAY_MS = 86_400_000

/** How far back each range reaches and the spacing of its points. */
export const portfolioRanges: Readonly<
  Record<
    Exclude<PortfolioRange, "all">,
    { readonly spanMs: number; readonly timeframe: Timeframe; readonly stepMs: number }
  >
> = {
  "24h": { spanMs: DAY_MS, timeframe: "15m", stepMs: 15 * MINUTE_MS },
  "7d": { spanMs: 7 * DAY_MS, timeframe: "1h", stepMs: HOUR_MS },
  "30d": { spanMs: 30 * DAY_MS, timeframe: "4h", stepMs: 4 * HOUR_MS }
}

/** `all` reaches back to the first wallet's connection, at the finest spacing that keeps it under 400 points. */
export const allRangeResolution = (spanMs: number): { readonly timeframe: Timeframe; readonly stepMs: number } =>
  spanMs <= 4 * DAY_MS
    ? { timeframe: "15m", stepMs: 15 * MINUTE_MS }
    : spanMs <= 16 * DAY_MS
    ? { timeframe: "1h", stepMs: HOUR_MS }
    : spanMs <= 66 * DAY_MS
    ? { timeframe: "4h", stepMs: 4 * HOUR_MS }
    : { timeframe: "1d", stepMs: DAY_MS }

const ZERO = new MoneyDecimal(0)
const cents = (value: Decimal): Decimal => value.toDecimalPlaces(2, MoneyDecimal.ROUND_HALF_EVEN)
const percentOf = (part: Decimal, whole: Decimal): number =>
  whole.isZero() ? 0 : part.div(whole).mul(100).toDecimalPlaces(4, MoneyDecimal.ROUND_HALF_EVEN).toNumber()

/** One amount change to one position at one instant. */
interface Movement {
  readonly at: number
  readonly network: Network
  readonly token: string
  readonly delta: bigint
}

interface Position {
  amount: bigint
  cost: Decimal
}

const positionKey = (network: Network, token: string) => `${network}\u0000${token}`

export class Portfolio extends Context.Service<Portfolio, {
  readonly get: (accountId: string, query: PortfolioQuery) => Effect.Effect<PortfolioView>
}>()("@swapdesk/core/Portfolio") {
  static readonly layer = Layer.effect(
    Portfolio,
    Effect.gen(function*() {
      const wallets = yield* Wallets
      const trades = yield* TradeRepository
      const feed = yield* PriceFeed
      const clock = yield* MarketClock
      const registry = yield* TokenRegistry

      const get = Effect.fn("Portfolio.get")(function*(accountId: string, query: PortfolioQuery) {
        const now = yield* clock.now
        const range = query.range ?? "7d"
        const connected = (yield* wallets.list(accountId)).filter((w) =>
          query.network === undefined || w.network === query.network
        )
        const networksShown = new Set(connected.map((w) => w.network))

        // One-minute opens, fetched once per (token, minute) for this request. Before the minute
        // history (the last 30 days, docs/reference/http-api.md#market-data) the hour's open stands in.
        const minuteOpens = new Map<string, Decimal>()
        const priceAt = Effect.fnUntraced(function*(token: string, at: number) {
          const byMinute = at >= now - MINUTE_HISTORY_MS
          const step = byMinute ? MINUTE_MS : HOUR_MS
          const minute = Math.floor(at / step) * step
          const key = `${token}\u0000${minute}`
          let price = minuteOpens.get(key)
          if (price === undefined) {
            const [candle] = yield* feed.candles(token, byMinute ? "1m" : "1h", minute, minute + step)
            price = candle === undefined ? yield* feed.priceUsd(token) : new MoneyDecimal(candle.open)
            minuteOpens.set(key, price)
          }
          return price
        })

        // ---- the history: opening balances, then trades in time order --------------------------
        const positions = new Map<string, Position>()
        const position = (network: Network, token: string): Position => {
          const key = positionKey(network, token)
          let found = positions.get(key)
          if (found === undefined) positions.set(key, found = { amount: 0n, cost: ZERO })
          return found
        }
        const movements: Array<Movement> = []
        let openedAt = now
        for (const wallet of connected) {
          const opening = yield* wallets.opening(accountId, wallet.network)
          openedAt = Math.min(openedAt, opening.at)
          for (const [token, amount] of opening.balances) {
            if (amount === 0n) continue
            const held = position(wallet.network, token)
            held.amount += amount
            held.cost = held.cost.add(
              unitsToDecimal(amount, registry.tokenOf(token).decimals).mul(yield* priceAt(token, opening.at))
            )
            movements.push({ at: opening.at, network: wallet.network, token, delta: amount })
          }
        }

        let realized = ZERO
        /** Takes `amount` out of a position at its average cost; answers the cost taken. */
        const takeOut = (held: Position, amount: bigint): Decimal => {
          if (held.amount <= 0n || amount <= 0n) return ZERO
          const taken = amount >= held.amount
            ? held.cost
            : held.cost.mul(amount.toString()).div(held.amount.toString())
          held.amount -= amount
          held.cost = held.cost.sub(taken)
          return taken
        }
        const history = (yield* trades.history(accountId))
          .filter((t) => networksShown.has(t.network))
          .filter((t) => t.stage === "confirmed" || (t.stage === "failed" && (t.gasFee ?? 0n) > 0n))
          .map((t) => ({ trade: t, at: t.stage === "confirmed" ? t.confirmedAt! : (t.submittedAt ?? t.createdAt) }))
          .sort((a, b) => a.at - b.at)
        for (const { at, trade } of history) {
          const native = nativeTokenOf(trade.network)
          const gas = trade.gasFee ?? 0n
          const gasCost = takeOut(position(trade.network, native), gas)
          if (gas > 0n) movements.push({ at, network: trade.network, token: native, delta: -gas })
          if (trade.stage === "failed") {
            realized = realized.sub(gasCost)
            continue
          }
          const sold = position(trade.network, trade.tokenIn)
          const price = trade.tokenInPriceUsd === undefined
            ? yield* priceAt(trade.tokenIn, at)
            : new MoneyDecimal(trade.tokenInPriceUsd)
          const value = unitsToDecimal(trade.amountIn, registry.tokenOf(trade.tokenIn).decimals).mul(price)
          realized = realized.add(value.sub(takeOut(sold, trade.amountIn)))
          const bought = position(trade.network, trade.tokenOut)
          bought.amount += trade.amountOut!
          bought.cost = bought.cost.add(value).add(gasCost)
          movements.push({ at, network: trade.network, token: trade.tokenIn, delta: -trade.amountIn })
          movements.push({ at, network: trade.network, token: trade.tokenOut, delta: trade.amountOut! })
        }

        // ---- now: the wallets' actual balances, valued at current prices -------------------------
        const holdings: Array<Omit<PortfolioView["holdings"][number], "allocationPercent"> & { exactValue: Decimal }> =
          []
        const walletValues: Array<{ network: Network; address: string; value: Decimal }> = []
        let totalValue = ZERO
        let totalCost = ZERO
        for (const wallet of connected) {
          let walletValue = ZERO
          for (const [token, balance] of yield* wallets.balances(accountId, wallet.network)) {
            const amount = balance.free + balance.reserved
            const held = position(wallet.network, token)
            // What the history does not yet show (gas of a swap still confirming) leaves at average cost.
            if (held.amount > amount) takeOut(held, held.amount - amount)
            if (amount === 0n) continue
            const { decimals } = registry.tokenOf(token)
            const price = yield* feed.priceUsd(token)
            const value = cents(unitsToDecimal(amount, decimals).mul(price))
            const costBasis = cents(held.cost)
            walletValue = walletValue.add(value)
            totalCost = totalCost.add(costBasis)
            holdings.push({
              token,
              network: wallet.network,
              amount: formatAmount(amount, decimals),
              price: price.toNumber(),
              value: value.toNumber(),
              exactValue: value,
              costBasis: costBasis.toNumber(),
              averageCost: held.cost.div(unitsToDecimal(amount, decimals)).toSignificantDigits(12).toNumber(),
              unrealizedPnl: value.sub(costBasis).toNumber(),
              unrealizedPnlPercent: percentOf(value.sub(costBasis), costBasis)
            })
          }
          totalValue = totalValue.add(walletValue)
          walletValues.push({ network: wallet.network, address: wallet.address, value: walletValue })
        }

        // ---- the past: holdings replayed to each point, at that point's prices -------------------
        movements.sort((a, b) => a.at - b.at)
        const holdingsAt = (at: number): Map<string, { network: Network; token: string; amount: bigint }> => {
          const held = new Map<string, { network: Network; token: string; amount: bigint }>()
          for (const m of movements) {
            if (m.at > at) break
            const key = positionKey(m.network, m.token)
            const line = held.get(key) ?? { network: m.network, token: m.token, amount: 0n }
            held.set(key, { ...line, amount: line.amount + m.delta })
          }
          return held
        }
        const valueAt = Effect.fnUntraced(function*(at: number, prices: (token: string) => Effect.Effect<Decimal>) {
          let value = ZERO
          for (const line of holdingsAt(at).values()) {
            if (line.amount <= 0n) continue
            value = value.add(
              unitsToDecimal(line.amount, registry.tokenOf(line.token).decimals).mul(yield* prices(line.token))
            )
          }
          return cents(value)
        })

        const resolution = range === "all" ? allRangeResolution(now - openedAt) : portfolioRanges[range]
        const from = range === "all" ? openedAt : Math.max(now - portfolioRanges[range].spanMs, openedAt)
        const firstBoundary = Math.floor(from / resolution.stepMs) * resolution.stepMs + resolution.stepMs
        const tokens = new Set(movements.map((m) => m.token))
        const opens = new Map<string, Map<number, Decimal>>()
        for (const token of tokens) {
          const byTime = new Map<number, Decimal>()
          if (firstBoundary < now) {
            for (const candle of yield* feed.candles(token, resolution.timeframe, firstBoundary, now)) {
              byTime.set(candle.openTime, new MoneyDecimal(candle.open))
            }
          }
          opens.set(token, byTime)
        }
        const points: Array<{ timestamp: string; value: number }> = []
        if (from < now) {
          points.push({
            timestamp: toIso(from),
            value: (yield* valueAt(from, (token) => priceAt(token, from))).toNumber()
          })
        }
        for (let at = firstBoundary; at < now; at += resolution.stepMs) {
          const value = yield* valueAt(
            at,
            (token) =>
              Effect.suspend(() => {
                const open = opens.get(token)?.get(at)
                return open === undefined ? priceAt(token, at) : Effect.succeed(open)
              })
          )
          points.push({ timestamp: toIso(at), value: value.toNumber() })
        }
        points.push({ timestamp: toIso(now), value: totalValue.toNumber() })

        const dayAgo = Math.max(now - DAY_MS, openedAt)
        const valueDayAgo = yield* valueAt(dayAgo, (token) => priceAt(token, dayAgo))
        const unrealized = totalValue.sub(totalCost)
        return {
          currency: "USD",
          totalValue: totalValue.toNumber(),
          totalCostBasis: totalCost.toNumber(),
          unrealizedPnl: unrealized.toNumber(),
          unrealizedPnlPercent: percentOf(unrealized, totalCost),
          realizedPnl: cents(realized).toNumber(),
          change24h: percentOf(totalValue.sub(valueDayAgo), valueDayAgo),
          wallets: walletValues.map((w) => ({ network: w.network, address: w.address, value: w.value.toNumber() })),
          holdings: holdings.map(({ exactValue, ...holding }) => ({
            ...holding,
            allocationPercent: percentOf(exactValue, totalValue)
          })),
          performance: { range, points },
          updatedAt: toIso(now)
        } satisfies PortfolioView
      })

      return { get }
    })
  )
}
