/**
 * Body admission, on the routes that take a body (`POST`, `PUT`, `PATCH`): a request reaches its
 * endpoint only with a body within 64 KiB, `application/json` (charset utf-8 at most) and not
 * encoded (`PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE` otherwise); a browser can send any other
 * type cross-site without a preflight. It wraps the route, so that the router has already told an
 * unknown path (404) and a method the path lacks (405) from it.
 */
import { REQUEST_BODY_MAX_BYTES } from "@swapdesk/core"
import { ByteSize, Context, Effect } from "effect"
import { type Headers, HttpIncomingMessage, HttpServerRequest } from "effect/http"
import type { Answers, Routed } from "./Step.ts"

/** The methods whose routes admit a body. */
export const METHODS_WITH_BODY: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH"])

/** Enforced on the bytes read, so that a chunked body without a length is held to it too. */
const BODY_LIMIT = ByteSize.bytes(REQUEST_BODY_MAX_BYTES)

/** `application/json`, with at most a `charset=utf-8` parameter (docs/reference/http-api.md, "Conventions"). */
const JSON_MEDIA_TYPE = /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*("utf-8"|utf-8)[ \t]*)?$/i

/** Whether a body follows the request's head: a non-zero length, or chunks. */
const hasBody = (headers: Headers.Headers): boolean =>
  headers["transfer-encoding"] !== undefined ||
  (headers["content-length"] !== undefined && headers["content-length"] !== "0")

/** `route`, admitting only the bodies above, and reading at most 64 KiB of one. */
export const admitBody = ({ envelope, tooLarge }: Answers) => (route: Routed): Routed => {
  const limited = Effect.provideService(route, HttpIncomingMessage.MaxBodySize, BODY_LIMIT)
  return Effect.withFiber((fiber) => {
    const headers = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest).headers
    if (Number(headers["content-length"] ?? "0") > REQUEST_BODY_MAX_BYTES) return tooLarge
    const contentType = headers["content-type"]
    if (contentType === undefined ? hasBody(headers) : !JSON_MEDIA_TYPE.test(contentType)) {
      return envelope(
        "UNSUPPORTED_MEDIA_TYPE",
        contentType === undefined
          ? "send the body with Content-Type: application/json"
          : `send the body as application/json (charset utf-8 at most), not ${contentType}`
      )
    }
    const encoding = headers["content-encoding"]
    if (encoding !== undefined) {
      return envelope("UNSUPPORTED_MEDIA_TYPE", `send the body unencoded, without Content-Encoding (${encoding})`)
    }
    return limited
  })
}
