/**
 * The shapes of the API's `data`, as docs/reference/http-api.md and the OpenAPI document
 * (`/v1/openapi.json`) publish them. Only what the interface reads is named. Where one type stands
 * for several forms of a resource (a trade's creation form, list item and single read), the keys
 * every form has are required and the others optional.
 *
 * The app reaches the server only through the public API, so these are written here rather than
 * imported; `test/ApiTypes.test.ts` holds them to the core's response views, so that a change on
 * either side fails the type check.
 */
export type Network = "solana" | "ethereum" | "base" | "arbitrum"
export const networks: ReadonlyArray<Network> = ["solana", "ethereum", "base", "arbitrum"]
export const currencies = ["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD"] as const
export const timeframes = ["1m", "5m", "15m", "1h", "4h", "1d"] as const
export type Timeframe = (typeof timeframes)[number]

export interface Health {
  readonly status: string
  readonly version: string
  readonly backend: string
  readonly time: string
  /** In live mode, each network's node and indexing (docs/live.md). */
  readonly networks?: Readonly<Record<string, NetworkHealth>>
}

/** One live network's state in `GET /v1/health`. */
export interface NetworkHealth {
  readonly chainId: number
  readonly rpc: "up" | "down"
  readonly headBlock: number | null
  readonly indexedBlock: number | null
  readonly lagBlocks: number | null
  /** The index is more than 50 blocks behind the head, or has indexed nothing yet. */
  readonly lagging: boolean
}

export interface MarketRecord {
  readonly token: string
  readonly price: number
  readonly currency: string
  readonly change24h: number
  readonly volume24h: number
  readonly marketCap: number
  readonly extended?: {
    readonly volumeByNetwork: Readonly<Record<string, number>>
    readonly buyVolume24h: number
    readonly sellVolume24h: number
    readonly holders: { readonly count: number; readonly top10Percent: number }
    readonly whaleActivity: { readonly transactions24h: number; readonly netFlow24h: number }
  }
}

export interface Candle {
  readonly timestamp: string
  readonly open: number
  readonly high: number
  readonly low: number
  readonly close: number
  readonly volume: number
}

export interface Chart {
  readonly token: string
  readonly timeframe: string
  readonly currency: string
  readonly candles: ReadonlyArray<Candle>
}

export interface Trending {
  readonly network: string
  readonly updatedAt: string
  readonly tokens: ReadonlyArray<{
    readonly rank: number
    readonly token: string
    readonly price: number
    readonly change24h: number
    readonly volume24h: number
    readonly network: string
  }>
}

export interface Quote {
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: string
  readonly network: string
  readonly slippage: number
  readonly estimatedAmountOut: string
  readonly fee: string
  readonly minAmountOut: string
  readonly priceImpact: number
  readonly gasFee: string
  readonly rate: string
  readonly expiresAt: string
}

export type TradeStatus = "pending" | "confirmed" | "failed"

export interface Trade {
  readonly id: string
  readonly status: TradeStatus
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: string
  readonly estimatedAmountOut?: string
  readonly amountOut?: string
  readonly minAmountOut?: string
  readonly fee: string
  readonly gasFee?: string
  readonly slippage?: number
  readonly network: string
  readonly txHash?: string
  readonly walletAddress?: string
  readonly createdAt?: string
  readonly submittedAt?: string
  readonly confirmedAt?: string | null
  readonly failureReason?: string
  readonly orderId?: string
  /** Live mode, the single read of an external wallet's trade awaiting approval: what its owner sends. */
  readonly approval?: TradeApproval
}

/** An ERC-20 approval of the project's contract that a wallet must send first (integers as base-10 strings). */
export interface Allowance {
  readonly token: string
  readonly spender: string
  readonly required: string
  readonly current: string
}

/**
 * What an external wallet sends for its trade (docs/live.md, "An external wallet's trade"): the
 * prepared swap, and the allowance it needs first (null when the allowance covers `amountIn`).
 */
export interface TradeApproval {
  readonly transaction: {
    readonly to: string
    readonly data: string
    readonly value: string
    readonly chainId: number
    readonly gas: string
  }
  readonly allowance: Allowance | null
  readonly expiresAt: string
}

export interface Page {
  readonly total: number
  readonly limit: number
  readonly offset: number
}

export type AlertType = "price" | "volume" | "whale" | "portfolio"
export type AlertStatus = "active" | "triggered" | "disabled"
export type Channel = "email" | "push" | "telegram"

export interface Alert {
  readonly id: string
  readonly type: AlertType
  readonly token?: string
  readonly condition?: "above" | "below"
  readonly targetPrice?: number
  /** Accepted at creation but never shown by the API (the spec's Alert table has no such field). */
  readonly multiplier?: undefined
  readonly minValueUsd?: undefined
  readonly changePercent?: undefined
  readonly channel: Channel
  readonly status: AlertStatus
  readonly createdAt: string
  readonly triggeredAt?: string | null
}

export type OrderStatus = "pending" | "confirmed" | "failed" | "cancelled" | "expired"

export interface Order {
  readonly id: string
  readonly status: OrderStatus
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: string
  readonly minAmountOut: string
  readonly limitPrice: string
  readonly network: string
  readonly signer: string
  /** Null while an external wallet's order waits for its owner's signature (live mode). */
  readonly signature: string | null
  /** Live mode: the contract that fills the order (its EIP-712 domain's `verifyingContract`). */
  readonly verifyingContract?: string
  /** Live mode, an external wallet's unsigned order: the `eth_signTypedData_v4` payload. */
  readonly typedData?: unknown
  /** Live mode, an external wallet's order: the ERC-20 approval the contract needs, or null. */
  readonly allowance?: Allowance | null
  readonly walletAddress: string
  readonly createdAt: string
  readonly expiresAt: string | null
  readonly tradeId: string | null
  readonly closedAt: string | null
}

export interface Portfolio {
  readonly currency: string
  readonly totalValue: number
  readonly totalCostBasis: number
  readonly unrealizedPnl: number
  readonly unrealizedPnlPercent: number
  readonly realizedPnl: number
  readonly change24h: number
  readonly wallets: ReadonlyArray<{ readonly network: string; readonly address: string; readonly value: number }>
  readonly holdings: ReadonlyArray<{
    readonly token: string
    readonly network: string
    readonly amount: string
    readonly price: number
    readonly value: number
    readonly costBasis: number
    readonly averageCost: number
    readonly unrealizedPnl: number
    readonly unrealizedPnlPercent: number
    readonly allocationPercent: number
  }>
  readonly performance: {
    readonly range: string
    readonly points: ReadonlyArray<{ readonly timestamp: string; readonly value: number }>
  }
  readonly updatedAt: string
}

export type Scope = "read" | "trade" | "alerts" | "account"
export const scopes: ReadonlyArray<Scope> = ["read", "trade", "alerts", "account"]

export interface ApiKey {
  readonly id: string
  readonly name: string
  readonly prefix: string
  readonly last4?: string
  readonly key?: string
  readonly scopes: ReadonlyArray<Scope>
  readonly createdAt: string
  readonly lastUsedAt?: string | null
  readonly expiresAt: string | null
}

export interface NotificationSettings {
  readonly email: string | null
  readonly telegram: { readonly chatId: string } | null
  readonly push: { readonly deviceToken: string } | null
}

export const webhookEvents = [
  "trade.confirmed",
  "trade.failed",
  "alert.triggered",
  "order.filled",
  "order.cancelled",
  "order.expired"
] as const

export interface Webhook {
  readonly id: string
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly secret?: string
  readonly createdAt: string
}

export interface Delivery {
  readonly id: string
  readonly event: string
  readonly webhookId: string
  readonly attempt: number
  readonly status: "pending" | "succeeded" | "failed"
  readonly responseStatus: number | null
  readonly createdAt: string
  readonly nextAttemptAt: string | null
}

export interface SimEvent {
  readonly seq: number
  readonly at: string
  readonly type: string
  readonly data: unknown
}

export interface OutboxItem {
  readonly seq?: number
  readonly channel: string
  readonly to: string
  readonly alertId: string
  readonly message: string
  readonly sentAt: string
  readonly status?: string
}
