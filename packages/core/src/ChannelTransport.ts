/**
 * Port: the real channels a notification can leave by (SMTP, the Telegram Bot API, FCM), one
 * attempt at a time; retries are the caller's (`Deliveries`). Which channels are configured is a
 * deployment setting: an unconfigured channel's notifications are only recorded.
 */
import { Context, Effect, Layer } from "effect"
import type { Channel } from "./Account.ts"
import type { AttemptFailure } from "./Deliveries.ts"
import type { Notification } from "./Notifier.ts"

export class ChannelTransport extends Context.Service<ChannelTransport, {
  readonly configured: (channel: Channel) => boolean
  /** One attempt to send on the notification's channel. */
  readonly send: (notification: Notification) => Effect.Effect<void, AttemptFailure>
}>()("@swapdesk/core/ChannelTransport") {
  /** No real channel: every notification is recorded only. */
  static readonly layerNone = Layer.succeed(ChannelTransport, {
    configured: () => false,
    send: (notification) => Effect.fail({ reason: `the ${notification.channel} channel is not configured` })
  })
}
