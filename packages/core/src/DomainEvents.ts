/**
 * Port: where the domain announces what happened (a trade confirmed, an alert fired). Webhook
 * delivery and the simulator's event log both listen here.
 */
import { Context, type Effect } from "effect"

export interface DomainEvent {
  readonly type: string
  readonly accountId: string
  /** JSON-ready payload, as a webhook would carry it. */
  readonly data: Readonly<Record<string, unknown>>
}

export class DomainEvents extends Context.Service<DomainEvents, {
  readonly publish: (event: DomainEvent) => Effect.Effect<void>
}>()("@swapdesk/core/DomainEvents") {}
