/**
 * `push` notifications through FCM HTTP v1: `POST /v1/projects/{project_id}/messages:send` with
 * the account's device token, authorised by an OAuth access token that the service account's
 * own key obtains from its `token_uri` (a JWT signed RS256 with node:crypto, exchanged under the
 * `jwt-bearer` grant). The token is kept until a minute before it expires, and dropped when FCM
 * refuses it.
 */
import type { AttemptFailure, Notification } from "@swapdesk/core"
import { Effect } from "effect"
import { createSign } from "node:crypto"
import { ATTEMPT_TIMEOUT_MS, httpFailure, isFailure, thrownFailure } from "./Failure.ts"

/** The fields of a Firebase service-account file that the flow uses. */
export interface ServiceAccount {
  readonly project_id: string
  readonly client_email: string
  readonly private_key: string
  readonly private_key_id?: string
  readonly token_uri: string
}

/** Reads a service-account file's JSON, naming the first field it lacks. */
export const parseServiceAccount = (json: unknown): ServiceAccount => {
  const file = json as Partial<Record<keyof ServiceAccount, unknown>> | null
  for (const field of ["project_id", "client_email", "private_key", "token_uri"] as const) {
    if (typeof file?.[field] !== "string" || file[field] === "") throw new Error(`it has no "${field}"`)
  }
  return file as ServiceAccount
}

const MESSAGING_SCOPE = "https://www.googleapis.com/auth/firebase.messaging"

const base64Url = (data: string | Buffer) => Buffer.from(data).toString("base64url")

/** The signed assertion the token endpoint exchanges for an access token (RFC 7523). */
export const serviceAccountAssertion = (account: ServiceAccount, nowSeconds: number): string => {
  const header = {
    alg: "RS256",
    typ: "JWT",
    ...(account.private_key_id === undefined ? {} : { kid: account.private_key_id })
  }
  const claims = {
    iss: account.client_email,
    scope: MESSAGING_SCOPE,
    aud: account.token_uri,
    iat: nowSeconds,
    exp: nowSeconds + 3_600
  }
  const signingInput = `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}`
  const signature = createSign("RSA-SHA256").update(signingInput).sign(account.private_key)
  return `${signingInput}.${base64Url(signature)}`
}

export interface FcmSettings {
  readonly account: ServiceAccount
  /** The FCM base, without a trailing slash. */
  readonly apiUrl: string
}

export const makeFcmChannel = (settings: FcmSettings) => {
  const { account } = settings
  const endpoint = `${settings.apiUrl.replace(/\/+$/, "")}/v1/projects/${
    encodeURIComponent(account.project_id)
  }/messages:send`
  let cached: { readonly token: string; readonly renewAtMs: number } | undefined

  const accessToken = async (signal: AbortSignal): Promise<string> => {
    if (cached !== undefined && Date.now() < cached.renewAtMs) return cached.token
    const response = await fetch(account.token_uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion: serviceAccountAssertion(account, Math.floor(Date.now() / 1_000))
      }),
      signal
    })
    const answer = await response.json().catch(() => undefined) as
      | { readonly access_token?: string; readonly expires_in?: number; readonly error_description?: string }
      | undefined
    if (!response.ok || typeof answer?.access_token !== "string") {
      throw httpFailure(response.status, `token endpoint: ${answer?.error_description ?? "no access token"}`)
    }
    cached = { token: answer.access_token, renewAtMs: Date.now() + ((answer.expires_in ?? 3_600) - 60) * 1_000 }
    return cached.token
  }

  return (notification: Notification): Effect.Effect<void, AttemptFailure> =>
    Effect.tryPromise({
      try: async (interrupted) => {
        const signal = AbortSignal.any([interrupted, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)])
        const response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${await accessToken(signal)}` },
          body: JSON.stringify({
            message: {
              token: notification.to,
              notification: { title: "swapdesk alert", body: notification.message },
              data: { alertId: notification.alertId }
            }
          }),
          signal
        })
        if (response.status === 401) cached = undefined
        if (!response.ok) throw httpFailure(response.status, await response.text().catch(() => ""))
      },
      catch: (error) => isFailure(error) ? error : thrownFailure(error)
    })
}
