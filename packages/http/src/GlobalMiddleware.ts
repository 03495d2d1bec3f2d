/**
 * What every response gets, whichever route (or none) answers it: an `X-Request-Id`, the
 * `WWW-Authenticate` challenge on a 401, the contract's envelope for requests no endpoint takes
 * (`NOT_FOUND`, `METHOD_NOT_ALLOWED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE`), and an
 * `INTERNAL_ERROR` envelope, with nothing internal in it, for anything that failed unexpectedly.
 */
import { errorCatalogue, type ErrorCode, MarketClock, REQUEST_BODY_MAX_BYTES } from "@swapdesk/core"
import { Cause, Effect, type Types } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"
import { errorBody } from "./api/ApiErrors.ts"

const REQUEST_ID = /^[\x21-\x7E](?:[\x20-\x7E]{0,126}[\x21-\x7E])?$/

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

const isJson = (contentType: string): boolean => {
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase()
  return mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)
}

export const GlobalMiddleware = (routes: ReadonlyArray<Route>) =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const clock = yield* MarketClock
      const envelope = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
        Effect.map(clock.now, (ms) =>
          HttpServerResponse.jsonUnsafe(errorBody(code, message, ms), {
            status: errorCatalogue[code].status,
            ...(headers === undefined ? {} : { headers })
          }))

      /** Answers the requests no endpoint should see, or undefined to let the router route it. */
      const screen = (request: HttpServerRequest.HttpServerRequest) => {
        const path = request.url.split("?")[0]!
        const matching = routes.filter((r) => r.pattern.test(path))
        if (matching.length === 0) return envelope("NOT_FOUND", `no route for ${request.method} ${path}`)
        if (!matching.some((r) => r.method === request.method)) {
          const allowed = [...new Set(matching.map((r) => r.method))].join(", ")
          return envelope("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; use ${allowed}`, {
            allow: allowed
          })
        }
        if (!methodsWithBody.has(request.method)) return undefined
        const length = Number(request.headers["content-length"] ?? "0")
        if (length > REQUEST_BODY_MAX_BYTES) {
          return envelope("PAYLOAD_TOO_LARGE", `the request body is over ${REQUEST_BODY_MAX_BYTES} bytes`)
        }
        const contentType = request.headers["content-type"]
        if (contentType !== undefined && !isJson(contentType)) {
          return envelope("UNSUPPORTED_MEDIA_TYPE", `send the body as application/json, not ${contentType}`)
        }
        return undefined
      }

      return (httpEffect) =>
        Effect.gen(function*() {
          const request = yield* HttpServerRequest.HttpServerRequest
          const incoming = request.headers["x-request-id"]
          const requestId = incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : randomUUID()
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(
              response.status === 401
                ? HttpServerResponse.setHeaders(response, { "x-request-id": requestId, "www-authenticate": "Bearer" })
                : HttpServerResponse.setHeader(response, "x-request-id", requestId)
            )
          )
          const screened = screen(request)
          if (screened !== undefined) return yield* screened
          return yield* httpEffect.pipe(
            Effect.catchCause((cause) =>
              Effect.andThen(
                Effect.sync(() => console.error(`request ${requestId} failed:\n${Cause.pretty(cause)}`)),
                envelope("INTERNAL_ERROR", `something went wrong; quote request id ${requestId} when reporting it`)
              )
            )
          )
          // Every failure is answered above; the router's type asks a global middleware to say so.
        }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>
    }),
    { global: true }
  )
