/**
 * Every limit number of the service in one place, each with where it comes from: the spec's
 * Limits table, or the published decision (docs/reference/http-api.md) where the spec left it open. A number that a
 * request schema or another module needs at its own definition (page sizes, the chart span, the
 * largest amount, the fee, the idempotency window) is defined there and re-exported here, so there
 * is still exactly one definition of each; `test/Limits.test.ts` ties the schemas to these values.
 */
import { Effect } from "effect"
import type { Plan } from "./Account.ts"
import type { AlertStatus } from "./Alert.ts"
import { AlertLimitExceeded } from "./Errors.ts"

export { MAX_AMOUNT, PLATFORM_FEE_BPS } from "./Money.ts"
export { IDEMPOTENCY_TTL_MS } from "./Repositories.ts"
export { DEFAULT_SLIPPAGE_PERCENT, MAX_CHART_CANDLES, pageLimits, trendingLimits } from "./Requests.ts"

// ---- alerts (spec: Limits; http-api.md#alerts) --------------------------------------------------

/** Alerts a Free account may have `active` or `triggered` at once. */
export const FREE_PLAN_ALERTS_MAX = 5

/** Alerts in these statuses count toward the plan's limit: a triggered alert until deleted or disabled. */
export const alertLimitStatuses: ReadonlyArray<AlertStatus> = ["active", "triggered"]

/** How many counting alerts the plan allows; `undefined` means unlimited (Pro). */
export const alertLimitOf = (plan: Plan): number | undefined => plan === "free" ? FREE_PLAN_ALERTS_MAX : undefined

/**
 * Whether one more counting alert (a new one, or a re-enabled one) fits the plan, given how many
 * `active` or `triggered` alerts the account has now.
 */
export const checkAlertLimit = (plan: Plan, currentCount: number): Effect.Effect<void, AlertLimitExceeded> => {
  const limit = alertLimitOf(plan)
  return limit !== undefined && currentCount >= limit ? Effect.fail(new AlertLimitExceeded({ limit })) : Effect.void
}

// ---- API keys (docs/decisions.md) ---------------------------------------------------------------

/** Unrevoked, unexpired keys one account may hold at once: enough for every service, few enough to audit. */
export const API_KEYS_PER_ACCOUNT_MAX = 20

// ---- trades (spec: Limits; http-api.md#trades) --------------------------------------------------

/** Slippage tolerance (percent) must exceed this: zero would fail the swap on any price tick. */
export const SLIPPAGE_MIN_EXCLUSIVE_PERCENT = 0
/** Slippage tolerance (percent) may be at most this: beyond it a swap could lose over half its output. */
export const SLIPPAGE_MAX_PERCENT = 50

/** A trade left unapproved by its wallet this long fails with `APPROVAL_TIMEOUT`. */
export const APPROVAL_TIMEOUT_MS = 10 * 60 * 1000

/** An `Idempotency-Key` header is 1 to this many characters. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255

// ---- market data (http-api.md#market-data) ------------------------------------------------------

/** A chart request without `from` covers this span before `to` (spec: "24 hours before `to`"). */
export const CHART_DEFAULT_SPAN_MS = 24 * 60 * 60 * 1000

/**
 * Candles shorter than an hour (`1m`, `5m`, `15m`) cover this much market time before now: older
 * history is kept by the hour (http-api.md#market-data). A chart of them reaching further back is
 * `400 VALIDATION_ERROR`.
 */
export const MINUTE_HISTORY_MS = 30 * 24 * 60 * 60 * 1000

/** The trending ranking is recalculated this often, in market time. */
export const TRENDING_RECALCULATION_INTERVAL_MS = 60 * 1000

// ---- HTTP boundary (http-api.md#conventions, #rate-limits) --------------------------------------

/** Request bodies larger than this are `413 PAYLOAD_TOO_LARGE`. */
export const REQUEST_BODY_MAX_BYTES = 64 * 1024

/** A client's `X-Request-Id` is echoed when it is 1 to this many printable characters. */
export const REQUEST_ID_MAX_LENGTH = 128

/** Requests per minute: per key by plan, and per client address without a key. Configurable. */
export const rateLimitsPerMinute = { free: 60, pro: 600, unauthenticated: 60 } as const
