/**
 * `MarketTimer` on real timers: a task due at a wall-clock instant sleeps in a fiber of its own
 * until then (at once when the instant has passed). The fibers belong to the layer's scope, so
 * stopping the server stops every pending retry instead of leaving timers behind it.
 */
import { MarketTimer } from "@swapdesk/core"
import { Clock, Effect, Layer, Scope } from "effect"

/** `MarketTimer` on Effect's `Clock` (the wall clock; `TestClock` in tests). */
export const layerWallClockTimer = Layer.effect(
  MarketTimer,
  Effect.gen(function*() {
    const scope = yield* Scope.Scope
    return {
      schedule: (atMs, task) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            Effect.forkIn(Effect.andThen(Effect.sleep(Math.max(0, atMs - now)), task), scope, {
              startImmediately: true
            })
          ),
          Effect.asVoid
        )
    }
  })
)
