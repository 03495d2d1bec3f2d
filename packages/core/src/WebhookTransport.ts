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

/** Why a URL may not receive webhooks, in words for the `400 VALIDATION_ERROR` that refuses it. */
export interface WebhookUrlRefused {
  readonly reason: string
}

export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** One attempt; succeeds with the receiver's 2xx status, fails with any other or no answer. */
  readonly post: (message: WebhookMessage) => Effect.Effect<number, AttemptFailure>
  /**
   * Whether this transport may deliver to `url` (an `http(s)` URL), checked when a subscription is
   * created: a deployment refuses hosts it must not reach (docs/alerts.md#webhooks). Delivery
   * checks again, since what a name resolves to can change.
   */
  readonly checkUrl: (url: string) => Effect.Effect<void, WebhookUrlRefused>
}>()("@swapdesk/core/WebhookTransport") {
  /** No network: every URL is taken and every attempt fails (a world run in-process without HTTP). */
  static readonly layerNone = Layer.succeed(WebhookTransport, {
    post: () => Effect.fail({ reason: "no webhook transport in this deployment" }),
    checkUrl: () => Effect.void
  })
}
