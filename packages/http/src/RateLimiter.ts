/**
 * Request rate limits (docs/reference/http-api.md#rate-limits): per key by plan, per client address for calls
 * without a key, in fixed one-minute windows of wall-clock time (limits protect the server, so
 * they follow real time even when the market clock is simulated). Every response to a limited
 * caller carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; over the limit
 * it is `429 RATE_LIMITED` with `Retry-After`. One limiter serves every route, so a key has one
 * budget wherever it is used.
 */
import { type Plan, RateLimited, rateLimitsPerMinute } from "@swapdesk/core"
import { Clock, Context, Effect, Layer } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

export interface RateLimitSettings {
  readonly enabled: boolean
  readonly perMinute: { readonly free: number; readonly pro: number; readonly unauthenticated: number }
}

/** The limits in force; a scenario can change or disable them. */
export const RateLimits = Context.Reference<RateLimitSettings>("@swapdesk/http/RateLimits", {
  defaultValue: () => ({ enabled: true, perMinute: rateLimitsPerMinute })
})

const WINDOW_MS = 60_000
/** Past this many tracked callers, windows that have ended are swept. */
const SWEEP_THRESHOLD = 10_000

export type Caller = { readonly _tag: "Key"; readonly keyId: string; readonly plan: Plan } | {
  readonly _tag: "Address"
  readonly address: string
}

/**
 * The rate-limit headers on `response`, one `setHeader` each rather than one `setHeaders`, which
 * normalises a record first (docs/performance.md, round 3).
 */
const withHeaders = (
  response: HttpServerResponse.HttpServerResponse,
  limit: number,
  remaining: number,
  resetSeconds: number,
  over: boolean
) => {
  const reset = String(resetSeconds)
  const limited = HttpServerResponse.setHeader(
    HttpServerResponse.setHeader(
      HttpServerResponse.setHeader(response, "ratelimit-limit", String(limit)),
      "ratelimit-remaining",
      String(remaining)
    ),
    "ratelimit-reset",
    reset
  )
  return over ? HttpServerResponse.setHeader(limited, "retry-after", reset) : limited
}

const makeRateLimiter = Effect.gen(function*() {
  const settings = yield* RateLimits
  const windows = new Map<string, { start: number; count: number }>()

  const sweep = (now: number) => {
    for (const [key, window] of windows) if (now - window.start >= WINDOW_MS) windows.delete(key)
  }

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
        const key = caller._tag === "Key" ? `key:${caller.keyId}` : `ip:${caller.address}`
        const start = Math.floor(now / WINDOW_MS) * WINDOW_MS
        let window = windows.get(key)
        if (window === undefined || window.start !== start) {
          if (windows.size >= SWEEP_THRESHOLD) sweep(now)
          window = { start, count: 0 }
          windows.set(key, window)
        }
        window.count++
        const resetSeconds = Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000))
        const over = window.count > limit
        const remaining = Math.max(0, limit - window.count)
        HttpEffect.appendPreResponseHandlerUnsafe(
          fiber.context,
          (_request, response) => Effect.succeed(withHeaders(response, limit, remaining, resetSeconds, over))
        )
        return over ? refuse(new RateLimited({ retryAfterSeconds: resetSeconds })) : effect
      })
      : effect

  return { admitThen }
})

export class RateLimiter extends Context.Service<RateLimiter, {
  /**
   * Counts one request of `caller`, then runs `effect`; past the limit, `refuse` instead. The
   * headers are added to whatever response the request ends with, success or error.
   */
  readonly admitThen: <A, E, R, E2>(
    caller: Caller,
    effect: Effect.Effect<A, E, R>,
    refuse: (limited: RateLimited) => Effect.Effect<never, E2>
  ) => Effect.Effect<A, E | E2, R>
}>()("@swapdesk/http/RateLimiter") {
  static readonly layer = Layer.effect(RateLimiter, makeRateLimiter)
}
