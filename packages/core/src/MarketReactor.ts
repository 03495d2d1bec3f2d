/**
 * Port, implemented by the core and called by market and chain adapters: how the domain hears that
 * the world moved. The simulator calls it from its event loop, in market-time order.
 */
import { Context, type Effect } from "effect"
import type { MarketSwap } from "./Market.ts"
import type { TradeEvent } from "./TradeMachine.ts"

/** What changed in the market at one instant: prices moved, and these swaps happened. */
export interface MarketObservation {
  readonly at: number
  readonly swaps: ReadonlyArray<MarketSwap>
}

export class MarketReactor extends Context.Service<MarketReactor, {
  readonly onTradeEvent: (tradeId: string, event: TradeEvent) => Effect.Effect<void>
  readonly onMarket: (observation: MarketObservation) => Effect.Effect<void>
}>()("@swapdesk/core/MarketReactor") {}
