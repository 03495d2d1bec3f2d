/**
 * The response stamp: every answer gets the server's own headers in one step, whoever made it
 * (docs/reference/http-api.md, "Security headers and CORS"): its `X-Request-Id`, the security
 * headers (`SecurityHeaders.ts`), `no-store` when the request carried a key, the `Bearer` challenge
 * on a 401, the rate limiter's figures, Swagger UI's policy on its page, and where origins are
 * allowed, `Vary: Origin` and, for an allowed origin, what its page may read. They are set with one
 * `HttpServerResponse.setHeaders` (each `setHeader` copies the header map and the response), given
 * as a list of name and value pairs, which `setHeaders` takes as they are, where a record would be
 * copied into a list first (measured in `docs/performance.md`). The rate limiter's figures
 * (`RateLimit-*`, and `Retry-After` over the limit) come from the request's notes (`RequestNotes.ts`).
 */
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { CORS_EXPOSED_HEADERS } from "../Cors.ts"
import { sha256Base64 } from "../Digest.ts"
import { pageSecurityHeaders, SECURITY_HEADERS } from "../SecurityHeaders.ts"
import type { RateLimitFigures, RequestNotes } from "./RequestNotes.ts"

/** Response headers as the stamp gathers them: name and value pairs, names in lower case. */
export type HeaderPairs = Array<readonly [name: string, value: string]>

/** Adds the headers of the rate limiter's decision, if there was one, to `headers`. */
export const addRateLimitHeaders = (figures: RateLimitFigures | undefined, headers: HeaderPairs): void => {
  if (figures === undefined) return
  const reset = String(figures.resetSeconds)
  headers.push(
    ["ratelimit-limit", String(figures.limit)],
    ["ratelimit-remaining", String(figures.remaining)],
    ["ratelimit-reset", reset]
  )
  if (figures.over) headers.push(["retry-after", reset])
}

/**
 * Swagger UI's policy: its own inline script and stylesheet only (by their SHA-256), data: images,
 * requests to this origin ("Try it out"), and no framing. Computed from the page itself, once.
 */
const docsPolicyOf = (page: string): string => {
  const hashes = (tag: "script" | "style") =>
    [...page.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))]
      .map((match) => `'sha256-${sha256Base64(match[1]!)}'`)
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

/** Whether `url` names `path`, as the router matches it (trailing slashes forgiven). */
const isPath = (url: string, path: string): boolean => {
  if (!url.startsWith(path)) return false
  const query = url.indexOf("?")
  return (query === -1 ? url : url.slice(0, query)).replace(/\/+$/, "") === path
}

/** Pairs of `record`, made once. */
const pairsOf = (record: Readonly<Record<string, string>>): ReadonlyArray<readonly [string, string]> =>
  Object.freeze(Object.entries(record).map((pair) => Object.freeze(pair)))

const SECURITY_PAIRS = pairsOf(SECURITY_HEADERS)
const NO_STORE = Object.freeze(["cache-control", "no-store"] as const)
const BEARER_CHALLENGE = Object.freeze(["www-authenticate", "Bearer"] as const)

/**
 * The step: `stamp(request, requestId, response, notes)` is `response` with the server's headers,
 * the rate limiter's among them as the request's `notes` hold its decision.
 */
export const makeStamp = (corsOrigins: ReadonlySet<string>, docsPath: string) => {
  let docsPairs: ReadonlyArray<readonly [string, string]> | undefined
  const isCorsOn = corsOrigins.size > 0
  return (
    request: HttpServerRequest.HttpServerRequest,
    requestId: string,
    response: HttpServerResponse.HttpServerResponse,
    notes?: RequestNotes
  ): HttpServerResponse.HttpServerResponse => {
    const headers: HeaderPairs = [["x-request-id", requestId], ...SECURITY_PAIRS]
    if (request.headers.authorization !== undefined) headers.push(NO_STORE)
    if (response.status === 401) headers.push(BEARER_CHALLENGE)
    addRateLimitHeaders(notes?.rateLimit, headers)
    if (response.status === 200 && isPath(request.url, docsPath)) {
      docsPairs ??= pairsOf(pageSecurityHeaders(docsPolicyOf(bodyText(response))))
      headers.push(...docsPairs)
    }
    if (isCorsOn) {
      const origin = request.headers.origin
      if (origin !== undefined && corsOrigins.has(origin.toLowerCase())) {
        headers.push(["access-control-allow-origin", origin], ["access-control-expose-headers", CORS_EXPOSED_HEADERS])
      }
      // Added to what the route varies on (the interface's files vary on `Accept-Encoding`).
      headers.push(["vary", response.headers.vary === undefined ? "Origin" : `${response.headers.vary}, Origin`])
    }
    return HttpServerResponse.setHeaders(response, headers)
  }
}
