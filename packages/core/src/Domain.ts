/**
 * The core's use cases wired together: what the handlers call and what adapters report to.
 * Requires the ports and the repositories.
 */
import { Layer } from "effect"
import { AlertIndex } from "./AlertIndex.ts"
import { AlertMonitor } from "./AlertMonitor.ts"
import { Alerts } from "./Alerts.ts"
import { MarketData } from "./MarketData.ts"
import { MarketReactorLive } from "./Reactor.ts"
import { Trades } from "./Trades.ts"

const UseCases = Layer.mergeAll(Alerts.layer, Trades.layer, MarketData.layer).pipe(
  Layer.provideMerge(AlertIndex.layer)
)

export const DomainLive = MarketReactorLive.pipe(
  Layer.provideMerge(AlertMonitor.layer),
  Layer.provideMerge(UseCases)
)
