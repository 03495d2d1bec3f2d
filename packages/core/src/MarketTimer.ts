/**
 * Port: work that is due later in market time (a notification's or a webhook's next attempt). On
 * the simulator it is an entry on the agenda, so advancing a manual clock runs it; a deployment on
 * the wall clock would sleep until then. The task runs in a fiber of its own: whoever moves the
 * clock never waits for it.
 */
import { Context, type Effect } from "effect"

export class MarketTimer extends Context.Service<MarketTimer, {
  /** Runs `task` once market time reaches `atMs` (at once if it already has). */
  readonly schedule: (atMs: number, task: Effect.Effect<void>) => Effect.Effect<void>
}>()("@swapdesk/core/MarketTimer") {}
