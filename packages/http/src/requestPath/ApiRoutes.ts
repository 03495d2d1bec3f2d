/**
 * The request path: serves an `HttpApi` definition on an `HttpRouter` with the handlers of its
 * groups' tables (`ApiHandlers.ts`), on Effect's published APIs only. The definition and the
 * typed handlers are Effect's types; the per-request path is this module's, leaner than
 * `HttpApiBuilder.layer`'s (the figures: `docs/performance.md`; the choice: `docs/decisions.md`,
 * "One request path").
 *
 * It does what `HttpApiBuilder.layer` does for the endpoints this server has: params, headers and
 * query decoded by the endpoint's schemas under the definition's parse options, a JSON body decoded
 * likewise (an empty one as no value), decoding failures as `HttpApiSchemaError` for the
 * middlewares to answer, the endpoint's middlewares applied in the same order. It skips what the
 * builder does per request and this server does not need: a generator, error reporting, encoding
 * errors through their schemas, and a copy of every service the handler group was built with into
 * the request's context. It also remembers what an endpoint's recent query texts and path ids
 * decoded to (`RememberedQueries.ts`), admits bodies on the routes that take one
 * (`middleware/BodyAdmission.ts`), and records the route on the request for its log line.
 *
 * Handlers answer with an `HttpServerResponse` (the responder renders the envelope) and fail only
 * with the API's error classes, whose fields are the error envelope. Bodies are JSON.
 */
import { errorCatalogue, type MarketClock } from "@swapdesk/core"
import { Context, Effect, type Layer, Schema, type SchemaAST, SchemaIssue } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  HttpApi,
  type HttpApiEndpoint,
  HttpApiError,
  type HttpApiGroup,
  HttpApiMiddleware,
  OpenApi
} from "effect/http-api"
import { envelopeOf, isApiError } from "../api/ApiErrors.ts"
import { admitBody, METHODS_WITH_BODY } from "../middleware/BodyAdmission.ts"
import { noteRoute } from "../middleware/RequestNotes.ts"
import { type Answers, makeAnswers } from "../middleware/Step.ts"
import { groupHandlersKey, type HandlerEntry, type ToHandlers } from "./ApiHandlers.ts"
import {
  type Decoder,
  paramsTextReader,
  type QueryInput,
  queryTextOf,
  rememberingQueries
} from "./RememberedQueries.ts"

type Middleware = (
  effect: Effect.Effect<unknown, unknown>,
  options: { readonly group: HttpApiGroup.Top; readonly endpoint: HttpApiEndpoint.Top }
) => Effect.Effect<unknown, unknown>

/** The request as a handler receives it. */
interface DecodedRequest {
  request: HttpServerRequest.HttpServerRequest
  endpoint: HttpApiEndpoint.Top
  group: HttpApiGroup.Top
  params?: unknown
  headers?: unknown
  query?: unknown
  payload?: unknown
}

/** A part of the request an endpoint declares a schema for: where to read it, how to decode it. */
interface RequestPart {
  readonly name: "params" | "headers" | "query" | "payload"
  readonly kind: HttpApiError.HttpApiSchemaError["kind"]
  readonly read: (context: Context.Context<never>, request: HttpServerRequest.HttpServerRequest) => unknown
  readonly decode: Decoder
  /** What a remembering decoder answers without an effect, where it remembers the input. */
  readonly known?: ((input: unknown) => { readonly value: unknown } | undefined) | undefined
}

const decoderOf = (schema: Schema.Top, options: SchemaAST.ParseOptions | undefined) =>
  Schema.decodeUnknownEffect(schema as Schema.Decoder<unknown>, options) as Decoder

/**
 * The message of the issue a body that is not JSON fails with (`layerRequestValidation` answers it
 * `MALFORMED_JSON`).
 */
export const UNPARSEABLE_BODY = "Expected a valid JSON body"

const unparseableBody = Effect.fail(
  new Schema.SchemaError(new SchemaIssue.InvalidValue({ message: UNPARSEABLE_BODY }))
)

/** Reads the request's JSON body and decodes it. */
const bodyDecoder = (endpoint: HttpApiEndpoint.Top, options: SchemaAST.ParseOptions | undefined): Decoder => {
  const json = endpoint.payload.get("application/json")
  if (json === undefined || endpoint.payload.size > 1) {
    throw new Error(`${endpoint.method} ${endpoint.path}: only application/json bodies are served`)
  }
  const decode = decoderOf(Schema.Union(json.schemas as ReadonlyArray<Schema.Top>), options)
  return (request) =>
    Effect.flatMap(Effect.orDie((request as HttpServerRequest.HttpServerRequest).text), (text) => {
      // As HttpApiBuilder does: an empty body is decoded as no value (layerRequestValidation words its failure).
      if (text === "") return decode(undefined)
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        return unparseableBody
      }
      return decode(body)
    })
}

/** The parts `endpoint` declares, in the order they are decoded (and their failures reported). */
const requestParts = (
  endpoint: HttpApiEndpoint.Top,
  annotations: Context.Context<never>
): ReadonlyArray<RequestPart> => {
  // A slot's own options win over the general ones, at whichever level each is set.
  const fallback = Context.getOrUndefined(annotations, HttpApi.ParseOptions)
  const optionsOf = (slot: Context.Key<unknown, SchemaAST.ParseOptions>) =>
    Context.getOrUndefined(annotations, slot) ?? fallback
  const parts: Array<RequestPart> = []
  if (endpoint.params !== undefined) {
    const textOf = paramsTextReader()
    const decode = rememberingQueries(decoderOf(endpoint.params, optionsOf(HttpApi.ParamsParseOptions)))
    parts.push({
      name: "params",
      kind: "Params",
      read: (context): QueryInput => {
        const params = Context.getUnsafe(context, HttpRouter.RouteContext).params
        return { text: textOf(params), params }
      },
      decode,
      known: decode.known
    })
  }
  if (endpoint.headers !== undefined) {
    parts.push({
      name: "headers",
      kind: "Headers",
      read: (_, request) => request.headers,
      decode: decoderOf(endpoint.headers, optionsOf(HttpApi.HeadersParseOptions))
    })
  }
  if (endpoint.query !== undefined) {
    const query = rememberingQueries(
      decoderOf(Schema.toCodecArrayFromSingle(endpoint.query), optionsOf(HttpApi.QueryParseOptions))
    )
    parts.push({
      name: "query",
      kind: "Query",
      read: (context, request): QueryInput => ({
        text: queryTextOf(request.url),
        params: Context.getUnsafe(context, HttpServerRequest.ParsedSearchParams)
      }),
      decode: query,
      known: query.known
    })
  }
  if (endpoint.payload.size > 0) {
    parts.push({
      name: "payload",
      kind: "Payload",
      read: (_, request) => request,
      decode: bodyDecoder(endpoint, optionsOf(HttpApi.PayloadParseOptions))
    })
  }
  return parts
}

/** Decodes `parts` from `index` on into `request`, then runs the handler; remembered parts take no step. */
const decodeThen = (
  parts: ReadonlyArray<RequestPart>,
  index: number,
  context: Context.Context<never>,
  request: DecodedRequest,
  handler: (request: DecodedRequest) => Effect.Effect<unknown, unknown>
): Effect.Effect<unknown, unknown> => {
  for (; index < parts.length; index++) {
    const part = parts[index]!
    const input = part.read(context, request.request)
    const known = part.known?.(input)
    if (known === undefined) {
      const next = index + 1
      return Effect.flatMap(HttpApiError.HttpApiSchemaError.wrap(part.kind, part.decode(input)), (value) => {
        request[part.name] = value
        return decodeThen(parts, next, context, request, handler)
      })
    }
    request[part.name] = known.value
  }
  return handler(request)
}

/** An API error as its response: its fields are the envelope, its code decides the status. */
const errorResponse = (error: unknown) => {
  if (!isApiError(error)) return Effect.die(error)
  return Effect.succeed(
    HttpServerResponse.jsonUnsafe(envelopeOf(error), { status: errorCatalogue[error.error.code].status })
  )
}

const notAResponse = (endpoint: HttpApiEndpoint.Top) =>
  Effect.die(new Error(`the handler of ${endpoint.method} ${endpoint.path} must answer with an HttpServerResponse`))

/** One endpoint's route: decode, run the handler inside the endpoint's middlewares, answer. */
const routeOf = (
  api: HttpApi.Top,
  group: HttpApiGroup.Top,
  registered: HandlerEntry,
  middlewares: Context.Context<never>,
  answers: Answers
) => {
  const { endpoint } = registered
  const parts = requestParts(
    endpoint,
    Context.merge(Context.merge(api.annotations, group.annotations), endpoint.annotations)
  )
  const handler = registered.handler as (request: DecodedRequest) => Effect.Effect<unknown, unknown>
  const route = `${endpoint.method} ${endpoint.path}`
  const answer = Effect.withFiber((fiber) => {
    const request: DecodedRequest = {
      request: Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest),
      endpoint,
      group
    }
    noteRoute(fiber, route)
    return decodeThen(parts, 0, fiber.context, request, handler)
  })

  let wrapped: Effect.Effect<unknown, unknown> = answer
  for (const key of endpoint.middlewares) {
    if (HttpApiMiddleware.isSecurity(key as never)) {
      throw new Error(`${route}: security middlewares are not served`)
    }
    wrapped = (Context.getUnsafe(middlewares, key) as Middleware)(wrapped, { group, endpoint })
  }
  const respond = Effect.matchEffect(wrapped, {
    onFailure: errorResponse,
    onSuccess: (response) =>
      HttpServerResponse.isHttpServerResponse(response) ? Effect.succeed(response) : notAResponse(endpoint)
  }) as Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
  return HttpRouter.route(
    endpoint.method,
    endpoint.path as HttpRouter.PathInput,
    METHODS_WITH_BODY.has(endpoint.method) ? admitBody(answers)(respond) : respond,
    { uninterruptible: registered.uninterruptible }
  )
}

/**
 * Adds every endpoint of `api` to the router, and its OpenAPI document at `openapiPath`. Requires
 * each group's handler table (`ApiHandlers.group`) and the middlewares its endpoints name.
 */
export const layer = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  options: { readonly openapiPath: `/${string}` }
): Layer.Layer<never, never, ServedApiRequirements<Id, Groups>> =>
  HttpRouter.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<never>()
      const answers = yield* makeAnswers
      const definition = api as unknown as HttpApi.Top
      const routes: Array<HttpRouter.Route<unknown, unknown>> = []
      for (const group of Object.values(definition.groups)) {
        const table = Context.getOrUndefined(context, groupHandlersKey(definition.identifier, group.identifier))
        if (table === undefined) {
          return yield* Effect.die(new Error(`no handlers for the API group "${group.identifier}"`))
        }
        for (const entry of table.handlers.values()) routes.push(routeOf(definition, group, entry, context, answers))
      }
      yield* router.addAll(routes as never)
      let document: HttpServerResponse.HttpServerResponse | undefined
      yield* router.add(
        "GET",
        options.openapiPath,
        Effect.sync(() => document ??= HttpServerResponse.jsonUnsafe(OpenApi.fromApi(definition)))
      )
    })
  ) as Layer.Layer<never, never, ServedApiRequirements<Id, Groups>>

/** What serving an API with groups `Groups` requires. */
export type ServedApiRequirements<Id extends string, Groups extends HttpApiGroup.Constraint> =
  | HttpRouter.HttpRouter
  | MarketClock
  | ToHandlers<Id, Groups>
  | HttpApiEndpoint.Middleware<HttpApiGroup.Endpoints<Groups>>
  | HttpApiGroup.MiddlewareServices<Groups>
