/**
 * The interface's one way to the server: `fetch` on the public `/v1` API with the signed-in key,
 * unwrapping the contract's envelopes. An error envelope becomes an `ApiError` carrying its code,
 * message and details, so every screen can show them as the API said them. Every response's
 * `RateLimit-*` headers and timestamp are recorded here: polling reads them to stay inside the
 * key's limit, and a `429` pauses it for `Retry-After` seconds (docs/interface.md).
 */
import { signal } from "@preact/signals"

/** One problem of a `VALIDATION_ERROR`. */
export interface ErrorDetail {
  readonly path: string
  readonly message: string
}

/** A failed call: the envelope's code and message, or `NETWORK_ERROR` when no answer came. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: ReadonlyArray<ErrorDetail>
  constructor(status: number, code: string, message: string, details: ReadonlyArray<ErrorDetail> = []) {
    super(message)
    this.status = status
    this.code = code
    this.details = details
  }
}

/** What the last response said about the key's budget; `resetAt` is in wall-clock milliseconds. */
export interface RateLimitState {
  readonly limit: number
  readonly remaining: number
  readonly resetAt: number
}

export const rateLimit = signal<RateLimitState | null>(null)

/** Wall-clock time before which polling stays quiet, after a `429`. */
export const pausedUntil = signal(0)

/** The server's clock as of the last envelope (market time on the simulator), and when it came. */
export const serverClock = signal<{ readonly at: number; readonly receivedAt: number } | null>(null)

/** The signed-in key; kept in `sessionStorage` only (Session.ts), never sent to any other origin. */
export const apiKey = signal<string | null>(null)

/**
 * The simulator's control key (`SIM_CONTROL_KEY`), which its `/v1/sim` routes require when the
 * server listens off loopback; kept in `sessionStorage` only (Session.ts), like the API key.
 */
export const controlKey = signal<string | null>(null)

/** Where the API is: the `/v1` beside the page's own origin. */
const apiBase = new URL("/v1", location.href).href

export type Query = Readonly<Record<string, string | number | undefined | null>>

export interface RequestOptions {
  readonly query?: Query
  readonly body?: unknown
  readonly idempotencyKey?: string
  /** Sent without any key (`GET /v1/health` before sign-in). */
  readonly anonymous?: boolean
  /**
   * A simulator control route (`/v1/sim/*`): sent with the control key when one is set, and with no
   * key otherwise (a loopback server needs none), never with the account's key.
   */
  readonly control?: boolean
  /** A key to use instead of the signed-in one (checking a key before keeping it). */
  readonly key?: string
}

export interface Answer<T> {
  readonly data: T
  readonly timestamp: string
  readonly status: number
}

const recordHeaders = (headers: Headers) => {
  const limit = Number(headers.get("ratelimit-limit"))
  const remaining = Number(headers.get("ratelimit-remaining"))
  const reset = Number(headers.get("ratelimit-reset"))
  if (headers.has("ratelimit-limit") && Number.isFinite(limit) && Number.isFinite(remaining)) {
    rateLimit.value = { limit, remaining, resetAt: Date.now() + (Number.isFinite(reset) ? reset : 60) * 1000 }
  }
}

const queryString = (query: Query | undefined): string => {
  if (query === undefined) return ""
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(name, String(value))
  }
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

/** Calls `method path` and answers the envelope's `data`, or fails with an `ApiError`. */
export const call = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> => {
  const headers: Record<string, string> = { accept: "application/json" }
  const key = options.control === true ? controlKey.value : options.key ?? apiKey.value
  if (key !== null && options.anonymous !== true) headers.authorization = `Bearer ${key}`
  if (options.body !== undefined) headers["content-type"] = "application/json"
  if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey
  let response: Response
  try {
    response = await fetch(`${apiBase}${path}${queryString(options.query)}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      credentials: "omit",
      cache: "no-store"
    })
  } catch (error) {
    throw new ApiError(0, "NETWORK_ERROR", `the server could not be reached (${(error as Error).message})`)
  }
  recordHeaders(response.headers)
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get("retry-after"))
    pausedUntil.value = Date.now() + (Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 5) * 1000
  }
  if (response.status === 204) return { data: undefined as T, timestamp: "", status: 204 }
  let envelope: any
  try {
    envelope = await response.json()
  } catch {
    throw new ApiError(response.status, "INVALID_RESPONSE", `the server answered ${response.status} without JSON`)
  }
  if (typeof envelope?.timestamp === "string") {
    const at = Date.parse(envelope.timestamp)
    if (Number.isFinite(at)) serverClock.value = { at, receivedAt: Date.now() }
  }
  if (envelope?.success === true) {
    return { data: envelope.data as T, timestamp: envelope.timestamp, status: response.status }
  }
  const error = envelope?.error ?? {}
  throw new ApiError(
    response.status,
    typeof error.code === "string" ? error.code : "INVALID_RESPONSE",
    typeof error.message === "string" ? error.message : `the server answered ${response.status}`,
    Array.isArray(error.details) ? error.details : []
  )
}

export const get = <T>(path: string, query?: Query, options: Omit<RequestOptions, "query"> = {}) =>
  call<T>("GET", path, { ...options, ...(query === undefined ? {} : { query }) }).then((answer) => answer.data)

/** A fresh idempotency key, so that a repeated submission of one intent places it once. */
export const newIdempotencyKey = (): string => crypto.randomUUID()
