/**
 * The core's use cases wired together: what the handlers call and what adapters report to.
 * Requires the ports and the repositories. The use cases publish on `WebhookDispatch`, which
 * delivers webhooks and passes every event on to the adapter's `DomainEvents`.
 */
import { Layer } from "effect"
import { AlertIndex } from "./AlertIndex.ts"
import { AlertMonitor } from "./AlertMonitor.ts"
import { Alerts } from "./Alerts.ts"
import { ApiKeys } from "./ApiKeys.ts"
import { MarketData } from "./MarketData.ts"
import { Notifications } from "./Notifications.ts"
import { OrderIndex } from "./OrderIndex.ts"
import { Orders } from "./Orders.ts"
import { Portfolio } from "./Portfolio.ts"
import { MarketReactorLive } from "./Reactor.ts"
import { Trades } from "./Trades.ts"
import { WebhookDispatch } from "./WebhookDispatch.ts"
import { Webhooks } from "./Webhooks.ts"

const UseCases = Layer.mergeAll(
  Alerts.layer,
  Orders.layer.pipe(Layer.provideMerge(Trades.layer)),
  MarketData.layer,
  ApiKeys.layer,
  Portfolio.layer,
  Webhooks.layer
).pipe(Layer.provideMerge(Layer.merge(AlertIndex.layer, OrderIndex.layer)))

export const DomainLive = MarketReactorLive.pipe(
  Layer.provideMerge(Layer.merge(AlertMonitor.layer, Notifications.layer)),
  Layer.provideMerge(UseCases),
  Layer.provide(WebhookDispatch)
)
