/**
 * Which web origins may call the API from a browser (`CORS_ORIGINS`; docs/reference/http-api.md,
 * "CORS"). None by default: a browser page on another origin can then read no answer.
 */
import { Context, Result } from "effect"

/** The origins allowed, each as a browser sends it in `Origin` (`scheme://host[:port]`, lower case). */
export const CorsOrigins = Context.Reference<ReadonlySet<string>>("@swapdesk/http/CorsOrigins", {
  defaultValue: () => new Set()
})

const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](:[0-9]{1,5})?$/

/**
 * A comma-separated list of origins, as `CORS_ORIGINS` holds it (blanks around commas ignored; an
 * empty text is none), in lower case; or, as the failure, why it is not one: an origin has a scheme
 * and a host, and no path.
 */
export const parseCorsOrigins = (text: string): Result.Result<ReadonlyArray<string>, string> => {
  const origins = text.split(",").map((origin) => origin.trim()).filter((origin) => origin !== "")
  const refused = origins.find((origin) => !ORIGIN.test(origin.toLowerCase()))
  return refused === undefined
    ? Result.succeed(origins.map((origin) => origin.toLowerCase()))
    : Result.fail(`${JSON.stringify(refused)} is not an origin (scheme://host[:port], http or https, no path)`)
}

/** The request headers the API reads, allowed in a preflight. */
export const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
/** The response headers a page may read. */
export const CORS_EXPOSED_HEADERS =
  "X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed"
/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE_SECONDS = "600"
