/**
 * Request validation in the one shape every client sees: a `ValidationFailed` whose `details` list
 * every problem as `{ path, message }`, all at once, so that a client fixes a request in one round
 * trip instead of one field per attempt. Schemas decode strictly (unknown fields are an issue that
 * names the field); the rules a schema cannot state alone (an alert's type-dependent fields, an
 * amount's decimal places once its token is known) are here too, in the same shape.
 */
import { Effect, Result, Schema, SchemaIssue } from "effect"
import type { AlertRule } from "./Alert.ts"
import { alertDefaults } from "./Alert.ts"
import { ValidationFailed, type ValidationIssue } from "./Errors.ts"
import { parseAmount } from "./Money.ts"
import type { CreateAlertBody } from "./Requests.ts"

/**
 * How every request is decoded: collect every issue rather than stop at the first, and reject
 * unknown keys rather than strip them silently (docs/reference/http-api.md#conventions).
 */
export const strictParseOptions = { errors: "all", onExcessProperty: "error" } as const

/** A schema that decodes without services: every request schema in `Requests.ts`. */
export type RequestSchema = Schema.Top & { readonly DecodingServices: never }

// A pure function built once: the formatter keeps no state between calls.
const standardFormatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** Flattens a schema issue tree into `{ path, message }` items, path segments joined with ".". */
export const validationIssuesOf = (issue: SchemaIssue.Issue): ReadonlyArray<ValidationIssue> =>
  standardFormatter(issue).issues.map((item) => ({
    path: (item.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join("."),
    message: item.message
  }))

/** How a request's parts are decoded: strictly, or as query strings are. */
type DecodeOptions = typeof strictParseOptions | typeof queryParseOptions

/** A decoder with `options` that fails with `ValidationFailed`, every problem one of its details. */
const effectDecoder = (options: DecodeOptions) => <S extends RequestSchema>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(schema)
  return (input: unknown): Effect.Effect<S["Type"], ValidationFailed> =>
    decode(input, options).pipe(
      Effect.mapError((error) => new ValidationFailed({ details: validationIssuesOf(error.issue) }))
    )
}

/** A decoder with `options` without an Effect: the decoded value, or every issue found. */
const resultDecoder = (options: DecodeOptions) => <S extends RequestSchema>(schema: S) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<S["Type"], ReadonlyArray<ValidationIssue>> =>
    Result.mapError(decode(input, options), (error) => validationIssuesOf(error.issue))
}

/**
 * How query strings are decoded: every issue collected, but unknown parameters ignored
 * (docs/reference/http-api.md#conventions), since proxies, caches and analytics tags add parameters
 * the client never chose.
 */
export const queryParseOptions = { errors: "all", onExcessProperty: "ignore" } as const

/**
 * Decodes a request body with `schema`, strictly: every problem, an unknown field included, becomes
 * one detail of `ValidationFailed`.
 */
export const decodeRequest = effectDecoder(strictParseOptions)

/** `decodeRequest` without an Effect: the decoded value, or every issue found. */
export const decodeRequestResult = resultDecoder(strictParseOptions)

/** Decodes a query-parameter record: every problem becomes one detail; unknown parameters are dropped. */
export const decodeQuery = effectDecoder(queryParseOptions)

/** `decodeQuery` without an Effect. */
export const decodeQueryResult = resultDecoder(queryParseOptions)

/**
 * A decimal string parsed into base units of a token with `decimals`, or the validation issue at
 * `path` that says why it is not an amount (the amount rules of
 * docs/reference/http-api.md#conventions, via `parseAmount`).
 */
export const amountIssue = (path: string, text: string, decimals: number): Result.Result<bigint, ValidationIssue> =>
  Result.mapError(parseAmount(text, decimals), (message) => ({ path, message }))

type AlertField = Exclude<keyof CreateAlertBody, "type" | "channel">

/** The fields each alert type may carry, beyond `type` and `channel` (docs/reference/http-api.md#alerts). */
export const alertFieldsByType: Readonly<Record<AlertRule["type"], ReadonlyArray<AlertField>>> = {
  price: ["token", "condition", "targetPrice"],
  volume: ["token", "multiplier"],
  whale: ["token", "minValueUsd"],
  portfolio: ["changePercent"]
}

const alertFields: ReadonlyArray<AlertField> = [
  "token",
  "condition",
  "targetPrice",
  "multiplier",
  "minValueUsd",
  "changePercent"
]

/**
 * Checks an alert body's type rules and builds its rule: `price` needs `token`, `condition` and
 * `targetPrice`; `volume` and `whale` need `token`; `portfolio` must not have one. Every field that
 * does not belong to the type is its own issue, named by its path, so a client sees all of them at
 * once. Optional fields take `alertDefaults`. The token stays the raw string the client sent: its
 * existence is the registry's question, asked by the use case.
 */
export const validateAlertRule = (body: CreateAlertBody): Result.Result<AlertRule, ReadonlyArray<ValidationIssue>> => {
  const issues: Array<ValidationIssue> = []
  const allowed = alertFieldsByType[body.type]
  for (const field of alertFields) {
    if (body[field] !== undefined && !allowed.includes(field)) {
      issues.push({ path: field, message: `is not allowed on a ${body.type} alert` })
    }
  }
  const required = (field: AlertField) => {
    if (body[field] === undefined) issues.push({ path: field, message: `is required for a ${body.type} alert` })
  }
  switch (body.type) {
    case "price":
      required("token")
      required("condition")
      required("targetPrice")
      break
    case "volume":
    case "whale":
      required("token")
      break
    case "portfolio":
      break
  }
  if (issues.length > 0) return Result.fail(issues)
  switch (body.type) {
    case "price":
      return Result.succeed({
        type: "price",
        token: body.token!,
        condition: body.condition!,
        targetPrice: body.targetPrice!
      })
    case "volume":
      return Result.succeed({
        type: "volume",
        token: body.token!,
        multiplier: body.multiplier ?? alertDefaults.multiplier
      })
    case "whale":
      return Result.succeed({
        type: "whale",
        token: body.token!,
        minValueUsd: body.minValueUsd ?? alertDefaults.minValueUsd
      })
    case "portfolio":
      return Result.succeed({ type: "portfolio", changePercent: body.changePercent ?? alertDefaults.changePercent })
  }
}

/**
 * A problem in a file being loaded (a scenario, a live configuration): where, what is wrong, and
 * the value found there. Text that is not JSON has no value to show, and its issue has no `value`
 * key; a missing field has one, `undefined`.
 */
export interface FileIssue extends ValidationIssue {
  readonly value?: unknown
}

/** One line of a file's report: `  path: message (found value)`, the path `(root)` for the whole file. */
export const describeFileIssue = (issue: FileIssue): string =>
  `  ${issue.path === "" ? "(root)" : issue.path}: ${issue.message}` +
  ("value" in issue ? ` (found ${JSON.stringify(issue.value) ?? "nothing"})` : "")

/** A file that cannot be used: `invalid <what>:`, then every problem, one per line. */
export class InvalidFile extends Error {
  readonly issues: ReadonlyArray<FileIssue>
  constructor(what: string, issues: ReadonlyArray<FileIssue>) {
    super(`invalid ${what}:\n` + issues.map(describeFileIssue).join("\n"))
    this.name = "InvalidFile"
    this.issues = issues
  }
}

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = input
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

/** Every problem a schema found in a file's `input`, each with the value found at its path. */
export const fileIssuesOf = (issue: SchemaIssue.Issue, input: unknown): Array<FileIssue> =>
  standardFormatter(issue).issues.map((item) => {
    const path = (item.path ?? []) as ReadonlyArray<PropertyKey>
    return { path: path.map(String).join("."), message: item.message, value: valueAt(input, path) }
  })
