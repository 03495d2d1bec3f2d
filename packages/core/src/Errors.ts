/**
 * The error catalogue: every stable public code with its HTTP status, and the domain errors that
 * carry them. A domain error is a fact a client can provoke; each names its code, and the code's
 * status lives here only, so the HTTP layer has one table to read. An invariant that only a bug
 * can break is a defect (a thrown assertion), never one of these.
 */
import { Data } from "effect"

export interface CatalogueEntry {
  readonly status: number
  /** What the code means, for the errors reference and for logs. */
  readonly meaning: string
  /** Retrying the same request later may succeed. */
  readonly transient: boolean
}

/** Every public error code, its HTTP status and meaning. Codes never change between API versions. */
export const errorCatalogue = {
  UNAUTHORIZED: { status: 401, meaning: "missing, malformed, unknown, revoked or expired API key", transient: false },
  INSUFFICIENT_SCOPE: { status: 403, meaning: "the API key lacks the scope the operation needs", transient: false },
  VALIDATION_ERROR: { status: 400, meaning: "a request field breaks a schema or rule; see details", transient: false },
  MALFORMED_JSON: { status: 400, meaning: "the request body is not valid JSON", transient: false },
  INVALID_TOKEN: {
    status: 400,
    meaning: "the token symbol or address is not supported (on that network, when one is given)",
    transient: false
  },
  RANGE_TOO_LARGE: { status: 400, meaning: "a chart request spans more than 1500 candles", transient: false },
  WALLET_NOT_CONNECTED: { status: 422, meaning: "no connected wallet on the trade's network", transient: false },
  INSUFFICIENT_BALANCE: {
    status: 422,
    meaning: "the wallet's free (unreserved) balance is below the amount",
    transient: false
  },
  CHANNEL_NOT_CONFIGURED: {
    status: 422,
    meaning: "the alert's channel is not set in the notification settings",
    transient: false
  },
  CHANNEL_IN_USE: { status: 409, meaning: "removing a channel that active or triggered alerts use", transient: false },
  ALERT_LIMIT_EXCEEDED: {
    status: 403,
    meaning: "the Free plan already has 5 alerts that are active or triggered",
    transient: false
  },
  API_KEY_LIMIT_EXCEEDED: {
    status: 403,
    meaning: "the account already has 20 unrevoked, unexpired API keys",
    transient: false
  },
  ALERT_NOT_FOUND: { status: 404, meaning: "no alert with that id in this account", transient: false },
  TRADE_NOT_FOUND: { status: 404, meaning: "no trade with that id in this account", transient: false },
  ORDER_NOT_FOUND: { status: 404, meaning: "no limit order with that id in this account", transient: false },
  API_KEY_NOT_FOUND: { status: 404, meaning: "no API key with that id in this account", transient: false },
  WEBHOOK_NOT_FOUND: { status: 404, meaning: "no webhook with that id in this account", transient: false },
  ORDER_NOT_CANCELLABLE: { status: 409, meaning: "the limit order is no longer open", transient: false },
  TRADE_NOT_AWAITING_APPROVAL: {
    status: 409,
    meaning: "simulator: the trade is not waiting for its wallet's approval",
    transient: false
  },
  CLOCK_NOT_MANUAL: {
    status: 409,
    meaning: "simulator: the market clock runs in realtime mode and cannot be advanced by hand",
    transient: false
  },
  PRICE_FROM_HISTORY: {
    status: 409,
    meaning: "simulator: the token's price is replayed from a file of real candles and cannot be set",
    transient: false
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    meaning: "the Idempotency-Key was used with another body, or its first request is still in flight",
    transient: true
  },
  RATE_LIMITED: { status: 429, meaning: "too many requests; wait for Retry-After seconds", transient: true },
  NOT_FOUND: { status: 404, meaning: "no such route", transient: false },
  METHOD_NOT_ALLOWED: { status: 405, meaning: "the route exists but not for this method", transient: false },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: "the request body is over 64 KiB", transient: false },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: "the request body is not application/json", transient: false },
  EXPECTATION_FAILED: {
    status: 417,
    meaning: "the request's Expect header asks for what the server does not do",
    transient: false
  },
  REQUEST_TIMEOUT: { status: 408, meaning: "the request did not arrive in full in time", transient: true },
  INTERNAL_ERROR: { status: 500, meaning: "an unexpected failure; nothing internal is disclosed", transient: true }
} as const satisfies Record<string, CatalogueEntry>

export type ErrorCode = keyof typeof errorCatalogue

export const errorCodes = Object.keys(errorCatalogue) as ReadonlyArray<ErrorCode>

/** One problem found while validating a request: where it is and what is wrong. */
export interface ValidationIssue {
  readonly path: string
  readonly message: string
}

export class Unauthorized extends Data.TaggedError("Unauthorized")<{ readonly reason: string }> {
  readonly code = "UNAUTHORIZED" as const
  override get message() {
    return this.reason
  }
}

export class InsufficientScope extends Data.TaggedError("InsufficientScope")<{ readonly scope: string }> {
  readonly code = "INSUFFICIENT_SCOPE" as const
  override get message() {
    return `this API key lacks the '${this.scope}' scope`
  }
}

/**
 * What a validation error's message adds after its first issue: how many more `details` lists,
 * counted as issues so that it never reads as one more allowed value of an enumeration.
 */
const moreIssues = (count: number): string =>
  count <= 0 ? "" : ` (and ${count} more issue${count === 1 ? "" : "s"}; see details)`

export class ValidationFailed extends Data.TaggedError("ValidationFailed")<{
  readonly details: ReadonlyArray<ValidationIssue>
}> {
  readonly code = "VALIDATION_ERROR" as const
  override get message() {
    const [first] = this.details
    if (first === undefined) return "the request is invalid"
    const where = first.path === "" ? "" : `${first.path}: `
    return `${where}${first.message}${moreIssues(this.details.length - 1)}`
  }
}

/** Builds a single-issue validation failure. */
export const invalid = (path: string, message: string) => new ValidationFailed({ details: [{ path, message }] })

export class InvalidToken extends Data.TaggedError("InvalidToken")<{
  readonly token: string
  readonly network?: string
}> {
  readonly code = "INVALID_TOKEN" as const
  override get message() {
    return this.network === undefined
      ? `token '${this.token}' is not supported`
      : `token '${this.token}' is not supported on ${this.network}`
  }
}

export class RangeTooLarge extends Data.TaggedError("RangeTooLarge")<{
  readonly candles: number
  readonly max: number
}> {
  readonly code = "RANGE_TOO_LARGE" as const
  override get message() {
    return `the range spans ${this.candles} candles; at most ${this.max} fit one request`
  }
}

export class WalletNotConnected extends Data.TaggedError("WalletNotConnected")<{ readonly network: string }> {
  readonly code = "WALLET_NOT_CONNECTED" as const
  override get message() {
    return `no wallet is connected on ${this.network}`
  }
}

export class InsufficientBalance extends Data.TaggedError("InsufficientBalance")<{
  readonly token: string
  readonly network: string
  /** Decimal strings: what was asked for and what is free. */
  readonly required: string
  readonly available: string
}> {
  readonly code = "INSUFFICIENT_BALANCE" as const
  override get message() {
    return `insufficient ${this.token} on ${this.network}: ${this.required} required, ${this.available} available`
  }
}

export class ChannelNotConfigured extends Data.TaggedError("ChannelNotConfigured")<{ readonly channel: string }> {
  readonly code = "CHANNEL_NOT_CONFIGURED" as const
  override get message() {
    return `the '${this.channel}' channel is not configured in the notification settings`
  }
}

export class ChannelInUse extends Data.TaggedError("ChannelInUse")<{ readonly channel: string }> {
  readonly code = "CHANNEL_IN_USE" as const
  override get message() {
    return `the '${this.channel}' channel is used by active or triggered alerts: disable or delete them first`
  }
}

export class AlertLimitExceeded extends Data.TaggedError("AlertLimitExceeded")<{ readonly limit: number }> {
  readonly code = "ALERT_LIMIT_EXCEEDED" as const
  override get message() {
    return `the Free plan allows ${this.limit} active or triggered alerts; delete or disable one first`
  }
}

export class ApiKeyLimitExceeded extends Data.TaggedError("ApiKeyLimitExceeded")<{ readonly limit: number }> {
  readonly code = "API_KEY_LIMIT_EXCEEDED" as const
  override get message() {
    return `an account may have ${this.limit} usable API keys; revoke one first`
  }
}

export class AlertNotFound extends Data.TaggedError("AlertNotFound")<{ readonly id: string }> {
  readonly code = "ALERT_NOT_FOUND" as const
  override get message() {
    return `no alert found for id '${this.id}'`
  }
}

export class TradeNotFound extends Data.TaggedError("TradeNotFound")<{ readonly id: string }> {
  readonly code = "TRADE_NOT_FOUND" as const
  override get message() {
    return `no trade found for id '${this.id}'`
  }
}

export class OrderNotFound extends Data.TaggedError("OrderNotFound")<{ readonly id: string }> {
  readonly code = "ORDER_NOT_FOUND" as const
  override get message() {
    return `no order found for id '${this.id}'`
  }
}

export class ApiKeyNotFound extends Data.TaggedError("ApiKeyNotFound")<{ readonly id: string }> {
  readonly code = "API_KEY_NOT_FOUND" as const
  override get message() {
    return `no API key found for id '${this.id}'`
  }
}

export class WebhookNotFound extends Data.TaggedError("WebhookNotFound")<{ readonly id: string }> {
  readonly code = "WEBHOOK_NOT_FOUND" as const
  override get message() {
    return `no webhook found for id '${this.id}'`
  }
}

export class OrderNotCancellable extends Data.TaggedError("OrderNotCancellable")<{
  readonly id: string
  readonly status: string
}> {
  readonly code = "ORDER_NOT_CANCELLABLE" as const
  override get message() {
    return `order '${this.id}' is ${this.status} and can no longer be cancelled`
  }
}

export class TradeNotAwaitingApproval extends Data.TaggedError("TradeNotAwaitingApproval")<{
  readonly id: string
}> {
  readonly code = "TRADE_NOT_AWAITING_APPROVAL" as const
  override get message() {
    return `trade '${this.id}' is not waiting for its wallet's approval`
  }
}

export class ClockNotManual extends Data.TaggedError("ClockNotManual")<{}> {
  readonly code = "CLOCK_NOT_MANUAL" as const
  override get message() {
    return "the market clock runs in realtime mode; only a manual clock can be advanced"
  }
}

export class PriceFromHistory extends Data.TaggedError("PriceFromHistory")<{ readonly token: string }> {
  readonly code = "PRICE_FROM_HISTORY" as const
  override get message() {
    return `${this.token}'s price is replayed from the scenario's history file and cannot be set`
  }
}

export class IdempotencyConflict extends Data.TaggedError("IdempotencyConflict")<{ readonly reason: string }> {
  readonly code = "IDEMPOTENCY_CONFLICT" as const
  override get message() {
    return this.reason
  }
}

export class RateLimited extends Data.TaggedError("RateLimited")<{ readonly retryAfterSeconds: number }> {
  readonly code = "RATE_LIMITED" as const
  override get message() {
    return `rate limit reached; retry after ${this.retryAfterSeconds} s`
  }
}

/** Every error a use case can fail with; each carries its public `code`. */
export type DomainError =
  | Unauthorized
  | InsufficientScope
  | ValidationFailed
  | InvalidToken
  | RangeTooLarge
  | WalletNotConnected
  | InsufficientBalance
  | ChannelNotConfigured
  | ChannelInUse
  | AlertLimitExceeded
  | ApiKeyLimitExceeded
  | AlertNotFound
  | TradeNotFound
  | OrderNotFound
  | ApiKeyNotFound
  | WebhookNotFound
  | OrderNotCancellable
  | TradeNotAwaitingApproval
  | ClockNotManual
  | PriceFromHistory
  | IdempotencyConflict
  | RateLimited
