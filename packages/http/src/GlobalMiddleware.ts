/**
 * What every response gets, whichever route (or none) answers it: an `X-Request-Id`, the
 * `WWW-Authenticate` challenge on a 401, the contract's envelope for requests no endpoint takes
 * (`NOT_FOUND`, `METHOD_NOT_ALLOWED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`), and an
 * `INTERNAL_ERROR` envelope, with nothing internal in it, for anything that failed unexpectedly.
 */
import { errorCatalogue, type ErrorCode, MarketClock, REQUEST_BODY_MAX_BYTES } from "@swapdesk/core"
import { ByteSize, Cause, Context, Effect, type Types } from "effect"
import {
  Headers,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import { randomUUID } from "node:crypto"
import { errorBody } from "./api/ApiErrors.ts"
import { KeyAuthenticator } from "./Authentication.ts"

const REQUEST_ID = /^[\x21-\x7E](?:[\x20-\x7E]{0,126}[\x21-\x7E])?$/

/** A request's id: the client's `X-Request-Id` if it is 1 to 128 printable characters, else a new one. */
export const requestIdFrom = (incoming: string | undefined): string =>
  incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : randomUUID()

interface Route {
  readonly method: string
  readonly pattern: RegExp
}

/** The part of an `HttpApi` the route table reads. */
export interface RouteSource {
  readonly groups: Readonly<
    Record<string, { readonly endpoints: Readonly<Record<string, { readonly method: string; readonly path: string }>> }>
  >
}

/** Every route the server answers, to tell an unknown path (404) from a wrong method (405). */
export const routeTable = (api: RouteSource, extra: ReadonlyArray<{ method: string; path: string }>) => {
  const routes: Array<Route> = []
  const add = (method: string, path: string) =>
    routes.push({
      method,
      pattern: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/:[A-Za-z]+/g, "/[^/]+")}/?$`)
    })
  for (const group of Object.values(api.groups)) {
    for (const endpoint of Object.values(group.endpoints)) add(endpoint.method, endpoint.path)
  }
  for (const route of extra) add(route.method, route.path)
  return routes
}

const methodsWithBody = new Set(["POST", "PUT", "PATCH"])

const pathOf = (url: string): string => url.split("?")[0]!

const mediaTypeOf = (contentType: string): string => contentType.split(";")[0]!.trim().toLowerCase()

/** `application/json`, and the `application/…+json` types built on it (merge-patch, vendor types). */
const isJson = (mediaType: string): boolean =>
  mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)

/** Enforced on the bytes read, so that a chunked body without a length is held to it too. */
const BODY_LIMIT = ByteSize.bytes(REQUEST_BODY_MAX_BYTES)

/**
 * No route or id has a `;`, but the router ends a path at one (as some servers end it at
 * `;jsessionid=…`), so `/v1/trades/x;y` would read trade `x`. Such paths are unknown routes.
 */
const hasSemicolonInPath = (url: string): boolean => {
  const semicolon = url.indexOf(";")
  if (semicolon === -1) return false
  const query = url.indexOf("?")
  return query === -1 || semicolon < query
}

/**
 * A request target never holds a `#`: a fragment stays with the client (RFC 9112, section 3.2).
 * Node passes one through, and the router would end the path at it and read a query after it.
 */
const hasFragment = (url: string): boolean => url.includes("#")

/** Whether `cause` is the router finding no route for the request's method and path. */
const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    reason._tag === "Fail" && HttpServerError.isHttpServerError(reason.error) &&
    reason.error.reason._tag === "RouteNotFound"
  )

/** Whether `cause` is a request body read that stopped at `BODY_LIMIT`. */
const isBodyTooLarge = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => {
    const error = reason._tag === "Fail" ? reason.error : reason._tag === "Die" ? reason.defect : undefined
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" &&
      error.reason.reason === "BodyTooLarge"
  })

/**
 * Whether `cause` is only the client hanging up before its answer: the platform interrupts a
 * request whose connection closed (`ClientAbort`), and a body still being read fails first when
 * Node aborts the request (`ECONNRESET`). Anything else in the cause is a failure of the server's.
 */
const isClientGone = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.length > 0 && cause.reasons.every((reason) => {
    if (reason._tag === "Interrupt") return reason.annotations.has(HttpServerError.ClientAbort.key)
    const error = reason._tag === "Fail" ? reason.error : reason.defect
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" &&
      (error.reason.cause as { readonly code?: unknown } | undefined)?.code === "ECONNRESET"
  })

/** What every response carries: its request id, and on a 401 the challenge. */
const stamp = (response: HttpServerResponse.HttpServerResponse, requestId: string) =>
  response.status === 401
    ? HttpServerResponse.setHeaders(response, { "x-request-id": requestId, "www-authenticate": "Bearer" })
    : HttpServerResponse.setHeader(response, "x-request-id", requestId)

/**
 * `routes` are every route served; `documents` the paths served outside the API definition (the
 * OpenAPI document, Swagger UI), public routes whose callers' keys are checked here.
 */
export const GlobalMiddleware = (routes: ReadonlyArray<Route>, documents: ReadonlySet<string>) =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const clock = yield* MarketClock
      const keys = yield* KeyAuthenticator
      const envelope = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
        Effect.map(clock.now, (ms) =>
          HttpServerResponse.jsonUnsafe(errorBody(code, message, ms), {
            status: errorCatalogue[code].status,
            ...(headers === undefined ? {} : { headers })
          }))

      /** `NOT_FOUND` for a path no route has, `METHOD_NOT_ALLOWED` for a method its routes lack. */
      const unrouted = (request: HttpServerRequest.HttpServerRequest) => {
        const path = pathOf(request.url)
        const matching = routes.filter((r) => r.pattern.test(path))
        if (matching.length === 0) return envelope("NOT_FOUND", `no route for ${request.method} ${path}`)
        // HEAD is served wherever GET is, so the table's GET routes take it too.
        const method = request.method === "HEAD" ? "GET" : request.method
        if (matching.some((r) => r.method === method)) return undefined
        const allowed = [...new Set(matching.map((r) => r.method))].join(", ")
        return envelope("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; use ${allowed}`, {
          allow: allowed
        })
      }

      const fragmentMessage = "the request target must not contain '#': a fragment is not sent to a server"
      const withFragment = Effect.map(clock.now, (ms) =>
        HttpServerResponse.jsonUnsafe(
          errorBody("VALIDATION_ERROR", fragmentMessage, ms, [{ path: "", message: fragmentMessage }]),
          { status: errorCatalogue.VALIDATION_ERROR.status }
        ))

      const tooLarge = () => envelope("PAYLOAD_TOO_LARGE", `the request body is over ${REQUEST_BODY_MAX_BYTES} bytes`)

      /**
       * A request with a body: answered here if no endpoint should see it (routing problems
       * first, as for requests without a body), else routed with its body limited to 64 KiB and
       * any JSON media type presented as `application/json`, the one the endpoints decode.
       */
      const withBody = (
        request: HttpServerRequest.HttpServerRequest,
        httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
      ) => {
        const misrouted = unrouted(request)
        if (misrouted !== undefined) return misrouted
        if (Number(request.headers["content-length"] ?? "0") > REQUEST_BODY_MAX_BYTES) return tooLarge()
        const contentType = request.headers["content-type"]
        const mediaType = contentType === undefined ? "application/json" : mediaTypeOf(contentType)
        if (!isJson(mediaType)) {
          return envelope("UNSUPPORTED_MEDIA_TYPE", `send the body as application/json, not ${contentType}`)
        }
        const routed = mediaType === "application/json" ? httpEffect : Effect.provideService(
          httpEffect,
          HttpServerRequest.HttpServerRequest,
          request.modify({ headers: Headers.set(request.headers, "content-type", "application/json") })
        )
        return Effect.provideService(routed, HttpIncomingMessage.MaxBodySize, BODY_LIMIT)
      }

      /** A document route with an `Authorization` header: served only if the key is valid. */
      const withKeyChecked = (
        header: string,
        httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>
      ) =>
        Effect.matchEffect(keys.fromHeader(header), {
          onFailure: (refused) => envelope("UNAUTHORIZED", refused.reason),
          onSuccess: () => httpEffect
        })

      const failed = (request: HttpServerRequest.HttpServerRequest, requestId: string, cause: Cause.Cause<unknown>) => {
        // The table can match where the router does not, as for a parameter that is not valid percent-encoding.
        if (isRouteNotFound(cause)) {
          return unrouted(request) ?? envelope("NOT_FOUND", `no resource at ${pathOf(request.url)}`)
        }
        if (isBodyTooLarge(cause)) return tooLarge()
        // Nothing failed here, and no one is left to read an answer: 499, as nginx logs it, is never sent.
        if (isClientGone(cause)) return Effect.succeed(HttpServerResponse.empty({ status: 499 }))
        return Effect.andThen(
          Effect.sync(() => console.error(`request ${requestId} failed:\n${Cause.pretty(cause)}`)),
          envelope("INTERNAL_ERROR", `something went wrong; quote request id ${requestId} when reporting it`)
        )
      }

      // Requests without a body go straight to the router: only when it finds no route is the
      // route table consulted, to tell 404 from 405. Every response passes through `stamp`, as
      // every failure is answered here.
      return (httpEffect) =>
        Effect.withFiber((fiber) => {
          const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
          const requestId = requestIdFrom(request.headers["x-request-id"])
          const authorization = request.headers.authorization
          const routed = hasFragment(request.url)
            ? withFragment
            : hasSemicolonInPath(request.url)
            ? envelope("NOT_FOUND", `no route for ${request.method} ${pathOf(request.url)}`)
            : methodsWithBody.has(request.method)
            ? withBody(request, httpEffect)
            : authorization !== undefined && documents.has(pathOf(request.url))
            ? withKeyChecked(authorization, httpEffect)
            : httpEffect
          return Effect.matchCauseEffect(routed, {
            onFailure: (cause) =>
              Effect.map(failed(request, requestId, cause), (response) => stamp(response, requestId)),
            onSuccess: (response) => Effect.succeed(stamp(response, requestId))
          })
          // The router's type asks a global middleware to say that it answers every failure.
        }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>
    }),
    { global: true }
  )
