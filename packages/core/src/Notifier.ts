/**
 * Port: sends a notification on one channel. The simulator records it in its outbox.
 */
import { Context, type Effect } from "effect"
import type { Channel } from "./Account.ts"

export interface Notification {
  readonly channel: Channel
  /** The channel's address: an email address, a Telegram chat id or a push device token. */
  readonly to: string
  readonly alertId: string
  readonly message: string
}

export class Notifier extends Context.Service<Notifier, {
  readonly send: (notification: Notification) => Effect.Effect<void>
}>()("@swapdesk/core/Notifier") {}
