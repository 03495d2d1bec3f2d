/**
 * The HttpApi's decoding failures in the contract's words (see `api/RequestValidation.ts`), the
 * same on either request path: an unparseable body is `MALFORMED_JSON`, an empty one where a body
 * is needed a `VALIDATION_ERROR` saying so, anything else a `VALIDATION_ERROR` with one detail per
 * problem (docs/reference/errors.md).
 */
import { MarketClock, validationIssuesOf } from "@swapdesk/core"
import { Effect, Layer, type SchemaIssue } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest, errorBody } from "./api/ApiErrors.ts"
import { RequestValidation } from "./api/RequestValidation.ts"
import { UNPARSEABLE_BODY } from "./requestPath/ApiRoutes.ts"

/** A body that is not JSON is reported as this issue. */
const isUnparseableBody = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "InvalidValue" && issue.annotations?.message === UNPARSEABLE_BODY

/** What an endpoint that needs a body and got none answers, rather than its schema's "Expected object". */
export const EMPTY_BODY_MESSAGE = "the request body is empty; send a JSON object"

/**
 * Whether the request's body was empty. The body has been read by then (its failure is why we are
 * here), and a request keeps what it read, so this reads nothing from the connection.
 */
const bodyWasEmpty = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) => Effect.match(request.text, { onFailure: () => false, onSuccess: (text) => text === "" })
)

const validationError = (ms: number, details: ReturnType<typeof validationIssuesOf>) => {
  const first = details[0]
  const message = first === undefined
    ? "the request is invalid"
    : `${first.path === "" ? "" : `${first.path}: `}${first.message}${
      details.length > 1
        ? ` (and ${details.length - 1} more issue${details.length === 2 ? "" : "s"}; see details)`
        : ""
    }`
  return Effect.fail(new BadRequest(errorBody("VALIDATION_ERROR", message, ms, details)))
}

/** `RequestValidation`: a schema's refusal of a query, path or body as `400 VALIDATION_ERROR` with its details. */
export const layerRequestValidation = Layer.unwrap(
  Effect.map(MarketClock, (clock) =>
    HttpApiMiddleware.layerSchemaErrorTransform(
      RequestValidation,
      (error) =>
        Effect.flatMap(clock.now, (ms) => {
          const issue = error.cause.issue
          if (error.kind !== "Payload") return validationError(ms, validationIssuesOf(issue))
          if (isUnparseableBody(issue)) {
            return Effect.fail(new BadRequest(errorBody("MALFORMED_JSON", "the request body is not valid JSON", ms)))
          }
          return Effect.flatMap(bodyWasEmpty, (empty) =>
            validationError(
              ms,
              empty ? [{ path: "", message: EMPTY_BODY_MESSAGE }] : validationIssuesOf(issue)
            ))
        })
    ))
)
