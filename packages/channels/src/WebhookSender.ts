/**
 * The `WebhookTransport` over HTTP: one POST per attempt, signed with the reference Standard
 * Webhooks library (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
 * of id.timestamp.body>`, keyed by the base64 part of the `whsec_` secret). The timestamp is the
 * wall clock at signing, not market time: receivers check it against their own clock to refuse
 * replays. Redirects are not followed (a 3xx is a failed attempt), and an attempt that has no
 * answer within 10 s fails.
 */
import { WebhookTransport } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { Webhook } from "standardwebhooks"
import { ATTEMPT_TIMEOUT_MS, httpFailure, isFailure, thrownFailure } from "./Failure.ts"

export const WebhookSenderLive = Layer.succeed(WebhookTransport, {
  post: (message) =>
    Effect.tryPromise({
      try: async (interrupted) => {
        const timestamp = new Date(Math.floor(Date.now() / 1_000) * 1_000)
        const response = await fetch(message.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "user-agent": "swapdesk-webhooks",
            "webhook-id": message.messageId,
            "webhook-timestamp": String(timestamp.getTime() / 1_000),
            "webhook-signature": new Webhook(message.secret).sign(message.messageId, timestamp, message.body)
          },
          body: message.body,
          redirect: "manual",
          signal: AbortSignal.any([interrupted, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)])
        })
        // The body is not read: only the status counts, and a receiver may send anything.
        void response.body?.cancel()
        if (response.status < 200 || response.status > 299) throw httpFailure(response.status, "")
        return response.status
      },
      catch: (error) => isFailure(error) ? error : thrownFailure(error)
    })
})
