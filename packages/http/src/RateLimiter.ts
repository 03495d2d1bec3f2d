/**
 * Request rate limits (docs/reference/http-api.md#rate-limits): per key by plan, per client address for calls
 * without a key, in fixed one-minute windows of wall-clock time (limits protect the server, so
 * they follow real time even when the market clock is simulated). Every response to a limited
 * caller carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; over the limit
 * it is `429 RATE_LIMITED` with `Retry-After`. One limiter serves every route, so a key has one
 * budget wherever it is used.
 *
 * Every caller's window is the same minute, so the table holds the current minute's callers only:
 * it is emptied when the minute turns, and within a minute it tracks at most `MAX_TRACKED_CALLERS`,
 * forgetting the earliest first (docs/security.md#resource-exhaustion).
 */
import { type Plan, RateLimited, rateLimitsPerMinute } from "@swapdesk/core"
import { Clock, Context, Effect, Layer } from "effect"
import { noteRateLimit } from "./middleware/RequestNotes.ts"

/** Whether requests are counted, and how many a minute each kind of caller may send. */
export interface RateLimitSettings {
  readonly enabled: boolean
  readonly perMinute: { readonly free: number; readonly pro: number; readonly unauthenticated: number }
}

/** The limits in force; a scenario can change or disable them. */
export const RateLimits = Context.Reference<RateLimitSettings>("@swapdesk/http/RateLimits", {
  defaultValue: () => ({ enabled: true, perMinute: rateLimitsPerMinute })
})

const WINDOW_MS = 60_000
/**
 * The most callers one minute's table tracks (about 10 MB). Past it the caller seen earliest is
 * forgotten and starts the minute again: only a flood from this many addresses in one minute gets
 * there, and per-address limits cannot hold such a flood back anyway.
 */
export const MAX_TRACKED_CALLERS = 100_000

/** Who a request is counted against, with the key of its count (`keyCaller`, `addressCaller`). */
export type Caller = { readonly _tag: "Key"; readonly keyId: string; readonly plan: Plan; readonly counter: string } | {
  readonly _tag: "Address"
  readonly address: string
  readonly counter: string
}

/**
 * A key's caller. Its count's key is built here, once: a caller made once per key (as
 * `Authentication.ts` keeps them) spares every request a string to build and hash.
 */
export const keyCaller = (keyId: string, plan: Plan): Caller => ({ _tag: "Key", keyId, plan, counter: `key:${keyId}` })

/** An address's caller. */
export const addressCaller = (address: string): Caller => ({ _tag: "Address", address, counter: `ip:${address}` })

const makeRateLimiter = Effect.gen(function*() {
  const settings = yield* RateLimits
  /** Requests per caller in the minute starting at `windowStart`, callers in the order first seen. */
  const counts = new Map<string, number>()
  let windowStart = 0

  // One step for the whole decision, rather than a counting effect with a recovery: this runs on
  // every request.
  const admitThen = <A, E, R, E2>(
    caller: Caller,
    effect: Effect.Effect<A, E, R>,
    refuse: (limited: RateLimited) => Effect.Effect<never, E2>
  ): Effect.Effect<A, E | E2, R> =>
    settings.enabled
      ? Effect.withFiber<A, E | E2, R>((fiber) => {
        const now = fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
        const limit = caller._tag === "Key" ? settings.perMinute[caller.plan] : settings.perMinute.unauthenticated
        const key = caller.counter
        const start = Math.floor(now / WINDOW_MS) * WINDOW_MS
        if (start !== windowStart) {
          counts.clear()
          windowStart = start
        }
        const count = (counts.get(key) ?? 0) + 1
        if (count === 1 && counts.size >= MAX_TRACKED_CALLERS) counts.delete(counts.keys().next().value!)
        counts.set(key, count)
        const resetSeconds = Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000))
        const over = count > limit
        const remaining = Math.max(0, limit - count)
        noteRateLimit(fiber, { limit, remaining, resetSeconds, over })
        return over ? refuse(new RateLimited({ retryAfterSeconds: resetSeconds })) : effect
      })
      : effect

  return { admitThen, tracked: () => counts.size }
})

/** Per-caller request counts over one-minute windows (docs/reference/http-api.md, rate limits). */
export class RateLimiter extends Context.Service<RateLimiter, {
  /**
   * Counts one request of `caller`, then runs `effect`; past the limit, `refuse` instead. The
   * figures are recorded on the request (`ResponseStamp.ts`), and the global middleware writes
   * their headers on whatever response the request ends with, success or error.
   */
  readonly admitThen: <A, E, R, E2>(
    caller: Caller,
    effect: Effect.Effect<A, E, R>,
    refuse: (limited: RateLimited) => Effect.Effect<never, E2>
  ) => Effect.Effect<A, E | E2, R>
  /** How many callers the current minute's table tracks (at most `MAX_TRACKED_CALLERS`). */
  readonly tracked: () => number
}>()("@swapdesk/http/RateLimiter") {
  static readonly layer = Layer.effect(RateLimiter, makeRateLimiter)
}
