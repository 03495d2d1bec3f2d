/**
 * The `WebhookTransport` over HTTP: one POST per attempt, signed with the reference Standard
 * Webhooks library (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
 * of id.timestamp.body>`, keyed by the base64 part of the `whsec_` secret). The timestamp is the
 * wall clock at signing, not market time: receivers check it against their own clock to refuse
 * replays. Redirects are not followed (a 3xx is a failed attempt), and an attempt that has no
 * answer within 10 s fails.
 *
 * Unless private URLs are allowed, the address rule (`WebhookAddressRule.ts`) refuses a URL at
 * creation and at each attempt, whose socket connects only to the addresses the rule checked.
 */
import { type WebhookMessage, WebhookTransport } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { request as httpRequest, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP } from "node:net"
import { Webhook } from "standardwebhooks"
import { ATTEMPT_TIMEOUT_MS, httpFailure, isFailure, thrownFailure } from "./Failure.ts"
import { AddressRefused, publicAddressesOf, publicLookup, type WebhookAddressRule } from "./WebhookAddressRule.ts"

/** The URL's host as an address or name, without the brackets of an IPv6 literal. */
const bareHost = (url: string): string => new URL(url).hostname.replace(/^\[(.*)\]$/u, "$1")

/** How long checking a new subscription's host may take (resolving its name). */
const CHECK_TIMEOUT_MS = 5_000

/** One POST of `message`; answers the status. The body of the answer is not read: only the status counts. */
const post = (message: WebhookMessage, lookup: RequestOptions["lookup"], signal: AbortSignal): Promise<number> => {
  const url = new URL(message.url)
  const timestamp = new Date(Math.floor(Date.now() / 1_000) * 1_000)
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(message.body),
        "user-agent": "swapdesk-webhooks",
        "webhook-id": message.messageId,
        "webhook-timestamp": String(timestamp.getTime() / 1_000),
        "webhook-signature": new Webhook(message.secret).sign(message.messageId, timestamp, message.body)
      },
      // A fresh connection per attempt: a pooled socket would skip the lookup that checks the address.
      agent: false,
      ...(lookup === undefined ? {} : { lookup }),
      signal
    }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    // An abort by the time limit reports the `TimeoutError` itself, as an attempt's failure says.
    request.on("error", (error) => reject(signal.aborted ? signal.reason : error))
    request.end(message.body)
  })
}

/**
 * The webhook sender. With `allowPrivateUrls` (the simulator's default, where local receivers are
 * how tests listen) any host is taken; otherwise only public ones, checked as the rule says.
 */
export const layerWebhookSender = (rule: WebhookAddressRule) => {
  const lookup = rule.allowPrivateUrls ? undefined : publicLookup(rule.resolveAll)
  return Layer.succeed(WebhookTransport, {
    post: (message) =>
      Effect.tryPromise({
        try: async (interrupted) => {
          // A socket connects to an IP literal without a lookup: the rule checks it here.
          if (lookup !== undefined && isIP(bareHost(message.url)) !== 0) {
            await publicAddressesOf(bareHost(message.url), rule.resolveAll)
          }
          const signal = AbortSignal.any([interrupted, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)])
          const status = await post(message, lookup, signal)
          if (status < 200 || status > 299) throw httpFailure(status, "")
          return status
        },
        catch: (error) => isFailure(error) ? error : thrownFailure(error)
      }),
    checkUrl: (url) =>
      rule.allowPrivateUrls ? Effect.void : Effect.tryPromise({
        try: () => withTimeout(publicAddressesOf(new URL(url).hostname, rule.resolveAll), CHECK_TIMEOUT_MS),
        catch: (error) => ({
          reason: error instanceof AddressRefused
            ? `must reach a public address: ${error.message}`
            : `cannot be checked (${error instanceof Error ? error.message : String(error)})`
        })
      })
  })
}

/** `promise`, or a rejection with `AddressRefused` once `ms` have passed (a resolver that hangs). */
const withTimeout = <A>(promise: Promise<A>, ms: number): Promise<A> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AddressRefused(`the host was not resolved within ${ms / 1_000} s`)), ms)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}
