/**
 * Port: one signed HTTP delivery of a webhook message (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`). Signing needs an HMAC and sending needs a network,
 * so both live in an adapter; retries and the delivery log are the core's (`WebhookDispatch`).
 */
import { Context, Effect, Layer } from "effect"
import type { AttemptFailure } from "./Deliveries.ts"

export interface WebhookMessage {
  readonly url: string
  /** `whsec_…`: the subscription's signing secret. */
  readonly secret: string
  /** The `webhook-id` header: the same on every attempt of one message. */
  readonly messageId: string
  /** The JSON body, exactly as signed and sent. */
  readonly body: string
}

export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** One attempt; succeeds with the receiver's 2xx status, fails with any other or no answer. */
  readonly post: (message: WebhookMessage) => Effect.Effect<number, AttemptFailure>
}>()("@swapdesk/core/WebhookTransport") {
  /** No network: every attempt fails (a world run in-process without HTTP). */
  static readonly layerNone = Layer.succeed(WebhookTransport, {
    post: () => Effect.fail({ reason: "no webhook transport in this deployment" })
  })
}
