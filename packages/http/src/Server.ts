/**
 * The server as layers a service can compose: `SwapdeskHttp.routes` serves the contract on whatever
 * implements the core's ports; add `NodeHttpServer.layer` (or any platform server), on Node with
 * `NodeServerPlatform` (`@swapdesk/http/node`), and launch it. The simulator-backed standalone
 * server (`@swapdesk/server`) is one such composition.
 */
import { DomainLive } from "@swapdesk/core"
import { Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, type HttpApiGroup, HttpApiSwagger } from "effect/http-api"
import { Api } from "./api/Api.ts"
import { KeyAuthenticator, layerAuthentication, layerKeyCheck, layerOptionalAuthentication } from "./Authentication.ts"
import { GlobalMiddleware } from "./GlobalMiddleware.ts"
import { NotificationsHandlers, WebhooksHandlers } from "./handlers/AccountHandlers.ts"
import { AlertsHandlers } from "./handlers/AlertsHandlers.ts"
import { ApiKeysHandlers } from "./handlers/ApiKeysHandlers.ts"
import { ChartsHandlers, MarketHandlers } from "./handlers/MarketHandlers.ts"
import { OrdersHandlers } from "./handlers/OrdersHandlers.ts"
import { PortfolioHandlers } from "./handlers/PortfolioHandlers.ts"
import { SystemHandlers } from "./handlers/SystemHandlers.ts"
import { TokensHandlers } from "./handlers/TokensHandlers.ts"
import { TradesHandlers } from "./handlers/TradesHandlers.ts"
import { type ServedRoute, unservedMethods } from "./middleware/Preflight.ts"
import { RateLimiter } from "./RateLimiter.ts"
import * as ApiRoutes from "./requestPath/ApiRoutes.ts"
import { layerRequestValidation } from "./RequestValidationLayer.ts"

/** What the global middleware takes from the server's world. */
type GlobalMiddlewareRequirements = Layer.Services<ReturnType<typeof GlobalMiddleware>>

/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = "/v1/openapi.json"
/** Where Swagger UI is served. */
export const DOCS_PATH = "/docs"

/** Handlers of every contract group. */
export const ContractHandlers = Layer.mergeAll(
  SystemHandlers,
  TokensHandlers,
  MarketHandlers,
  ChartsHandlers,
  TradesHandlers,
  AlertsHandlers,
  OrdersHandlers,
  PortfolioHandlers,
  ApiKeysHandlers,
  NotificationsHandlers,
  WebhooksHandlers
)

/**
 * The API's middlewares, sharing one rate limiter; the key authenticator is kept for the global
 * middleware, and both for the middlewares a composing server adds (`makeRefusals`).
 */
export const ApiMiddlewares = Layer.mergeAll(
  layerAuthentication,
  layerOptionalAuthentication,
  layerKeyCheck,
  layerRequestValidation
).pipe(Layer.provideMerge(RateLimiter.layer), Layer.provideMerge(KeyAuthenticator.layer))

/** The public documents served beside an API's routes. */
const documentPaths: ReadonlySet<string> = new Set([OPENAPI_PATH, DOCS_PATH])
const documents: ReadonlyArray<ServedRoute> = [...documentPaths].map((path) => ({ method: "GET", path }))

/** Every route of `api`, with the documents beside it. */
const servedRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<ServedRoute> => {
  const served: Array<ServedRoute> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => served.push({ method: endpoint.method, path: endpoint.path })
  })
  return [...served, ...documents]
}

/**
 * An API's routes (`requestPath/ApiRoutes.ts`), its OpenAPI document, Swagger UI, the routes of the
 * methods their paths lack (`middleware/Preflight.ts`) and the global middleware.
 */
export const serveApi = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): Layer.Layer<never, never, ApiRoutes.ServedApiRequirements<Id, Groups> | GlobalMiddlewareRequirements> =>
  Layer.mergeAll(
    ApiRoutes.layer(api, { openapiPath: OPENAPI_PATH }),
    HttpApiSwagger.layer(api, { path: DOCS_PATH }),
    unservedMethods(servedRoutes(api)),
    GlobalMiddleware(documentPaths, DOCS_PATH)
  )

/**
 * The contract's routes with their handlers and the core's use cases. Requires the ports
 * (`PriceFeed`, `Chain`, `Wallets`, `OrderSigner`, `Notifier`, `DomainEvents`, `IdGenerator`,
 * `MarketClock`, `MarketTimer`, `SecretHasher`, `WebhookTransport`) and the repositories; provides
 * the routes to an `HttpRouter` and the `MarketReactor` adapters report to.
 */
export const routes = serveApi(Api).pipe(
  Layer.provide(ContractHandlers),
  Layer.provide(ApiMiddlewares),
  Layer.provideMerge(DomainLive)
)

/**
 * Serves `routes` (or any router layer) on the platform server the caller provides. Paths match
 * case-sensitively, as URL paths compare (the router's default ignores case, and would take
 * `/V1/HEALTH` for `/v1/health`). A path parameter of any length reaches its endpoint, so an
 * over-long id is the resource's own 404 after authentication, as any unknown id is; the router's
 * default stops matching at 100 characters. The platform server's limit on a request's head (16 KiB
 * on Node) bounds them.
 */
export const serve = <E, R>(app: Layer.Layer<never, E, R>) =>
  HttpRouter.serve(app, {
    disableLogger: true,
    disableListenLog: true,
    routerConfig: { caseSensitive: true, maxParamLength: Number.MAX_SAFE_INTEGER }
  })
