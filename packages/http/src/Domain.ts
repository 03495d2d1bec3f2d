/**
 * The core's use cases wired together: what the handlers call and what adapters report to.
 * Requires the ports and the repositories.
 */
import { AlertMonitor, Alerts, MarketData, MarketReactorLive, Trades } from "@swapdesk/core"
import { Layer } from "effect"

const UseCases = Layer.mergeAll(Alerts.layer, Trades.layer, MarketData.layer)

export const DomainLive = MarketReactorLive.pipe(
  Layer.provideMerge(AlertMonitor.layer),
  Layer.provideMerge(UseCases)
)
