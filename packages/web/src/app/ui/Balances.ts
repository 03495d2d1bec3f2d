/**
 * The wallet's free balance per token on one network, from what the API already serves: each
 * holding's `amount` (`GET /v1/portfolio`, free and reserved together) less what is reserved,
 * which is the input of every pending trade (`GET /v1/trades?status=pending`) and of every open
 * limit order not yet handed to a trade (`GET /v1/orders?status=pending`, `tradeId` null; an order
 * that is filling has passed its reservation to its trade). Exact, in base units.
 */
import { useEffect } from "preact/hooks"
import { toUnits } from "../Amounts.ts"
import { get } from "../api/Api.ts"
import type { Network, Order, Page, Portfolio, Trade } from "../api/Types.ts"
import { usePoll } from "../Live.ts"
import { serves } from "../Session.ts"
import { tokenBySymbol } from "../Tokens.ts"
import { useResource } from "./Resource.ts"

export interface Balance {
  /** What may be spent now, in base units. */
  readonly free: bigint
  /** The holding's value in the portfolio's currency (free and reserved). */
  readonly value: number
}

export type Balances = ReadonlyMap<string, Balance>

const BALANCE_REFRESH_MS = 30_000

const units = (symbol: string, amount: string): bigint => {
  const decimals = tokenBySymbol(symbol)?.decimals
  return decimals === undefined ? 0n : toUnits(amount, decimals) ?? 0n
}

export const readBalances = async (network: Network): Promise<Balances> => {
  const [portfolio, trades, orders] = await Promise.all([
    get<Portfolio>("/portfolio", { network, range: "24h" }),
    get<Page & { readonly trades: ReadonlyArray<Trade> }>("/trades", { status: "pending", network, limit: 100 }),
    serves("/v1/orders")
      ? get<Page & { readonly orders: ReadonlyArray<Order> }>("/orders", { status: "pending", network, limit: 100 })
      : Promise.resolve({ orders: [] as ReadonlyArray<Order> })
  ])
  const reserved = new Map<string, bigint>()
  const hold = (symbol: string, amount: string) =>
    reserved.set(symbol, (reserved.get(symbol) ?? 0n) + units(symbol, amount))
  for (const trade of trades.trades) hold(trade.tokenIn, trade.amountIn)
  for (const order of orders.orders) {
    if (order.tradeId === null || order.tradeId === undefined) hold(order.tokenIn, order.amountIn)
  }
  const balances = new Map<string, Balance>()
  for (const holding of portfolio.holdings) {
    if (holding.network !== network) continue
    const free = units(holding.token, holding.amount) - (reserved.get(holding.token) ?? 0n)
    balances.set(holding.token, { free: free > 0n ? free : 0n, value: holding.value })
  }
  return balances
}

/**
 * The free balances on `network`, read now and every few seconds, when the server serves the
 * portfolio; `refresh` reads them again at once (after a trade or an order is placed).
 */
export const useBalances = (network: Network) => {
  const balances = useResource<Balances>()
  const available = serves("/v1/portfolio")
  // Another network's balances do not answer for this one.
  useEffect(() => balances.set(undefined), [network])
  const refresh = () => (available ? balances.load(() => readBalances(network)) : Promise.resolve())
  usePoll(refresh, BALANCE_REFRESH_MS, [network, available])
  return { balances, available, refresh }
}

/** A token's free balance in base units: 0 when the wallet holds none, undefined while unknown. */
export const freeOf = (balances: Balances | undefined, symbol: string): bigint | undefined =>
  balances === undefined ? undefined : balances.get(symbol)?.free ?? 0n
