/**
 * The core's use cases wired together: what the handlers call and what adapters report to.
 * Requires the ports and the repositories.
 */
import { Layer } from "effect"
import { AlertMonitor } from "./AlertMonitor.ts"
import { Alerts } from "./Alerts.ts"
import { ApiKeys } from "./ApiKeys.ts"
import { MarketData } from "./MarketData.ts"
import { Orders } from "./Orders.ts"
import { Portfolio } from "./Portfolio.ts"
import { MarketReactorLive } from "./Reactor.ts"
import { Trades } from "./Trades.ts"

const UseCases = Layer.mergeAll(
  Alerts.layer,
  Orders.layer.pipe(Layer.provideMerge(Trades.layer)),
  MarketData.layer,
  ApiKeys.layer,
  Portfolio.layer
)

export const DomainLive = MarketReactorLive.pipe(
  Layer.provideMerge(AlertMonitor.layer),
  Layer.provideMerge(UseCases)
)
