/**
 * The core's side of `MarketReactor`: chain reports go to the trade records (and, for a trade that
 * fills a limit order, to the order), market observations to the alert monitor and the limit
 * order watcher. Adapters call it; they never reach into the use cases themselves.
 */
import { Effect, Layer } from "effect"
import { AlertMonitor } from "./AlertMonitor.ts"
import { MarketReactor } from "./MarketReactor.ts"
import { Orders } from "./Orders.ts"
import { Trades } from "./Trades.ts"

export const MarketReactorLive = Layer.effect(
  MarketReactor,
  Effect.gen(function*() {
    const trades = yield* Trades
    const orders = yield* Orders
    const monitor = yield* AlertMonitor
    return {
      onTradeEvent: (tradeId, event) =>
        Effect.flatMap(
          trades.apply(tradeId, event),
          (trade) => trade.orderId === null ? Effect.void : orders.settle(trade)
        ),
      // Both watchers answer `Effect.void` when the observation asks nothing of them (most ticks):
      // the loop then gets `Effect.void` back, with no step for the runtime to run.
      onMarket: (observation) => {
        const alerts = monitor.observe(observation)
        const orderWatch = orders.observe(observation.at)
        return orderWatch === Effect.void
          ? alerts
          : alerts === Effect.void
          ? orderWatch
          : Effect.andThen(alerts, orderWatch)
      }
    }
  })
)
