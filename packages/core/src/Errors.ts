/**
 * The error catalogue: every stable public code with its HTTP status, and the domain errors that
 * carry them. A domain error is a fact a client can provoke; each names its code, and the code's
 * status lives here only, so the HTTP layer has one table to read. An invariant that only a bug
 * can break is a defect (a thrown assertion), never one of these.
 */
import { type Cause, Data } from "effect"

export interface CatalogueEntry {
  readonly status: number
  /** What the code means, for the errors reference and for logs. */
  readonly meaning: string
  /** Retrying the same request later may succeed. */
  readonly transient: boolean
}

/** A code whose request fails the same way however often it is retried. */
const permanent = <const Status extends number>(status: Status, meaning: string) =>
  ({ status, meaning, transient: false }) as const

/** A code whose request may succeed if it is retried later. */
const transient = <const Status extends number>(status: Status, meaning: string) =>
  ({ status, meaning, transient: true }) as const

/** Every public error code, its HTTP status and meaning. Codes never change between API versions. */
export const errorCatalogue = {
  UNAUTHORIZED: permanent(401, "missing, malformed, unknown, revoked or expired API key"),
  INSUFFICIENT_SCOPE: permanent(403, "the API key lacks the scope the operation needs"),
  VALIDATION_ERROR: permanent(400, "a request field breaks a schema or rule; see details"),
  MALFORMED_JSON: permanent(400, "the request body is not valid JSON"),
  INVALID_TOKEN: permanent(400, "the token symbol or address is not supported (on that network, when one is given)"),
  RANGE_TOO_LARGE: permanent(400, "a chart request spans more than 1500 candles"),
  WALLET_NOT_CONNECTED: permanent(422, "no connected wallet on the trade's network"),
  INSUFFICIENT_BALANCE: permanent(422, "the wallet's free (unreserved) balance is below the amount"),
  CHANNEL_NOT_CONFIGURED: permanent(422, "the alert's channel is not set in the notification settings"),
  CHANNEL_IN_USE: permanent(409, "removing a channel that active or triggered alerts use"),
  ALERT_LIMIT_EXCEEDED: permanent(403, "the Free plan already has 5 alerts that are active or triggered"),
  API_KEY_LIMIT_EXCEEDED: permanent(403, "the account already has 20 unrevoked, unexpired API keys"),
  ALERT_NOT_FOUND: permanent(404, "no alert with that id in this account"),
  TRADE_NOT_FOUND: permanent(404, "no trade with that id in this account"),
  ORDER_NOT_FOUND: permanent(404, "no limit order with that id in this account"),
  API_KEY_NOT_FOUND: permanent(404, "no API key with that id in this account"),
  WEBHOOK_NOT_FOUND: permanent(404, "no webhook with that id in this account"),
  ORDER_NOT_CANCELLABLE: permanent(409, "the limit order is no longer open"),
  TRADE_NOT_AWAITING_APPROVAL: permanent(409, "the trade is not waiting for its wallet's approval"),
  ORDER_NOT_AWAITING_SIGNATURE: permanent(409, "the limit order is not waiting for its wallet's signature"),
  CLOCK_NOT_MANUAL: permanent(409, "simulator: the market clock runs in realtime mode and cannot be advanced by hand"),
  PRICE_FROM_HISTORY: permanent(
    409,
    "simulator: the token's price is replayed from a file of real candles and cannot be set"
  ),
  IDEMPOTENCY_CONFLICT: transient(
    409,
    "the Idempotency-Key was used with another body, or its first request is still in flight"
  ),
  RATE_LIMITED: transient(429, "too many requests; wait for Retry-After seconds"),
  NETWORK_UNAVAILABLE: transient(
    503,
    "live mode: the network's RPC does not answer (or answers another chain id); retry after Retry-After seconds"
  ),
  NOT_FOUND: permanent(404, "no such route"),
  METHOD_NOT_ALLOWED: permanent(405, "the route exists but not for this method"),
  PAYLOAD_TOO_LARGE: permanent(413, "the request body is over 64 KiB"),
  UNSUPPORTED_MEDIA_TYPE: permanent(415, "the request body is not application/json"),
  EXPECTATION_FAILED: permanent(417, "the request's Expect header asks for what the server does not do"),
  REQUEST_TIMEOUT: transient(408, "the request did not arrive in full in time"),
  INTERNAL_ERROR: transient(500, "an unexpected failure; nothing internal is disclosed")
} as const satisfies Record<string, CatalogueEntry>

export type ErrorCode = keyof typeof errorCatalogue

export const errorCodes = Object.keys(errorCatalogue) as ReadonlyArray<ErrorCode>

/** One problem found while validating a request: where it is and what is wrong. */
export interface ValidationIssue {
  readonly path: string
  readonly message: string
}

/** An error whose message is the reason it was raised with, word for word. */
const ReasonError = <const Tag extends string, const Code extends ErrorCode>(
  tag: Tag,
  code: Code
): new(args: { readonly reason: string }) => Cause.YieldableError & {
  readonly _tag: Tag
  readonly reason: string
  readonly code: Code
} =>
  class extends Data.TaggedError(tag)<{ readonly reason: string }> {
    readonly code = code
    override get message() {
      return this.reason
    }
  }

export class Unauthorized extends ReasonError("Unauthorized", "UNAUTHORIZED") {}

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

/** An error about one resource, known by its id: its tag, its code, and its message made from the id. */
const ResourceError = <const Tag extends string, const Code extends ErrorCode>(
  tag: Tag,
  code: Code,
  message: (id: string) => string
): new(args: { readonly id: string }) => Cause.YieldableError & {
  readonly _tag: Tag
  readonly id: string
  readonly code: Code
} =>
  class extends Data.TaggedError(tag)<{ readonly id: string }> {
    readonly code = code
    override get message() {
      return message(this.id)
    }
  }

/** A resource the account has no such id of: the message names what was looked for, and the id. */
const NotFoundError = <const Tag extends string, const Code extends ErrorCode>(
  tag: Tag,
  code: Code,
  resource: string
) => ResourceError(tag, code, (id) => `no ${resource} found for id '${id}'`)

export class AlertNotFound extends NotFoundError("AlertNotFound", "ALERT_NOT_FOUND", "alert") {}

export class TradeNotFound extends NotFoundError("TradeNotFound", "TRADE_NOT_FOUND", "trade") {}

export class OrderNotFound extends NotFoundError("OrderNotFound", "ORDER_NOT_FOUND", "order") {}

export class ApiKeyNotFound extends NotFoundError("ApiKeyNotFound", "API_KEY_NOT_FOUND", "API key") {}

export class WebhookNotFound extends NotFoundError("WebhookNotFound", "WEBHOOK_NOT_FOUND", "webhook") {}

export class OrderNotCancellable extends Data.TaggedError("OrderNotCancellable")<{
  readonly id: string
  readonly status: string
}> {
  readonly code = "ORDER_NOT_CANCELLABLE" as const
  override get message() {
    return `order '${this.id}' is ${this.status} and can no longer be cancelled`
  }
}

/**
 * An error for a wallet's answer (an approval, a signature) to a resource that is not waiting for it:
 * every such error holds the resource's id and says what it was not waiting for.
 */
const NotAwaitingError = <const Tag extends string, const Code extends ErrorCode>(
  tag: Tag,
  code: Code,
  resource: string,
  answer: string
) => ResourceError(tag, code, (id) => `${resource} '${id}' is not waiting for its wallet's ${answer}`)

/** An approval for a trade that is not waiting for one (answered already, or closed). */
export class TradeNotAwaitingApproval
  extends NotAwaitingError("TradeNotAwaitingApproval", "TRADE_NOT_AWAITING_APPROVAL", "trade", "approval")
{}

/** A signature for an order that is not waiting for one (signed already, or closed). */
export class OrderNotAwaitingSignature
  extends NotAwaitingError("OrderNotAwaitingSignature", "ORDER_NOT_AWAITING_SIGNATURE", "order", "signature")
{}

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

export class IdempotencyConflict extends ReasonError("IdempotencyConflict", "IDEMPOTENCY_CONFLICT") {}

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
  | OrderNotAwaitingSignature
  | ClockNotManual
  | PriceFromHistory
  | IdempotencyConflict
  | RateLimited
