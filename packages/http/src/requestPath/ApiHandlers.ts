/**
 * The handler table the request path (`ApiRoutes.ts`) serves: each group's handlers, typed from the
 * `HttpApi` definition and kept in context under a key of swapdesk's own, so that serving a
 * definition reads nothing Effect does not publish. It stands where `HttpApiBuilder.group` would, with the
 * same shape of code at the call site:
 *
 * ```ts
 * export const MarketHandlers = ApiHandlers.group(Api, "market", (handlers) =>
 *   Effect.gen(function*() {
 *     const market = yield* MarketData
 *     return handlers.handle("trending", ({ query }) => …)
 *   }))
 * ```
 *
 * What it asks of a handler is in its type: it answers with an `HttpServerResponse` (the responder
 * renders the envelope), fails only with its endpoint's errors, and reads from the request's
 * context only the request, its route and what its endpoint's middlewares provide; every other
 * service is taken when the group is built.
 */
import { Context, Effect, Layer, type Scope } from "effect"
import type { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

/** What a handler may read from the request's context. */
export type RequestServices<Endpoint> =
  | HttpApiEndpoint.MiddlewareProvides<Endpoint>
  | HttpServerRequest.HttpServerRequest
  | HttpServerRequest.ParsedSearchParams
  | HttpRouter.RouteContext

/** One endpoint's handler: its decoded request in, its response (or one of its errors) out. */
export type Handler<Endpoint extends HttpApiEndpoint.Constraint> = (
  request: HttpApiEndpoint.Request<Endpoint>
) => Effect.Effect<HttpServerResponse.HttpServerResponse, HttpApiEndpoint.Errors<Endpoint>, RequestServices<Endpoint>>

/** A handler as the table keeps it. */
export interface HandlerEntry {
  readonly endpoint: HttpApiEndpoint.Top
  readonly handler: (request: never) => Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>
  /** Whether a client hanging up leaves the handler to finish (as for a market advance). */
  readonly uninterruptible: boolean
}

/** One group's handlers, by endpoint identifier. */
export interface GroupTable {
  readonly group: HttpApiGroup.Top
  readonly handlers: ReadonlyMap<string, HandlerEntry>
}

/** The context slot of the handlers of group `Name` of the API named `ApiId`. */
export interface GroupHandlers<ApiId extends string, Name extends string> {
  readonly "~swapdesk/GroupHandlers": { readonly api: ApiId; readonly group: Name }
}

/** The slots of every group of an API. */
export type ToHandlers<ApiId extends string, Groups extends HttpApiGroup.Constraint> = Groups extends
  HttpApiGroup.Constraint ? GroupHandlers<ApiId, Groups["identifier"]>
  : never

/**
 * The context key of the handlers of group `group` of the API named `api`. An API extended with
 * more groups keeps its name, so a server of the contract and groups of its own takes the
 * contract's handlers as they are.
 */
export const groupHandlersKey = <ApiId extends string, Name extends string>(
  api: ApiId,
  group: Name
): Context.Key<GroupHandlers<ApiId, Name>, GroupTable> =>
  Context.Service<GroupHandlers<ApiId, Name>, GroupTable>(`@swapdesk/http/ApiHandlers/${api}/${group}`)

/**
 * A group's handlers as they are added: `handle` each endpoint once. `Handled` is invariant, so
 * that `group` accepts only a table with every endpoint handled.
 */
export interface Handlers<Endpoints extends HttpApiEndpoint.Constraint, Handled extends string = never> {
  readonly "~handled": (handled: Handled) => Handled
  readonly entries: ReadonlyMap<string, HandlerEntry>
  /** Adds the handler of endpoint `identifier`. */
  handle<const Identifier extends Exclude<HttpApiEndpoint.Identifier<Endpoints>, Handled>>(
    identifier: Identifier,
    handler: Handler<HttpApiEndpoint.WithIdentifier<Endpoints, Identifier>>,
    options?: { readonly uninterruptible?: boolean | undefined }
  ): Handlers<Endpoints, Handled | Identifier>
}

const makeHandlers = (
  group: HttpApiGroup.Top,
  entries: ReadonlyMap<string, HandlerEntry>
): Handlers<HttpApiEndpoint.Constraint, string> => ({
  "~handled": (handled) => handled,
  entries,
  handle: (identifier, handler, options) => {
    const endpoint = group.endpoints[identifier]
    if (endpoint === undefined) throw new Error(`the group "${group.identifier}" has no endpoint "${identifier}"`)
    return makeHandlers(
      group,
      new Map(entries).set(identifier, {
        endpoint,
        handler: handler as HandlerEntry["handler"],
        uninterruptible: options?.uninterruptible ?? false
      })
    ) as never
  }
})

/**
 * The layer of group `identifier`'s handlers of `api`: `build` adds a handler for each of the
 * group's endpoints, taking the services they use once, when the layer is built.
 */
export const group = <
  ApiId extends string,
  Groups extends HttpApiGroup.Constraint,
  const Name extends HttpApiGroup.Identifier<Groups>,
  E = never,
  R = never
>(
  api: HttpApi.HttpApi<ApiId, Groups>,
  identifier: Name,
  build: (
    handlers: Handlers<HttpApiGroup.EndpointsWithIdentifier<Groups, Name>>
  ) => Effect.Effect<
    Handlers<
      HttpApiGroup.EndpointsWithIdentifier<Groups, Name>,
      HttpApiEndpoint.Identifier<HttpApiGroup.EndpointsWithIdentifier<Groups, Name>>
    >,
    E,
    R
  >
): Layer.Layer<GroupHandlers<ApiId, Name>, E, Exclude<R, Scope.Scope>> => {
  const definition = (api as unknown as HttpApi.Top).groups[identifier] as unknown as HttpApiGroup.Top
  return Layer.effect(
    groupHandlersKey(api.identifier, identifier),
    Effect.map(
      build(makeHandlers(definition, new Map()) as never),
      (handlers): GroupTable => {
        const missing = Object.keys(definition.endpoints).filter((name) => !handlers.entries.has(name))
        if (missing.length > 0) {
          throw new Error(`the group "${identifier}" has no handler for ${missing.join(", ")}`)
        }
        return { group: definition, handlers: handlers.entries }
      }
    )
  ) as Layer.Layer<GroupHandlers<ApiId, Name>, E, Exclude<R, Scope.Scope>>
}
