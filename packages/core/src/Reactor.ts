/**
 * The core's side of `MarketReactor`: chain reports go to the trade records, market observations to
 * the alert monitor. Adapters call it; they never reach into the use cases themselves.
 */
import { Effect, Layer } from "effect"
import { AlertMonitor } from "./AlertMonitor.ts"
import { MarketReactor } from "./MarketReactor.ts"
import { Trades } from "./Trades.ts"

export const MarketReactorLive = Layer.effect(
  MarketReactor,
  Effect.gen(function*() {
    const trades = yield* Trades
    const monitor = yield* AlertMonitor
    return {
      onTradeEvent: (tradeId, event) => Effect.asVoid(trades.apply(tradeId, event)),
      onMarket: (observation) => monitor.observe(observation)
    }
  })
)
