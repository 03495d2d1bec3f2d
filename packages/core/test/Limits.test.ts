// Proves each limit number has the value the spec or contract gives it, that the plan's alert limit is enforced at
// the right count, and that the request schemas and money functions actually enforce the numbers Limits.ts names
// (by probing each schema just inside and just outside its bound), so the two can never drift apart.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { AlertStatus } from "../src/Alert.ts"
import { countsTowardLimit } from "../src/AlertMachine.ts"
import { AlertLimitExceeded } from "../src/Errors.ts"
import {
  alertLimitOf,
  alertLimitStatuses,
  APPROVAL_TIMEOUT_MS,
  checkAlertLimit,
  DEFAULT_SLIPPAGE_PERCENT,
  FREE_PLAN_ALERTS_MAX,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_TTL_MS,
  MAX_AMOUNT,
  MAX_CHART_CANDLES,
  pageLimits,
  PLATFORM_FEE_BPS,
  rateLimitsPerMinute,
  REQUEST_BODY_MAX_BYTES,
  SLIPPAGE_MAX_PERCENT,
  SLIPPAGE_MIN_EXCLUSIVE_PERCENT,
  trendingLimits
} from "../src/Limits.ts"
import { parseAmount, platformFee } from "../src/Money.ts"
import { CreateTradeBody, ListTradesQuery, TrendingQuery } from "../src/Requests.ts"
import { decodeQueryResult, decodeRequestResult } from "../src/Validation.ts"

describe("alert limits", () => {
  it("Free allows 5, Pro is unlimited", () => {
    assert.strictEqual(FREE_PLAN_ALERTS_MAX, 5)
    assert.strictEqual(alertLimitOf("free"), 5)
    assert.isUndefined(alertLimitOf("pro"))
  })

  it.effect("a Free account with 4 counting alerts may add a fifth", () => checkAlertLimit("free", 4))

  it.effect("a Free account with 5 (or more) counting alerts may not add another", () =>
    Effect.gen(function*() {
      for (const count of [5, 6, 50]) {
        const error = yield* Effect.flip(checkAlertLimit("free", count))
        assert.instanceOf(error, AlertLimitExceeded)
        assert.strictEqual(error.limit, 5)
        assert.strictEqual(error.code, "ALERT_LIMIT_EXCEEDED")
      }
    }))

  it.effect("a Pro account is never limited", () =>
    Effect.gen(function*() {
      for (const count of [0, 5, 10_000]) yield* checkAlertLimit("pro", count)
    }))

  it("active and triggered alerts count; disabled ones do not", () => {
    assert.sameMembers([...alertLimitStatuses], ["active", "triggered"])
    for (const status of AlertStatus.literals) {
      assert.strictEqual(alertLimitStatuses.includes(status), countsTowardLimit(status), status)
    }
  })
})

describe("the numbers, from the spec and the contract", () => {
  it("pagination: default 20, max 100; trending: default 10, max 50", () => {
    assert.deepStrictEqual(pageLimits, { defaultLimit: 20, maxLimit: 100 })
    assert.deepStrictEqual(trendingLimits, { defaultLimit: 10, maxLimit: 50 })
  })

  it("trades: slippage default 0.5 within (0, 50]; fee 25 bps; approval timeout 10 minutes", () => {
    assert.strictEqual(DEFAULT_SLIPPAGE_PERCENT, 0.5)
    assert.strictEqual(SLIPPAGE_MIN_EXCLUSIVE_PERCENT, 0)
    assert.strictEqual(SLIPPAGE_MAX_PERCENT, 50)
    assert.strictEqual(PLATFORM_FEE_BPS, 25n)
    assert.strictEqual(APPROVAL_TIMEOUT_MS, 600_000)
  })

  it("chart: 1500 candles; amounts: 10^30; idempotency: 24 h and 255 characters; bodies: 64 KiB", () => {
    assert.strictEqual(MAX_CHART_CANDLES, 1500)
    assert.strictEqual(MAX_AMOUNT, 10n ** 30n)
    assert.strictEqual(IDEMPOTENCY_TTL_MS, 86_400_000)
    assert.strictEqual(IDEMPOTENCY_KEY_MAX_LENGTH, 255)
    assert.strictEqual(REQUEST_BODY_MAX_BYTES, 65_536)
  })

  it("rate limits: Free 60/min, Pro 600/min, unauthenticated 60/min", () => {
    assert.deepStrictEqual(rateLimitsPerMinute, { free: 60, pro: 600, unauthenticated: 60 })
  })
})

describe("the schemas enforce exactly these numbers", () => {
  const trade = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" }
  const decodeTrade = decodeRequestResult(CreateTradeBody)

  it("slippage bounds", () => {
    assert.isTrue(Result.isSuccess(decodeTrade({ ...trade, slippage: SLIPPAGE_MAX_PERCENT })))
    assert.isTrue(Result.isFailure(decodeTrade({ ...trade, slippage: SLIPPAGE_MAX_PERCENT + 1e-9 })))
    assert.isTrue(Result.isFailure(decodeTrade({ ...trade, slippage: SLIPPAGE_MIN_EXCLUSIVE_PERCENT })))
    assert.isTrue(Result.isSuccess(decodeTrade({ ...trade, slippage: DEFAULT_SLIPPAGE_PERCENT })))
  })

  it("page and trending limits", () => {
    const trades = decodeQueryResult(ListTradesQuery)
    const trending = decodeQueryResult(TrendingQuery)
    assert.isTrue(Result.isSuccess(trades({ limit: String(pageLimits.maxLimit) })))
    assert.isTrue(Result.isFailure(trades({ limit: String(pageLimits.maxLimit + 1) })))
    assert.isTrue(Result.isSuccess(trending({ limit: String(trendingLimits.maxLimit) })))
    assert.isTrue(Result.isFailure(trending({ limit: String(trendingLimits.maxLimit + 1) })))
  })

  it("the largest amount and the fee rate", () => {
    assert.deepStrictEqual(parseAmount(MAX_AMOUNT.toString(), 0), Result.succeed(MAX_AMOUNT))
    assert.isTrue(Result.isFailure(parseAmount((MAX_AMOUNT + 1n).toString(), 0)))
    assert.strictEqual(platformFee(10_000n), PLATFORM_FEE_BPS)
  })
})
