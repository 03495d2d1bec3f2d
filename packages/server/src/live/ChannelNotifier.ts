/**
 * `Notifier` in live mode: a notification whose channel the deployment configured (`SMTP_URL`,
 * `TELEGRAM_BOT_TOKEN`, `FCM_SERVICE_ACCOUNT`: docs/alerts.md#channels) leaves on it, with the same
 * retries as on the simulator, on the wall clock; its outcome is logged. A live server has no
 * outbox route (that is the simulator's `/v1/sim/outbox`), so one on a channel that is not
 * configured is logged as not sent, at `warn`: the account asked for it and the operator must know
 * (docs/decisions.md, "Live notifications").
 */
import { makeChannelNotifier, Notifier } from "@swapdesk/core"
import { Effect, Layer } from "effect"

/** The notification's identity in a log line: the alert and the channel, never the message or the address. */
const annotations = (notification: { readonly alertId: string; readonly channel: string }) => ({
  alert: notification.alertId,
  channel: notification.channel
})

/** Requires the configured channels (`ChannelTransport`), the clock and the timer. */
export const layerChannelNotifier = Layer.effect(
  Notifier,
  makeChannelNotifier({
    notConfigured: (notification) =>
      Effect.logWarning("notification not sent: its channel is not configured").pipe(
        Effect.annotateLogs(annotations(notification))
      ),
    sending: (notification) =>
      Effect.succeed(({ attempt, status }) => {
        const log = status === "sent"
          ? Effect.logInfo("notification sent")
          : status === "failed"
          ? Effect.logWarning("notification failed after its last attempt")
          : Effect.logInfo("notification attempt failed, retrying")
        return log.pipe(Effect.annotateLogs({ ...annotations(notification), attempt }))
      })
  })
)
