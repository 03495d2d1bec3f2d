/**
 * The HttpApi's decoding failures in the contract's words (see `api/RequestValidation.ts`).
 */
import { MarketClock, validationIssuesOf } from "@swapdesk/core"
import { Effect, Layer, type SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "./api/ApiErrors.ts"
import { errorBody } from "./api/ApiErrors.ts"
import { RequestValidation } from "./api/RequestValidation.ts"
import { UNPARSEABLE_BODY } from "./ApiRoutes.ts"

/** A body that is not JSON is reported as this issue. */
const isUnparseableBody = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "InvalidValue" && issue.annotations?.message === UNPARSEABLE_BODY

export const RequestValidationLive = Layer.unwrap(
  Effect.map(MarketClock, (clock) =>
    HttpApiMiddleware.layerSchemaErrorTransform(
      RequestValidation,
      (error) =>
        Effect.flatMap(clock.now, (ms) => {
          const issue = error.cause.issue
          if (error.kind === "Payload" && isUnparseableBody(issue)) {
            return Effect.fail(new BadRequest(errorBody("MALFORMED_JSON", "the request body is not valid JSON", ms)))
          }
          const details = validationIssuesOf(issue)
          const first = details[0]
          const message = first === undefined
            ? "the request is invalid"
            : `${first.path === "" ? "" : `${first.path}: `}${first.message}${
              details.length > 1 ? ` (and ${details.length - 1} more)` : ""
            }`
          return Effect.fail(new BadRequest(errorBody("VALIDATION_ERROR", message, ms, details)))
        })
    ))
)
