/**
 * The running `AlertEngine` as a service: `Alerts` arms and disarms alerts in it as their status
 * changes, and `AlertMonitor` takes the fired ones from it. Built from the repository's active
 * alerts, so a durable repository's alerts are watched again after a restart, or from
 * `RestoredIndexes`.
 */
import { Context, Effect } from "effect"
import { AlertEngine } from "./AlertEngine.ts"
import { indexLayer } from "./IndexLayer.ts"
import { AlertRepository } from "./Repositories.ts"

export class AlertIndex extends Context.Service<AlertIndex, AlertEngine>()("@swapdesk/core/AlertIndex") {
  static readonly layer = indexLayer(
    AlertIndex,
    (restored) => AlertEngine.restore(restored.alerts),
    Effect.gen(function*() {
      const engine = new AlertEngine()
      for (const alert of yield* (yield* AlertRepository).active) engine.arm(alert)
      return engine
    })
  )
}
