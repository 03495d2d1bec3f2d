/**
 * A `Notifier` over the deployment's real channels (`ChannelTransport`): a notification on a
 * configured channel leaves on it with the notification back-off (`Deliveries`), and one on a channel
 * that is not configured is not sent. Only what is kept of each notification differs between the
 * simulator (its outbox) and a live server (its log), so that is all each of them gives.
 */
import { Effect } from "effect"
import { ChannelTransport } from "./ChannelTransport.ts"
import { DeliveriesUnderway, deliverWithRetries, notificationRetryDelaysMs } from "./Deliveries.ts"
import { MarketClock } from "./MarketClock.ts"
import { MarketTimer } from "./MarketTimer.ts"
import type { Notification, Notifier } from "./Notifier.ts"

/** How one attempt to send ended: `retrying` while another attempt is still due. */
export interface ChannelAttemptOutcome {
  readonly attempt: number
  readonly status: "sent" | "retrying" | "failed"
}

/** What a channel notifier keeps of each notification. */
export interface ChannelNotifierRecords {
  /** A notification whose channel is not configured: it is not sent. */
  readonly notConfigured: (notification: Notification) => Effect.Effect<void>
  /** A notification about to leave on its channel; answers how to keep each attempt's outcome. */
  readonly sending: (
    notification: Notification
  ) => Effect.Effect<(outcome: ChannelAttemptOutcome) => Effect.Effect<void>>
}

/** The notifier; requires the configured channels, the clock and the timer the retries wait on. */
export const makeChannelNotifier = (
  records: ChannelNotifierRecords
): Effect.Effect<Notifier["Service"], never, ChannelTransport | MarketClock | MarketTimer> =>
  Effect.gen(function*() {
    const transport = yield* ChannelTransport
    const clock = yield* MarketClock
    const timer = yield* MarketTimer
    const underway = yield* DeliveriesUnderway
    return {
      send: (notification) =>
        Effect.suspend(() => {
          if (!transport.configured(notification.channel)) return records.notConfigured(notification)
          return Effect.flatMap(records.sending(notification), (keep) =>
            deliverWithRetries({
              attempt: () => Effect.as(transport.send(notification), undefined),
              delaysMs: notificationRetryDelaysMs,
              report: (report) =>
                report._tag === "Started" ? Effect.void : keep({
                  attempt: report.attempt,
                  status: report._tag === "Succeeded" ? "sent" : report.nextAttemptAt === null ? "failed" : "retrying"
                })
            }))
        }).pipe(
          Effect.provideService(MarketClock, clock),
          Effect.provideService(MarketTimer, timer),
          Effect.provideService(DeliveriesUnderway, underway)
        )
    }
  })
