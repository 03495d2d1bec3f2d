/**
 * The shapes the contract's routes share, named once: what an operation's documentation holds
 * (`documented`), and the conventions of a resource's routes (`readRoute`, `queryRoute`,
 * `itemRoute`, `deleteRoute`, `idempotentCreationRoute`): a `GET` answering data for a query
 * string refuses a bad query with 400, a route on one resource takes its `:id` and answers 404
 * when the account has no such resource, a delete answers 204. A route outside these conventions
 * is written with `HttpApiEndpoint` itself and documented with `documented`; one taking a body
 * declares it with `jsonBody`, a creation with `creation`.
 */
import { type ApiScope, IDEMPOTENCY_KEY_MAX_LENGTH } from "@swapdesk/core"
import { Context, Schema, SchemaAST } from "effect"
import type { HttpRouter } from "effect/http"
import { HttpApiEndpoint, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Conflict, NotFound, ServiceUnavailable, Unprocessable } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { RequiredScope } from "./Security.ts"

/** What the OpenAPI document says of an operation beyond its schemas, and the scope it needs. */
export interface Documentation {
  readonly summary: string
  readonly description?: string
  /** The scope the route needs, where its group does not name one for all its routes. */
  readonly scope?: ApiScope
  /** The operation's own examples. */
  readonly examples?: Examples
}

/** An operation's own examples, as `operationExamples` takes them. */
export type Examples = Parameters<typeof operationExamples>[0]

/** An operation's documentation as the annotations an endpoint merges (`annotateMerge`). */
export const documented = ({ description, examples, scope, summary }: Documentation): Context.Context<never> => {
  const annotations = OpenApi.annotations({
    summary,
    description,
    transform: examples === undefined ? undefined : operationExamples(examples)
  })
  return scope === undefined ? annotations : Context.add(annotations, RequiredScope, scope)
}

/** The path parameters of a route on one resource: its `:id`. */
export const ResourceId = { id: Schema.String }

/** A resource's id as the example its routes' `:id` shows. */
export const idExample = (id: string): Examples => ({ parameters: { id } })

/** The success of a creation: 201 with the created resource's `data`. */
export const created = <Data extends Schema.Top>(data: Data) => Envelope(data).pipe(HttpApiSchema.status(201))

/**
 * The options of a route taking a JSON body: its schema, and the errors it answers, its own first,
 * then what any body can be refused with before the route sees it (`bodyErrors`).
 */
export const jsonBody = <Payload extends Schema.Top, const Errors extends ReadonlyArray<Schema.Top>>(
  payload: Payload,
  ...errors: Errors
) => ({ payload, error: [...errors, ...bodyErrors] as const })

/** The options of a creation: its JSON body (`jsonBody`), and 201 with the created resource's `data`. */
export const creation = <
  Payload extends Schema.Top,
  Data extends Schema.Top,
  const Errors extends ReadonlyArray<Schema.Top>
>(payload: Payload, data: Data, ...errors: Errors) => ({ ...jsonBody(payload, ...errors), success: created(data) })

/** The `Idempotency-Key` a client may send with a creation, to have it made at most once. */
export const IdempotencyKey = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  Schema.isMaxLength(IDEMPOTENCY_KEY_MAX_LENGTH, {
    message: `must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`
  })
)

/** The headers of a creation that honours `Idempotency-Key`. */
export const IdempotencyKeyHeader = { "idempotency-key": Schema.optionalKey(IdempotencyKey) }

/**
 * Whether `endpoint` honours `Idempotency-Key`, replaying the first response for a key: whether its
 * headers take the key (`IdempotencyKeyHeader`, as `idempotentCreationRoute` declares them). Read
 * where the OpenAPI document states `Idempotent-Replayed`.
 */
export const honoursIdempotencyKey = (endpoint: { readonly headers: Schema.Top | undefined }): boolean => {
  const ast = endpoint.headers?.ast
  return ast !== undefined && SchemaAST.isObjects(ast) &&
    ast.propertySignatures.some((property) => property.name === "idempotency-key")
}

/**
 * `POST` of a swap's creation (a trade, an order), which honours `Idempotency-Key`: 201 with the
 * created resource's `data`; 400 for a body or a key its schema refuses, 409 for a key reused with
 * another body or still in flight, 422 for what the account cannot do now (no wallet, funds short),
 * 503 when the network is down (docs/reference/http-api.md#idempotency).
 */
export const idempotentCreationRoute = <
  const Name extends string,
  const Path extends HttpRouter.PathInput,
  Payload extends Schema.Top,
  Data extends Schema.Top
>(name: Name, path: Path, payload: Payload, data: Data, documentation: Documentation) =>
  HttpApiEndpoint.post(name, path, {
    headers: IdempotencyKeyHeader,
    ...creation(payload, data, BadRequest, Conflict, Unprocessable, ServiceUnavailable)
  }).annotateMerge(documented(documentation))

/** `GET` of `data` that takes no input: nothing to refuse but a key (settings, a list of keys, a clock). */
export const readRoute = <const Name extends string, const Path extends HttpRouter.PathInput, Data extends Schema.Top>(
  name: Name,
  path: Path,
  data: Data,
  documentation: Documentation
) => HttpApiEndpoint.get(name, path, { success: Envelope(data) }).annotateMerge(documented(documentation))

/** `GET` of `data` for a query string; 400 for a query its schema refuses. */
export const queryRoute = <
  const Name extends string,
  const Path extends HttpRouter.PathInput,
  Query extends Schema.Top,
  Data extends Schema.Top
>(name: Name, path: Path, query: Query, data: Data, documentation: Documentation) =>
  HttpApiEndpoint.get(name, path, { query, success: Envelope(data), error: BadRequest })
    .annotateMerge(documented(documentation))

/** `GET` of one resource by its `:id`; 404 when the account has no such resource. */
export const itemRoute = <const Name extends string, const Path extends HttpRouter.PathInput, Data extends Schema.Top>(
  name: Name,
  path: Path,
  data: Data,
  documentation: Documentation
) =>
  HttpApiEndpoint.get(name, path, { params: ResourceId, success: Envelope(data), error: NotFound })
    .annotateMerge(documented(documentation))

/** `DELETE` of one resource by its `:id`: 204, or 404 when the account has no such resource. */
export const deleteRoute = <const Name extends string, const Path extends HttpRouter.PathInput>(
  name: Name,
  path: Path,
  documentation: Documentation
) =>
  HttpApiEndpoint.delete(name, path, { params: ResourceId, success: HttpApiSchema.NoContent, error: NotFound })
    .annotateMerge(documented(documentation))

/**
 * `POST` of an external wallet's answer about one resource by its `:id` (a signature, an approval):
 * the resource back, 400 for a body its schema refuses, 404 when the account has no such resource,
 * 409 when the resource is not waiting for that answer.
 */
export const walletAnswerRoute = <
  const Name extends string,
  const Path extends HttpRouter.PathInput,
  Payload extends Schema.Top,
  Data extends Schema.Top
>(name: Name, path: Path, payload: Payload, data: Data, documentation: Documentation) =>
  HttpApiEndpoint.post(name, path, {
    params: ResourceId,
    ...jsonBody(payload, BadRequest, NotFound, Conflict),
    success: Envelope(data)
  }).annotateMerge(documented(documentation))
