/**
 * The request hygiene step: what no route may see, refused before the router reads the request.
 *
 * - a request target with a `#` is `VALIDATION_ERROR`: a fragment stays with the client (RFC 9112,
 *   section 3.2), and the router would end the path at it and read a query after it;
 * - a path with a `;` is an unknown route (`NOT_FOUND`): no route or id has one, but the router ends
 *   a path at it (as some servers end it at `;jsessionid=…`), so `/v1/trades/x;y` would read `x`;
 * - an HTTP/1.1 request without `Host` is `VALIDATION_ERROR` (RFC 9112, section 3.2; Node is told
 *   to let it through so that it gets an envelope);
 * - two `Authorization` headers are `UNAUTHORIZED`: which one is meant cannot be known.
 *
 * The last two ask the platform (`ServerPlatform`): the version and the repeated fields of a head
 * are not in Effect's request, whose headers keep one field of each name.
 */
import type { ServerPlatform } from "../ServerPlatform.ts"
import { type Answers, pathOf, type Step } from "./Step.ts"

const hasFragment = (url: string): boolean => url.includes("#")

const hasSemicolonInPath = (url: string): boolean => {
  const semicolon = url.indexOf(";")
  if (semicolon === -1) return false
  const query = url.indexOf("?")
  return query === -1 || semicolon < query
}

const FRAGMENT_MESSAGE = "the request target must not contain '#': a fragment is not sent to a server"
const HOST_MESSAGE = "an HTTP/1.1 request must have a Host header"

/** The hygiene step: each check a property read or an `indexOf` on a request that passes. */
export const hygiene = ({ envelope }: Answers, platform: ServerPlatform): Step => {
  const withFragment = envelope("VALIDATION_ERROR", FRAGMENT_MESSAGE, {
    details: [{ path: "", message: FRAGMENT_MESSAGE }]
  })
  const withoutHost = envelope("VALIDATION_ERROR", HOST_MESSAGE, { details: [{ path: "", message: HOST_MESSAGE }] })
  const twoAuthorizations = envelope("UNAUTHORIZED", "send one Authorization header, not several")
  return (request, next) => {
    const url = request.url
    if (hasFragment(url)) return withFragment
    if (hasSemicolonInPath(url)) return envelope("NOT_FOUND", `no route for ${request.method} ${pathOf(url)}`)
    if (request.headers.host === undefined && platform.httpVersion(request) === "1.1") return withoutHost
    if (request.headers.authorization !== undefined && platform.fieldCount(request, "authorization") > 1) {
      return twoAuthorizations
    }
    return next
  }
}
