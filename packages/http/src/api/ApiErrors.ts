/**
 * The error envelope on the wire, one schema per HTTP status, and the single mapping from a domain
 * error (which knows its code) to its response (the status comes from the core's catalogue).
 *
 * Each class names itself in a `_tag` instance field rather than a schema field: a typed client's
 * failure can be matched with `Effect.catchTag("NotFound", …)`, while the body on the wire stays
 * the envelope alone (`success`, `error`, `timestamp`), as docs/reference/errors.md shows it.
 */
import { type DomainError, errorCatalogue, type ErrorCode, toIso, type ValidationIssue } from "@swapdesk/core"
import { type Cause, Schema } from "effect"

const codesWithStatus = (status: number) =>
  (Object.keys(errorCatalogue) as Array<ErrorCode>).filter((code) => errorCatalogue[code].status === status)

/** One literal, or a choice of several: a one-member union would be an empty `anyOf` wrapper in OpenAPI. */
const codeSchema = (codes: ReadonlyArray<ErrorCode>) =>
  codes.length === 1 ? Schema.Literal(codes[0]!) : Schema.Literals(codes)

const ValidationIssueSchema = Schema.Struct({ path: Schema.String, message: Schema.String })

const errorFields = (status: number) => ({
  success: Schema.Literal(false),
  error: Schema.Struct({
    code: codeSchema(codesWithStatus(status)),
    message: Schema.String,
    details: Schema.optionalKey(Schema.Array(ValidationIssueSchema))
  }),
  timestamp: Schema.String
})

/** What each status means, as the OpenAPI document describes its response. */
const descriptionByStatus = {
  400: "The request breaks a schema or rule (VALIDATION_ERROR with details), is not JSON, " +
    "or names an unsupported token or too long a range",
  401: "Missing, malformed, unknown, revoked or expired API key",
  403: "The key lacks the scope, or the plan's limit is reached",
  404: "No such resource in this account",
  409: "The request conflicts with the resource's current state",
  413: "The body is over 64 KiB",
  415: "The body is not JSON by its Content-Type",
  422: "The request is well-formed but the account cannot do it now",
  429: "Over the rate limit; retry after the seconds in Retry-After",
  503: "Live mode: the network's RPC does not answer (NETWORK_UNAVAILABLE); retry after the seconds in Retry-After"
} as const

/** An API error class: the envelope's fields, and the `_tag` a typed client's failure is matched by. */
type ApiErrorClass<Self, Tag extends string> = Schema.Class<
  Self,
  Schema.Struct<ReturnType<typeof errorFields>>,
  Cause.YieldableError & { readonly _tag: Tag }
>

/**
 * The class of the API error answered with `status`: the envelope, with the codes the catalogue
 * gives that status, described as `descriptionByStatus` says. `Self` is the class extending it.
 */
const apiError =
  <Self>() =>
  <const Tag extends string>(tag: Tag, status: keyof typeof descriptionByStatus): ApiErrorClass<Self, Tag> => {
    // `Schema.Error` decides its class type on `Self`, which is only known where a class extends this one.
    const Base = Schema.Error<Self, { readonly _tag: Tag }>(tag)(errorFields(status), {
      httpApiStatus: status,
      description: descriptionByStatus[status]
    }) as ApiErrorClass<Self, Tag>
    return class extends Base {
      override readonly _tag = tag
    }
  }

/** 400: a schema or rule refused the request. */
export class BadRequest extends apiError<BadRequest>()("BadRequest", 400) {}
/** 401: no usable API key. */
export class Unauthorized extends apiError<Unauthorized>()("Unauthorized", 401) {}
/** 403: the key lacks the scope, or the plan's limit is reached. */
export class Forbidden extends apiError<Forbidden>()("Forbidden", 403) {}
/** 404: no such resource in this account (or no such route). */
export class NotFound extends apiError<NotFound>()("NotFound", 404) {}
/** 409: the request conflicts with the resource's current state (or an `Idempotency-Key`'s first use). */
export class Conflict extends apiError<Conflict>()("Conflict", 409) {}
/** 422: well-formed, but the account cannot do it now (no wallet, funds short). */
export class Unprocessable extends apiError<Unprocessable>()("Unprocessable", 422) {}
/** 429: over the rate limit; `Retry-After` says when to try again. */
export class TooManyRequests extends apiError<TooManyRequests>()("TooManyRequests", 429) {}

/** Answered by the failure answer when a live network's RPC is down; declared where a network is asked. */
export class ServiceUnavailable extends apiError<ServiceUnavailable>()("ServiceUnavailable", 503) {}

/** Answered before an endpoint sees the request; declared on every endpoint that takes a body. */
export class PayloadTooLarge extends apiError<PayloadTooLarge>()("PayloadTooLarge", 413) {}
/** 415: the body is not `application/json`. */
export class UnsupportedMediaType extends apiError<UnsupportedMediaType>()("UnsupportedMediaType", 415) {}

/** What any endpoint with a body can also answer. */
export const bodyErrors = [PayloadTooLarge, UnsupportedMediaType] as const

const classByStatus = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  422: Unprocessable,
  429: TooManyRequests
} as const
type ClassByStatus = typeof classByStatus
type ApiErrorStatus = keyof ClassByStatus

const apiErrorClasses = [...Object.values(classByStatus), ...bodyErrors]

/** Whether `u` is one of the API's errors, whose fields are the error envelope. */
export const isApiError = (u: unknown): u is InstanceType<(typeof apiErrorClasses)[number]> =>
  apiErrorClasses.some((ErrorClass) => u instanceof ErrorClass)

/** The response class a domain error becomes, decided by its code's status in the catalogue. */
export type ApiErrorOf<E extends { readonly code: ErrorCode }> = (typeof errorCatalogue)[E["code"]]["status"] extends
  infer S extends ApiErrorStatus ? InstanceType<ClassByStatus[S]> : never

/** An error envelope, as `errorEnvelope` writes it and every API error's fields hold it. */
export interface ErrorEnvelope {
  readonly success: false
  readonly error: {
    readonly code: ErrorCode
    readonly message: string
    readonly details?: ReadonlyArray<ValidationIssue>
  }
  readonly timestamp: string
}

/**
 * The error envelope, its one definition: the fields of every API error class (their schemas
 * declare the same keys in the same order), the body `ApiRoutes` answers an API error with, and
 * the body of every transport error outside the HttpApi (global middleware, `ClientErrors`).
 */
export const errorEnvelope = (
  code: ErrorCode,
  message: string,
  timestamp: string,
  details?: ReadonlyArray<ValidationIssue>
): ErrorEnvelope => ({
  success: false,
  error: { code, message, ...(details === undefined ? {} : { details }) },
  timestamp
})

/** The error envelope of a code, stamped at `atMs`. */
export const errorBody = (
  code: ErrorCode,
  message: string,
  atMs: number,
  details?: ReadonlyArray<ValidationIssue>
) => errorEnvelope(code, message, toIso(atMs), details)

/** The envelope an API error carries, as `errorEnvelope` writes it. */
export const envelopeOf = (error: InstanceType<(typeof apiErrorClasses)[number]>) =>
  errorEnvelope(error.error.code, error.error.message, error.timestamp, error.error.details)

/** Turns a domain error into its HTTP error response. */
export const toApiError = <E extends DomainError>(error: E, atMs: number): ApiErrorOf<E> => {
  const status = errorCatalogue[error.code].status as ApiErrorStatus
  const details = error._tag === "ValidationFailed" ? error.details : undefined
  const ErrorClass = classByStatus[status] as new(fields: ReturnType<typeof errorBody>) => unknown
  return new ErrorClass(errorBody(error.code, error.message, atMs, details)) as ApiErrorOf<E>
}
