/**
 * The router's answer to a method a path lacks, and the CORS preflight: for every path served, a
 * route for each other method the platform's parser lets through (`ServerPlatform`), answering
 * `405 METHOD_NOT_ALLOWED` with `Allow`, or, for a CORS preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) from an allowed origin, `204` with the path's methods and the
 * headers the API reads. So the router itself tells an unknown path (no route: 404) from a method
 * its path lacks (this route: 405), with the same matching of paths, trailing slashes and
 * parameters as the routes it stands beside. `HEAD` is left to the router where `GET` is served: it
 * answers `HEAD` as `GET`.
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { CORS_ALLOWED_HEADERS, CORS_MAX_AGE_SECONDS, CorsOrigins } from "../Cors.ts"
import { ServerPlatform } from "../ServerPlatform.ts"
import { type Answers, makeAnswers, pathOf } from "./Step.ts"

/** A route served, as the router is given it. */
export interface ServedRoute {
  readonly method: string
  readonly path: string
}

/** Each path's methods, in the order they were served, `HEAD` where `GET` is. */
const methodsByPath = (served: ReadonlyArray<ServedRoute>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const byPath = new Map<string, Array<string>>()
  for (const { method, path } of served) {
    const methods = byPath.get(path) ?? []
    if (!methods.includes(method)) methods.push(method)
    byPath.set(path, methods)
  }
  return byPath
}

const answerOf = (
  answers: Answers,
  corsOrigins: ReadonlySet<string>,
  methods: ReadonlyArray<string>
) => {
  const allowed = methods.join(", ")
  const preflight = HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-methods": (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", "),
      "access-control-allow-headers": CORS_ALLOWED_HEADERS,
      "access-control-max-age": CORS_MAX_AGE_SECONDS
    }
  })
  const isPreflight = (request: HttpServerRequest.HttpServerRequest): boolean => {
    if (request.method !== "OPTIONS" || corsOrigins.size === 0) return false
    const origin = request.headers.origin
    return origin !== undefined && request.headers["access-control-request-method"] !== undefined &&
      corsOrigins.has(origin.toLowerCase())
  }
  return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    isPreflight(request)
      ? Effect.succeed(preflight)
      : answers.envelope(
        "METHOD_NOT_ALLOWED",
        `${request.method} is not allowed on ${pathOf(request.url)}; use ${allowed}`,
        { headers: { allow: allowed } }
      ))
}

/** The routes of every method `served` paths lack. */
export const unservedMethods = (served: ReadonlyArray<ServedRoute>) =>
  HttpRouter.use((router) =>
    Effect.gen(function*() {
      const answers = yield* makeAnswers
      const corsOrigins = yield* CorsOrigins
      const { methods: parsed } = yield* ServerPlatform
      const routes: Array<HttpRouter.Route<never, never>> = []
      for (const [path, methods] of methodsByPath(served)) {
        const answer = answerOf(answers, corsOrigins, methods)
        for (const method of parsed) {
          if (methods.includes(method) || (method === "HEAD" && methods.includes("GET"))) continue
          // Every method the parser lets through has its route: the router takes more methods than its type names.
          routes.push(HttpRouter.route(method as "GET", path as HttpRouter.PathInput, answer))
        }
      }
      yield* router.addAll(routes)
    })
  )
