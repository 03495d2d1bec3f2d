/**
 * `ServerPlatform` on Node's HTTP server: the version and the raw header fields of the request's
 * `IncomingMessage`, `ECONNRESET` as the client resetting, and every method `node:http` parses.
 * Provide it where the server is served on Node (`serve(app).pipe(Layer.provide(NodeServerPlatform))`).
 */
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Layer, Predicate } from "effect"
import { METHODS } from "node:http"
import { ServerPlatform } from "../ServerPlatform.ts"

const fieldCount: ServerPlatform["fieldCount"] = (request, name) => {
  const raw = NodeHttpServerRequest.toIncomingMessage(request).rawHeaders
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) count++
  }
  return count
}

/** Node's HTTP server as `ServerPlatform` states it. */
export const NodeServerPlatform: Layer.Layer<never> = Layer.succeed(ServerPlatform, {
  httpVersion: (request) => NodeHttpServerRequest.toIncomingMessage(request).httpVersion,
  fieldCount,
  isConnectionReset: (error) => Predicate.hasProperty(error, "code") && error.code === "ECONNRESET",
  methods: METHODS
})
