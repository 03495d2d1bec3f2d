/**
 * At-least-once delivery with retries on the market clock, shared by notifications and webhooks:
 * the first attempt starts at once in a fiber of its own (so a channel that hangs delays nothing),
 * and each failure schedules the next attempt on `MarketTimer` after the next delay, until one
 * succeeds or the delays run out. Each attempt is told to `report` when it starts and when it ends.
 */
import { Context, Effect, Exit } from "effect"
import { MarketClock } from "./MarketClock.ts"
import { MarketTimer } from "./MarketTimer.ts"

/** Why one attempt failed, in words for the log, and the receiver's HTTP status if it answered. */
export interface AttemptFailure {
  readonly reason: string
  readonly responseStatus?: number
}

/** What happened to one attempt. */
export type AttemptReport =
  | { readonly _tag: "Started"; readonly attempt: number; readonly at: number }
  | { readonly _tag: "Succeeded"; readonly attempt: number; readonly at: number; readonly responseStatus?: number }
  | {
    readonly _tag: "Failed"
    readonly attempt: number
    readonly at: number
    readonly failure: AttemptFailure
    /** When the next attempt is due, or null after the last one. */
    readonly nextAttemptAt: number | null
  }

/** Back-off of a notification: attempts at 0, 5 s, 30 s, 2 min and 10 min (5 in all). */
export const notificationRetryDelaysMs: ReadonlyArray<number> = [5_000, 30_000, 120_000, 600_000]

/** Back-off of a webhook: about 5 s, 5 min, 30 min, 2 h, 5 h and 10 h after the first attempt. */
export const webhookRetryDelaysMs: ReadonlyArray<number> = [
  5_000,
  300_000,
  1_800_000,
  7_200_000,
  18_000_000,
  36_000_000
]

/**
 * How many deliveries are under way: started and neither succeeded nor given up, a retry still
 * to come included. An attempt lives in a fiber, which no snapshot of the simulation can hold, so
 * a snapshot is taken only while none is (docs/storage.md#snapshots). Whoever asks provides
 * their own counter; the default one counts for nobody.
 */
export const DeliveriesUnderway = Context.Reference<{ count: number }>(
  "@swapdesk/core/DeliveriesUnderway",
  { defaultValue: () => ({ count: 0 }) }
)

/**
 * Starts delivering: `attempt` is one try (answering the receiver's status, if any), `delaysMs` the
 * wait before each retry. Returns at once; the attempts run in their own fibers.
 */
export const deliverWithRetries = <R>(options: {
  readonly attempt: (attempt: number) => Effect.Effect<number | undefined, AttemptFailure>
  readonly delaysMs: ReadonlyArray<number>
  readonly report: (report: AttemptReport) => Effect.Effect<void, never, R>
}): Effect.Effect<void, never, MarketClock | MarketTimer | R> =>
  Effect.gen(function*() {
    const clock = yield* MarketClock
    const timer = yield* MarketTimer
    const context = yield* Effect.context<R>()
    const underway = yield* DeliveriesUnderway
    // Answers whether another attempt is scheduled: the delivery is still under way.
    const run = (attempt: number): Effect.Effect<boolean> =>
      Effect.gen(function*() {
        yield* options.report({ _tag: "Started", attempt, at: yield* clock.now })
        const outcome = yield* Effect.result(options.attempt(attempt))
        const at = yield* clock.now
        if (outcome._tag === "Success") {
          yield* options.report({
            _tag: "Succeeded",
            attempt,
            at,
            ...(outcome.success === undefined ? {} : { responseStatus: outcome.success })
          })
          return false
        }
        const delay = options.delaysMs[attempt - 1]
        const nextAttemptAt = delay === undefined ? null : at + delay
        yield* options.report({ _tag: "Failed", attempt, at, failure: outcome.failure, nextAttemptAt })
        if (nextAttemptAt === null) return false
        yield* timer.schedule(nextAttemptAt, Effect.asVoid(run(attempt + 1)))
        return true
      }).pipe(
        Effect.provideContext(context),
        Effect.onExit((exit) => Exit.isSuccess(exit) && exit.value ? Effect.void : Effect.sync(() => underway.count--))
      )
    underway.count++
    yield* Effect.forkDetach(run(1))
  })
