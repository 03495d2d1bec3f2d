/**
 * The switch between the two ways this package serves an `HttpApi` definition:
 *
 * - `"ApiRoutes"` (the default): swapdesk's own request path (`ApiRoutes.ts`), which reads Effect's
 *   handler registry and meets the HTTP benchmark's targets;
 * - `"HttpApiBuilder"`: Effect's own `HttpApiBuilder.layer`, public API only, slower per request.
 *
 * Both serve the same definition with the same handlers and middlewares, and the end-to-end suite
 * runs against each (`REQUEST_PATH`, see `vitest.config.ts`). Everything that exists only
 * because of the custom path lives in this folder. `docs/decisions.md` ("Two request paths")
 * records the choice with the figures of `docs/performance.md`.
 */
import type { FileSystem, Layer, Path } from "effect"
import type { Etag, HttpPlatform, HttpRouter } from "effect/http"
import { type HttpApi, HttpApiBuilder, type HttpApiGroup } from "effect/http-api"
import * as ApiRoutes from "./ApiRoutes.ts"

/** How an `HttpApi` definition is served. */
export type RequestPath = "ApiRoutes" | "HttpApiBuilder"

/** Every request path, the default first. */
export const REQUEST_PATHS: ReadonlyArray<RequestPath> = ["ApiRoutes", "HttpApiBuilder"]

/** The request path a server takes unless told otherwise. */
export const DEFAULT_REQUEST_PATH: RequestPath = "ApiRoutes"

/** Whether `text` names a request path. */
export const isRequestPath = (text: string): text is RequestPath =>
  (REQUEST_PATHS as ReadonlyArray<string>).includes(text)

/** What `HttpApiBuilder.layer` takes from the platform server (`NodeHttpServer.layer` provides it all). */
export type BuilderPlatform = Etag.Generator | FileSystem.FileSystem | HttpPlatform.HttpPlatform | Path.Path

/** What serving `api` requires on the default path. */
export type ServedApiRequirements<Id extends string, Groups extends HttpApiGroup.Constraint> =
  | HttpRouter.HttpRouter
  | HttpApiGroup.ToService<Id, Groups>
  | HttpApiGroup.MiddlewareServices<Groups>

/** The options of a served API: where its OpenAPI document is, and which request path serves it. */
export interface ServeOptions<P extends RequestPath = RequestPath> {
  readonly openapiPath: `/${string}`
  /** `"ApiRoutes"` unless given. */
  readonly requestPath?: P | undefined
}

/** The platform services request path `P` takes: none for `"ApiRoutes"`. */
export type PlatformOf<P extends RequestPath> = "HttpApiBuilder" extends P ? BuilderPlatform : never

/**
 * Every endpoint of `api` on the router, by the chosen request path, and its OpenAPI document at
 * `openapiPath`. Requires each group's handlers (`HttpApiBuilder.group`) and the middlewares its
 * endpoints name; `"HttpApiBuilder"` (or a path chosen at run time) also requires the platform
 * services a server layer provides.
 */
export const requestPathLayer = <
  Id extends string,
  Groups extends HttpApiGroup.Constraint,
  P extends RequestPath = "ApiRoutes"
>(
  api: HttpApi.HttpApi<Id, Groups>,
  options: ServeOptions<P>
): Layer.Layer<never, never, ServedApiRequirements<Id, Groups> | PlatformOf<P>> =>
  (options.requestPath ?? DEFAULT_REQUEST_PATH) === "ApiRoutes"
    ? ApiRoutes.layer(api, { openapiPath: options.openapiPath })
    : HttpApiBuilder.layer(api, { openapiPath: options.openapiPath }) as Layer.Layer<
      never,
      never,
      ServedApiRequirements<Id, Groups> | PlatformOf<P>
    >
