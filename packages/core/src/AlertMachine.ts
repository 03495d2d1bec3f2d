/**
 * The alert state machine as a pure function: the spec's table plus the contract's disable and
 * re-arm. Firing an alert that is not active is a defect (the monitor only evaluates active
 * alerts); enabling and disabling are idempotent, so a client cannot provoke an illegal move.
 *
 * | status    | event   | next      | also                                   |
 * |-----------|---------|-----------|----------------------------------------|
 * | active    | Fire    | triggered | triggeredAt set; notification sent     |
 * | active    | Disable | disabled  | monitoring paused, configuration kept  |
 * | triggered | Disable | disabled  | stops counting toward the Free limit   |
 * | disabled  | Disable | disabled  | nothing                                |
 * | disabled  | Enable  | active    | re-armed: monitoring restarts now      |
 * | triggered | Enable  | active    | re-armed: monitoring restarts now      |
 * | active    | Enable  | active    | nothing                                |
 */
import { Data } from "effect"
import type { AlertRecord, AlertStatus } from "./Alert.ts"

export type AlertEvent = Data.TaggedEnum<{
  Fire: { readonly at: number }
  Disable: {}
  Enable: { readonly at: number }
}>
export const AlertEvent = Data.taggedEnum<AlertEvent>()

/** Every legal (status, event) pair and the status it leads to. */
export const alertTransitions: ReadonlyArray<
  { readonly from: AlertStatus; readonly event: AlertEvent["_tag"]; readonly to: AlertStatus }
> = [
  { from: "active", event: "Fire", to: "triggered" },
  { from: "active", event: "Disable", to: "disabled" },
  { from: "triggered", event: "Disable", to: "disabled" },
  { from: "disabled", event: "Disable", to: "disabled" },
  { from: "disabled", event: "Enable", to: "active" },
  { from: "triggered", event: "Enable", to: "active" },
  { from: "active", event: "Enable", to: "active" }
]

export class IllegalAlertTransition extends Data.TaggedError("IllegalAlertTransition")<{
  readonly id: string
  readonly status: AlertStatus
  readonly event: AlertEvent["_tag"]
}> {}

export const applyAlertEvent = (alert: AlertRecord, event: AlertEvent): AlertRecord => {
  const row = alertTransitions.find((t) => t.from === alert.status && t.event === event._tag)
  if (row === undefined) throw new IllegalAlertTransition({ id: alert.id, status: alert.status, event: event._tag })
  switch (event._tag) {
    case "Fire":
      return { ...alert, status: "triggered", triggeredAt: event.at }
    case "Disable":
      return { ...alert, status: "disabled" }
    case "Enable":
      return alert.status === "active" ? alert : { ...alert, status: "active", armedAt: event.at }
  }
}

/** Alerts in these statuses count toward the Free plan's limit. */
export const countsTowardLimit = (status: AlertStatus): boolean => status === "active" || status === "triggered"
