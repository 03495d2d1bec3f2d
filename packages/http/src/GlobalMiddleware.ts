/**
 * What every response gets, whichever route (or none) answers it, as one global router middleware
 * made of named steps, one concern each, composed in `GlobalMiddleware` at the bottom of this
 * module:
 *
 * - `refuseFragment`: a request target with a `#` is `VALIDATION_ERROR`;
 * - `refuseSemicolonInPath`: a path with a `;` is an unknown route (`NOT_FOUND`);
 * - `requireHost`: an HTTP/1.1 request without `Host` is `VALIDATION_ERROR`;
 * - `refuseTwoAuthorizations`: two `Authorization` headers are `UNAUTHORIZED`;
 * - `answerPreflight`: a CORS preflight from an allowed origin is `204` with what it may send;
 * - `admitBody`: a request with a body is routed only if a route takes it, with its body within
 *   64 KiB, `application/json` (charset utf-8 at most) and not encoded (`NOT_FOUND`,
 *   `METHOD_NOT_ALLOWED`, `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE` otherwise);
 * - `checkDocumentKey`: the public documents (OpenAPI, Swagger UI) refuse a present but invalid key;
 * - `answerFailure`: whatever no endpoint answered (no route, a body over the limit, a client gone,
 *   a defect) gets its envelope, and a defect is logged under the request id;
 * - `finish`: every response carries its `X-Request-Id` and the security headers (`no-store` when
 *   the request carried a key; a `Content-Security-Policy` on Swagger UI), a 401 its
 *   `WWW-Authenticate` challenge, a rate-limited caller's response the `RateLimit-*` headers, and a
 *   response to an allowed origin its CORS headers, all set in one step.
 *
 * Every step is on every request's path, so the steps are plain functions of the request, composed
 * in one expression, rather than router middlewares of their own, each of which would wrap every
 * request in one more effect; docs/performance.md measures the composition against the single
 * expression it replaced. The error codes are in docs/reference/errors.md.
 */
import {
  errorCatalogue,
  type ErrorCode,
  MarketClock,
  REQUEST_BODY_MAX_BYTES,
  REQUEST_ID_MAX_LENGTH,
  type ValidationIssue
} from "@swapdesk/core"
import { ByteSize, Cause, Context, Effect, type Types } from "effect"
import {
  Headers,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import { createHash, randomUUID } from "node:crypto"
import { errorBody } from "./api/ApiErrors.ts"
import { KeyAuthenticator } from "./Authentication.ts"
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS, CorsOrigins } from "./Cors.ts"
import { addRateLimitHeaders, withHeaders } from "./ResponseStamp.ts"

/** Printable ASCII, neither starting nor ending with a space, 1 to `REQUEST_ID_MAX_LENGTH` characters. */
const REQUEST_ID = new RegExp(`^[\\x21-\\x7E](?:[\\x20-\\x7E]{0,${REQUEST_ID_MAX_LENGTH - 2}}[\\x21-\\x7E])?$`)

/** A request's id: the client's `X-Request-Id` if it is a valid one (`REQUEST_ID`), else a new one. */
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

/** The path of a request target, up to its query: by `indexOf`, as `split` builds an array on every call. */
const pathOf = (url: string): string => {
  const query = url.indexOf("?")
  return query === -1 ? url : url.slice(0, query)
}

/** Whether `url` names `path`, as the router matches it (trailing slashes forgiven). */
const isPath = (url: string, path: string): boolean => url.startsWith(path) && pathOf(url).replace(/\/+$/, "") === path

/**
 * The one media type a body may have: `application/json`, with at most a `charset=utf-8`
 * parameter (docs/reference/http-api.md, "Conventions").
 */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*("utf-8"|utf-8)[ \t]*)?$/i

/** Whether a body follows the request's head: a non-zero length, or chunks. */
const hasBody = (headers: Headers.Headers): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

/** How many `Authorization` fields the request's head has: Node keeps only the first in `headers`. */
const authorizationCount = (source: unknown): number => {
  const raw = (source as { readonly rawHeaders?: ReadonlyArray<string> } | undefined)?.rawHeaders
  let count = 0
  if (raw !== undefined) {
    for (let i = 0; i < raw.length; i += 2) {
      if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === "authorization") count++
    }
  }
  return count
}

/** An HTTP/1.1 request must name its host (RFC 9112, section 3.2); HTTP/1.0 may not. */
const lacksHost = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers.host === undefined &&
  (request.source as { readonly httpVersion?: string } | undefined)?.httpVersion === "1.1"

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

/**
 * Swagger UI's policy: its own inline script and stylesheet only (by their SHA-256), data: images,
 * requests to this origin ("Try it out"), and no framing. Computed from the page itself, once.
 */
const docsPolicyOf = (page: string): string => {
  const hashes = (tag: "script" | "style") =>
    [...page.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))]
      .map((match) => `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`)
      .join(" ")
  return [
    "default-src 'none'",
    `script-src ${hashes("script")}`,
    `style-src ${hashes("style")}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

const bodyText = (response: HttpServerResponse.HttpServerResponse): string =>
  response.body._tag === "Uint8Array" ? new TextDecoder().decode(response.body.body) : ""

/** The methods `routes` take at `path` (with `HEAD` where `GET` is), empty for an unknown path. */
const methodsAt = (routes: ReadonlyArray<Route>, path: string): Array<string> => {
  const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))
  if (methods.has("GET")) methods.add("HEAD")
  return [...methods]
}

type Routed = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest>

/**
 * One concern of the global middleware: given the request and what the rest of the chain would
 * answer, what this step answers. A step that lets the request through returns `next` itself.
 */
type Step = (request: HttpServerRequest.HttpServerRequest, next: Routed) => Routed

/**
 * `routes` are every route served; `documents` the paths served outside the API definition (the
 * OpenAPI document, Swagger UI), public routes whose callers' keys are checked here.
 */
export const GlobalMiddleware = (
  routes: ReadonlyArray<Route>,
  documents: ReadonlySet<string>,
  docsPath: string
) =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const clock = yield* MarketClock
      const keys = yield* KeyAuthenticator
      const corsOrigins = yield* CorsOrigins
      const envelope = (
        code: ErrorCode,
        message: string,
        options: { readonly headers?: Record<string, string>; readonly details?: ReadonlyArray<ValidationIssue> } = {}
      ) =>
        Effect.map(clock.now, (ms) =>
          HttpServerResponse.jsonUnsafe(errorBody(code, message, ms, options.details), {
            status: errorCatalogue[code].status,
            ...(options.headers === undefined ? {} : { headers: options.headers })
          }))

      /** `NOT_FOUND` for a path no route has, `METHOD_NOT_ALLOWED` for a method its routes lack, else undefined. */
      const unrouted = (request: HttpServerRequest.HttpServerRequest) => {
        const path = pathOf(request.url)
        const matching = routes.filter((r) => r.pattern.test(path))
        if (matching.length === 0) return envelope("NOT_FOUND", `no route for ${request.method} ${path}`)
        // HEAD is served wherever GET is, so the table's GET routes take it too.
        const method = request.method === "HEAD" ? "GET" : request.method
        if (matching.some((r) => r.method === method)) return undefined
        const allowed = [...new Set(matching.map((r) => r.method))].join(", ")
        return envelope("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; use ${allowed}`, {
          headers: { allow: allowed }
        })
      }

      const tooLarge = () => envelope("PAYLOAD_TOO_LARGE", `the request body is over ${REQUEST_BODY_MAX_BYTES} bytes`)

      const fragmentMessage = "the request target must not contain '#': a fragment is not sent to a server"
      const withFragment = envelope("VALIDATION_ERROR", fragmentMessage, {
        details: [{ path: "", message: fragmentMessage }]
      })

      /** A request target with a `#` (see `hasFragment`) is refused before the router reads it. */
      const refuseFragment: Step = (request, next) => hasFragment(request.url) ? withFragment : next

      /** A path with a `;` (see `hasSemicolonInPath`) is an unknown route. */
      const refuseSemicolonInPath: Step = (request, next) =>
        hasSemicolonInPath(request.url)
          ? envelope("NOT_FOUND", `no route for ${request.method} ${pathOf(request.url)}`)
          : next

      const hostMessage = "an HTTP/1.1 request must have a Host header"
      const withoutHost = envelope("VALIDATION_ERROR", hostMessage, { details: [{ path: "", message: hostMessage }] })

      /** An HTTP/1.1 request without `Host` (see `lacksHost`), which Node is told to let through. */
      const requireHost: Step = (request, next) => lacksHost(request) ? withoutHost : next

      const twoAuthorizations = envelope("UNAUTHORIZED", "send one Authorization header, not several")

      /** Two `Authorization` headers: which one is meant cannot be known, so neither is used. */
      const refuseTwoAuthorizations: Step = (request, next) =>
        request.headers.authorization !== undefined && authorizationCount(request.source) > 1
          ? twoAuthorizations
          : next

      /**
       * A CORS preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin, for
       * a path that has routes: `204` with the path's methods and the headers the API reads. Any
       * other `OPTIONS` goes on to `405`.
       */
      const answerPreflight: Step = (request, next) => {
        if (request.method !== "OPTIONS" || corsOrigins.size === 0) return next
        const origin = request.headers.origin
        if (origin === undefined || request.headers["access-control-request-method"] === undefined) return next
        if (!corsOrigins.has(origin.toLowerCase())) return next
        const methods = methodsAt(routes, pathOf(request.url))
        if (methods.length === 0) return next
        return Effect.succeed(HttpServerResponse.empty({
          status: 204,
          headers: {
            "access-control-allow-methods": methods.join(", "),
            "access-control-allow-headers": CORS_ALLOWED_HEADERS,
            "access-control-max-age": CORS_MAX_AGE_SECONDS
          }
        }))
      }

      /**
       * A request with a body: answered here if no endpoint should see it (routing problems
       * first, as for requests without a body), else routed with its body limited to 64 KiB. A body
       * must be `application/json` (charset utf-8 at most) and not encoded: a browser can send any
       * other type cross-site without a preflight.
       */
      const admitBody: Step = (request, next) => {
        if (!methodsWithBody.has(request.method)) return next
        const misrouted = unrouted(request)
        if (misrouted !== undefined) return misrouted
        if (Number(request.headers["content-length"] ?? "0") > REQUEST_BODY_MAX_BYTES) return tooLarge()
        const contentType = request.headers["content-type"]
        if (contentType === undefined ? hasBody(request.headers) : !JSON_MEDIA_TYPE.test(contentType)) {
          return envelope(
            "UNSUPPORTED_MEDIA_TYPE",
            contentType === undefined
              ? "send the body with Content-Type: application/json"
              : `send the body as application/json (charset utf-8 at most), not ${contentType}`
          )
        }
        const encoding = request.headers["content-encoding"]
        if (encoding !== undefined) {
          return envelope("UNSUPPORTED_MEDIA_TYPE", `send the body unencoded, without Content-Encoding (${encoding})`)
        }
        return Effect.provideService(next, HttpIncomingMessage.MaxBodySize, BODY_LIMIT)
      }

      /** A document route with an `Authorization` header: served only if the key is valid. */
      const checkDocumentKey: Step = (request, next) => {
        const header = request.headers.authorization
        if (header === undefined || !documents.has(pathOf(request.url))) return next
        return Effect.matchEffect(keys.fromHeader(header), {
          onFailure: (refused) => envelope("UNAUTHORIZED", refused.reason),
          onSuccess: () => next
        })
      }

      /** The answer to a request whose route failed, or that no route took. */
      const answerFailure = (
        request: HttpServerRequest.HttpServerRequest,
        requestId: string,
        cause: Cause.Cause<unknown>
      ) => {
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

      let docsPolicy: string | undefined
      const isCorsOn = corsOrigins.size > 0

      /**
       * Every answer, stamped in one step (each header set on a response copies all of them): its
       * request id and the security headers (docs/reference/http-api.md, "Security headers and
       * CORS"), `no-store` when the request carried a key, the challenge on a 401, the rate limiter's
       * figures (`ResponseStamp.ts`), Swagger UI's policy on its page, and where origins are allowed,
       * `Vary: Origin` and, for an allowed origin, what its page may read.
       */
      const finish = (
        request: HttpServerRequest.HttpServerRequest,
        requestId: string,
        response: HttpServerResponse.HttpServerResponse
      ) => {
        const headers: Record<string, string> = {
          "x-request-id": requestId,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer"
        }
        if (request.headers.authorization !== undefined) headers["cache-control"] = "no-store"
        if (response.status === 401) headers["www-authenticate"] = "Bearer"
        addRateLimitHeaders(request, headers)
        if (response.status === 200 && isPath(request.url, docsPath)) {
          docsPolicy ??= docsPolicyOf(bodyText(response))
          headers["content-security-policy"] = docsPolicy
          headers["x-frame-options"] = "DENY"
        }
        if (isCorsOn) {
          const origin = request.headers.origin
          if (origin !== undefined && corsOrigins.has(origin.toLowerCase())) {
            headers["access-control-allow-origin"] = origin
            headers["access-control-expose-headers"] = CORS_EXPOSED_HEADERS
          }
          // Added to what the route varies on (the interface's files vary on `Accept-Encoding`).
          headers.vary = response.headers.vary === undefined ? "Origin" : `${response.headers.vary}, Origin`
        }
        return withHeaders(response, headers)
      }

      // The composition, outermost first. A request without a body and outside the documents goes
      // straight to the router; only when it finds no route is the route table consulted, to tell
      // 404 from 405. Every outcome is answered by `answerFailure` or the route, then stamped.
      const route = (request: HttpServerRequest.HttpServerRequest, httpEffect: Routed): Routed =>
        refuseFragment(
          request,
          refuseSemicolonInPath(
            request,
            requireHost(
              request,
              refuseTwoAuthorizations(
                request,
                answerPreflight(request, admitBody(request, checkDocumentKey(request, httpEffect)))
              )
            )
          )
        )
      return (httpEffect) =>
        Effect.withFiber((fiber) => {
          const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
          const requestId = requestIdFrom(request.headers["x-request-id"])
          const routed = route(request, httpEffect)
          return Effect.matchCauseEffect(routed, {
            onFailure: (cause) =>
              Effect.map(answerFailure(request, requestId, cause), (response) => finish(request, requestId, response)),
            onSuccess: (response) => Effect.succeed(finish(request, requestId, response))
          })
          // The router's type asks a global middleware to say that it answers every failure.
        }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>
    }),
    { global: true }
  )
