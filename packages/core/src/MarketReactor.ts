/**
 * Port, implemented by the core and called by market and chain adapters: how the domain hears that
 * the world moved. The simulator calls it from its event loop, in market-time order.
 */
import { Context, type Effect } from "effect"
import type { MarketSwap } from "./Market.ts"
import type { TradeEvent } from "./TradeMachine.ts"

/**
 * The market's USD prices as of an observation, as the doubles nearest to them, read on demand:
 * what the alert engine compares on every observation, where an effect or a `Decimal` per token
 * would cost more than the comparisons (`PriceFeed.priceUsd` has the exact price). Valid while the
 * reactor handles the observation.
 */
export interface ObservedPrices {
  readonly priceUsd: (symbol: string) => number
}

/** What changed in the market at one instant: prices moved, and these swaps happened. */
export interface MarketObservation {
  readonly at: number
  readonly swaps: ReadonlyArray<MarketSwap>
  readonly prices: ObservedPrices
  /**
   * Whether the volume and portfolio alerts (hourly and daily aggregates) are checked at this
   * observation. Absent: at each whole minute of `at`, where the simulator's ticks land. A chain's
   * block times need not land on one (Ethereum's twelve-second slots never do), so a live observer
   * says when a new minute has begun.
   */
  readonly aggregates?: boolean
}

export class MarketReactor extends Context.Service<MarketReactor, {
  readonly onTradeEvent: (tradeId: string, event: TradeEvent) => Effect.Effect<void>
  readonly onMarket: (observation: MarketObservation) => Effect.Effect<void>
}>()("@swapdesk/core/MarketReactor") {}
