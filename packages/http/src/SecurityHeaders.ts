/**
 * The security headers every response of the server carries, whoever answers it: the API, its
 * documents, the interface's files and the answers to requests Node's parser refuses
 * (docs/reference/http-api.md, "Security headers and CORS"). Defined here once; pages add their own
 * `Content-Security-Policy` and `X-Frame-Options` (`PAGE_SECURITY_HEADERS`).
 */

/** On every response: no content sniffing, no referrer sent on from a page of the server's. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
})

/** On a page, beside its `Content-Security-Policy`: it may not be framed. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...SECURITY_HEADERS,
  "x-frame-options": "DENY"
})

/** The security headers of a page whose `Content-Security-Policy` is `policy`. */
export const pageSecurityHeaders = (policy: string): Readonly<Record<string, string>> =>
  Object.freeze({ "content-security-policy": policy, ...PAGE_SECURITY_HEADERS })
