// Proves the error catalogue matches the error reference (docs/reference/errors.md) code for code
// and status for status (the expected table below is copied from docs/reference/errors.md, not from
// the code), that every tagged error class carries a catalogued code, and that
// docs/reference/errors.md documents every catalogued code with the same status.
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Errors from "../src/Errors.ts"
import {
  AlertLimitExceeded,
  AlertNotFound,
  ApiKeyLimitExceeded,
  ApiKeyNotFound,
  ChannelInUse,
  ChannelNotConfigured,
  ClockNotManual,
  type DomainError,
  errorCatalogue,
  errorCodes,
  IdempotencyConflict,
  InsufficientBalance,
  InsufficientScope,
  invalid,
  InvalidToken,
  OrderNotAwaitingSignature,
  OrderNotCancellable,
  OrderNotFound,
  PriceFromHistory,
  RangeTooLarge,
  RateLimited,
  TradeNotAwaitingApproval,
  TradeNotFound,
  Unauthorized,
  ValidationFailed,
  WalletNotConnected,
  WebhookNotFound
} from "../src/Errors.ts"
import { failureReasons } from "../src/Trade.ts"

/** The error reference's summary (docs/reference/errors.md), row by row. */
const contractTable: Record<string, number> = {
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  VALIDATION_ERROR: 400,
  MALFORMED_JSON: 400,
  INVALID_TOKEN: 400,
  RANGE_TOO_LARGE: 400,
  WALLET_NOT_CONNECTED: 422,
  INSUFFICIENT_BALANCE: 422,
  CHANNEL_NOT_CONFIGURED: 422,
  CHANNEL_IN_USE: 409,
  ALERT_LIMIT_EXCEEDED: 403,
  ALERT_NOT_FOUND: 404,
  TRADE_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  ORDER_NOT_CANCELLABLE: 409,
  IDEMPOTENCY_CONFLICT: 409,
  RATE_LIMITED: 429,
  NETWORK_UNAVAILABLE: 503,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL_ERROR: 500
}

/** Codes only the simulator's control routes answer with (docs/reference/errors.md#simulator-only-codes). */
const simulatorOnly: Record<string, number> = {
  TRADE_NOT_AWAITING_APPROVAL: 409,
  CLOCK_NOT_MANUAL: 409,
  PRICE_FROM_HISTORY: 409
}

/** Codes the contract leaves open (docs/decisions.md): the per-account API key limit, a signature for an order not awaiting one. */
const decidedHere: Record<string, number> = { API_KEY_LIMIT_EXCEEDED: 403, ORDER_NOT_AWAITING_SIGNATURE: 409 }

/**
 * Codes for HTTP-level refusals the contract names only by status (docs/reference/errors.md#http-level-codes):
 * no domain error carries them.
 */
const httpLevel: Record<string, number> = { REQUEST_TIMEOUT: 408, EXPECTATION_FAILED: 417 }

/** One instance of every tagged error class the core exports. */
const instances: ReadonlyArray<DomainError> = [
  new Unauthorized({ reason: "unknown API key" }),
  new InsufficientScope({ scope: "trade" }),
  new ValidationFailed({ details: [{ path: "amountIn", message: "must be greater than zero" }] }),
  new InvalidToken({ token: "DOGE2" }),
  new RangeTooLarge({ candles: 2000, max: 1500 }),
  new WalletNotConnected({ network: "base" }),
  new InsufficientBalance({ token: "SOL", network: "solana", required: "2", available: "1.5" }),
  new ChannelNotConfigured({ channel: "telegram" }),
  new ChannelInUse({ channel: "email" }),
  new AlertLimitExceeded({ limit: 5 }),
  new ApiKeyLimitExceeded({ limit: 20 }),
  new AlertNotFound({ id: "alrt_x" }),
  new TradeNotFound({ id: "trd_x" }),
  new OrderNotFound({ id: "ord_x" }),
  new ApiKeyNotFound({ id: "key_x" }),
  new WebhookNotFound({ id: "whk_x" }),
  new OrderNotCancellable({ id: "ord_x", status: "confirmed" }),
  new TradeNotAwaitingApproval({ id: "trd_x" }),
  new OrderNotAwaitingSignature({ id: "ord_x" }),
  new ClockNotManual(),
  new PriceFromHistory({ token: "SOL" }),
  new IdempotencyConflict({ reason: "the first request with this Idempotency-Key is still in flight" }),
  new RateLimited({ retryAfterSeconds: 12 })
]

describe("the error catalogue", () => {
  for (const [code, status] of Object.entries(contractTable)) {
    it(`${code} is catalogued with HTTP ${status}`, () => {
      assert.property(errorCatalogue, code)
      assert.strictEqual(errorCatalogue[code as Errors.ErrorCode].status, status)
    })
  }

  it("adds only the simulator-only codes (all 409), the API key limit (403) and the two HTTP-level ones", () => {
    const extra = errorCodes.filter((code) => !(code in contractTable))
    assert.sameMembers([...extra], [
      ...Object.keys(simulatorOnly),
      ...Object.keys(decidedHere),
      ...Object.keys(httpLevel)
    ])
    for (const [code, status] of Object.entries({ ...simulatorOnly, ...decidedHere, ...httpLevel })) {
      assert.strictEqual(errorCatalogue[code as Errors.ErrorCode].status, status)
    }
  })

  it("gives every code a meaning and says whether retrying may help", () => {
    for (const code of errorCodes) {
      const entry = errorCatalogue[code]
      assert.isAbove(entry.meaning.length, 10, code)
      assert.isBoolean(entry.transient)
    }
    assert.isTrue(errorCatalogue.RATE_LIMITED.transient)
    assert.isTrue(errorCatalogue.INTERNAL_ERROR.transient)
    assert.isFalse(errorCatalogue.VALIDATION_ERROR.transient)
    assert.isFalse(errorCatalogue.ALERT_NOT_FOUND.transient)
  })

  it("codes are stable SCREAMING_SNAKE_CASE identifiers", () => {
    for (const code of errorCodes) assert.match(code, /^[A-Z]+(_[A-Z]+)*$/)
  })
})

describe("the tagged error classes", () => {
  it("cover every error class Errors.ts exports", () => {
    const exported = Object.entries(Errors)
      .filter(([, value]) => typeof value === "function" && value.prototype instanceof Error)
      .map(([name]) => name)
    assert.sameMembers(exported, instances.map((error) => error.constructor.name))
  })

  for (const error of instances) {
    it(`${error.constructor.name} carries the catalogued code ${error.code}`, () => {
      assert.property(errorCatalogue, error.code)
      assert.instanceOf(error, Error)
      assert.isAbove(error.message.length, 0)
    })
  }

  it("each class has its own tag", () => {
    const tags = instances.map((error) => error.constructor.name)
    assert.strictEqual(new Set(tags).size, tags.length)
  })

  it("every code a client can be given by the core has a class; the rest belong to the HTTP layer", () => {
    const fromClasses = new Set<string>(instances.map((error) => error.code))
    const httpOnly = errorCodes.filter((code) => !fromClasses.has(code))
    assert.sameMembers(httpOnly, [
      "MALFORMED_JSON",
      "NOT_FOUND",
      "METHOD_NOT_ALLOWED",
      "PAYLOAD_TOO_LARGE",
      "UNSUPPORTED_MEDIA_TYPE",
      "REQUEST_TIMEOUT",
      "EXPECTATION_FAILED",
      "INTERNAL_ERROR",
      // A live adapter's failure, answered by the HTTP layer's failure answer.
      "NETWORK_UNAVAILABLE"
    ])
  })

  it("messages name what went wrong", () => {
    assert.strictEqual(new AlertNotFound({ id: "alrt_9" }).message, "no alert found for id 'alrt_9'")
    assert.strictEqual(new InsufficientScope({ scope: "trade" }).message, "this API key lacks the 'trade' scope")
    assert.strictEqual(
      new InvalidToken({ token: "SOL", network: "base" }).message,
      "token 'SOL' is not supported on base"
    )
  })

  it("a validation failure summarises its first detail and counts the rest", () => {
    assert.strictEqual(invalid("from", "must not be after to").message, "from: must not be after to")
    const many = new ValidationFailed({
      details: [{ path: "a", message: "x" }, { path: "b", message: "y" }, { path: "c", message: "z" }]
    })
    assert.strictEqual(many.message, "a: x (and 2 more issues; see details)")
    assert.strictEqual(
      new ValidationFailed({ details: [{ path: "", message: "Expected object" }] }).message,
      "Expected object"
    )
  })
})

describe("docs/reference/errors.md", () => {
  const doc = readFileSync(new URL("../../../docs/reference/errors.md", import.meta.url), "utf8")

  for (const code of errorCodes) {
    it(`documents ${code} with HTTP ${errorCatalogue[code].status}`, () => {
      assert.include(doc, `| \`${code}\` | ${errorCatalogue[code].status} |`, "a row in the summary table")
      assert.match(doc, new RegExp(`^### \`${code}\``, "m"), "a section of its own")
    })
  }

  it("documents every trade failure reason in a section of its own (errors.md)", () => {
    const contractReasons = [
      "SLIPPAGE_EXCEEDED",
      "INSUFFICIENT_GAS",
      "NETWORK_ERROR",
      "WALLET_REJECTED",
      "APPROVAL_TIMEOUT"
    ]
    assert.sameMembers([...failureReasons], contractReasons)
    for (const reason of contractReasons) assert.match(doc, new RegExp(`^### \`${reason}\``, "m"), reason)
  })
})
