/**
 * The time every use case reads. In production it is the wall clock; on the simulator it is the
 * market clock, so every timestamp a run produces replays from its seed.
 */
import { Clock, Context, Effect, Layer } from "effect"

export class MarketClock extends Context.Service<MarketClock, {
  /** Milliseconds since the Unix epoch. */
  readonly now: Effect.Effect<number>
}>()("@swapdesk/core/MarketClock") {
  /** Production wiring: Effect's Clock (the wall clock, or TestClock in tests). */
  static readonly layer = Layer.succeed(MarketClock, { now: Clock.currentTimeMillis })
}

/** ISO 8601 UTC with milliseconds, the only timestamp format the API speaks. */
export const toIso = (ms: number): string => new Date(ms).toISOString()

/** The current time in milliseconds. */
export const now: Effect.Effect<number, never, MarketClock> = MarketClock.use((clock) => clock.now)
