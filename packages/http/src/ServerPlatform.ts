/**
 * What the HTTP server a request arrived on knows of it beyond Effect's `HttpServerRequest`: the
 * HTTP version, how many times a header field stood in the head (a parser keeps one of repeated
 * fields), whether a body read failed because the client reset the connection, and which methods
 * its parser lets through. The global middleware's checks read these (a missing `Host`, two
 * `Authorization` fields, a client gone, a `405` for every method a path lacks).
 *
 * The default knows only what every platform's request carries, so a check that needs more is
 * skipped rather than guessed; `@swapdesk/http/node` provides Node's (`NodeServerPlatform`).
 */
import { Context } from "effect"
import type { HttpServerRequest } from "effect/http"

/** What a platform tells of a request beyond Effect's `HttpServerRequest`. */
export interface ServerPlatform {
  /** The request's HTTP version (`"1.0"`, `"1.1"`, `"2.0"`), when the platform tells it. */
  readonly httpVersion: (request: HttpServerRequest.HttpServerRequest) => string | undefined
  /** How many fields named `name` (lower case) the request's head had. */
  readonly fieldCount: (request: HttpServerRequest.HttpServerRequest, name: string) => number
  /** Whether `error`, a failure reading the request's body, is the client resetting its connection. */
  readonly isConnectionReset: (error: unknown) => boolean
  /** Every method the platform's parser lets through to a route. */
  readonly methods: ReadonlyArray<string>
}

/** The methods HTTP defines (RFC 9110, section 9, and `PATCH`, RFC 5789). */
const HTTP_METHODS: ReadonlyArray<string> = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "DELETE",
  "CONNECT",
  "OPTIONS",
  "TRACE",
  "PATCH"
]

/** The platform the server runs on: what any platform tells, unless a platform's layer says more. */
export const ServerPlatform = Context.Reference<ServerPlatform>("@swapdesk/http/ServerPlatform", {
  defaultValue: () => ({
    httpVersion: () => undefined,
    fieldCount: (request, name) => request.headers[name] === undefined ? 0 : 1,
    isConnectionReset: () => false,
    methods: HTTP_METHODS
  })
})
