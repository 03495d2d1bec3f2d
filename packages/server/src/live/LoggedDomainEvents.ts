/**
 * `DomainEvents` in live mode: webhooks already hear every event (core's `WebhookDispatch` sits in
 * front of this port), so what remains is the operator's record: one `debug` log line per event,
 * its type and account. The payload stays out of the log: it repeats what the database keeps.
 */
import { DomainEvents } from "@swapdesk/core"
import { Effect, Layer } from "effect"

/** Each event as a `debug` log line. */
export const layerLoggedDomainEvents = Layer.succeed(DomainEvents, {
  publish: (event) =>
    Effect.logDebug("domain event").pipe(Effect.annotateLogs({ event: event.type, account: event.accountId }))
})
