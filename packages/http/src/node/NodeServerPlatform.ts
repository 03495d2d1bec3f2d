/**
 * `ServerPlatform` on Node's HTTP server: the version and the raw header fields of the request's
 * `IncomingMessage`, `ECONNRESET` as the client resetting, and every method `node:http` parses.
 * Provide it where the server is served on Node (`serve(app).pipe(Layer.provide(NodeServerPlatform))`).
 */
import { Layer } from "effect"
import type { HttpServerRequest } from "effect/http"
import { type IncomingMessage, METHODS } from "node:http"
import { ServerPlatform } from "../ServerPlatform.ts"

/**
 * The request's `IncomingMessage`: on Node's server a request's published `source` is it (what
 * `@effect/platform-node`'s `NodeHttpServerRequest.toIncomingMessage` answers).
 */
const incoming = (request: HttpServerRequest.HttpServerRequest) => request.source as IncomingMessage

const fieldCount: ServerPlatform["fieldCount"] = (request, name) => {
  const raw = incoming(request).rawHeaders
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count++
  }
  return count
}

/** Node's HTTP server as `ServerPlatform` states it. */
export const NodeServerPlatform: Layer.Layer<never> = Layer.succeed(ServerPlatform, {
  httpVersion: (request) => incoming(request).httpVersion,
  fieldCount,
  isConnectionReset: (error) => (error as { readonly code?: unknown } | undefined)?.code === "ECONNRESET",
  methods: METHODS
})
