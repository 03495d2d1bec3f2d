/**
 * Alerts on the wire (the spec's Alert table): the creation form, the form lists and reads show,
 * and a page of them. The wire's value rules are in `WireFormats`.
 */
import { Schema } from "effect"
import { Channel } from "./Account.ts"
import type { AlertRecord } from "./Alert.ts"
import { AlertCondition, AlertStatus, AlertType } from "./Alert.ts"
import { PageView, pageView } from "./ListViews.ts"
import { toIso } from "./MarketClock.ts"
import type { Page } from "./Page.ts"
import { IsoDateTime, isoOrNull } from "./WireFormats.ts"

/**
 * Exactly the spec's Alert table. The optional settings of the other types (`multiplier`,
 * `minValueUsd`, `changePercent`) are accepted at creation and kept in the alert, but no view shows
 * them: the spec lists the fields an alert has, and these are not among them.
 */
const alertFields = {
  id: Schema.String,
  type: AlertType,
  /** Absent for portfolio alerts. */
  token: Schema.optionalKey(Schema.String),
  /** Price alerts only. */
  condition: Schema.optionalKey(AlertCondition),
  /** Price alerts only: the USD threshold. */
  targetPrice: Schema.optionalKey(Schema.Finite),
  channel: Channel,
  status: AlertStatus,
  createdAt: IsoDateTime
}

/** `POST /alerts` `data`: the alert without `triggeredAt` (the spec's creation form). */
export const AlertCreatedView = Schema.Struct(alertFields)
export type AlertCreatedView = typeof AlertCreatedView.Type

/** An alert in `GET /alerts`, `GET /alerts/{id}` and `PATCH /alerts/{id}`: with `triggeredAt`. */
export const AlertView = Schema.Struct({ ...alertFields, triggeredAt: Schema.NullOr(IsoDateTime) })
export type AlertView = typeof AlertView.Type

/** `GET /alerts` `data`. */
export const AlertListView = PageView("alerts", AlertView)
export type AlertListView = typeof AlertListView.Type

/** The rule's fields that the spec's Alert table lists for its type. */
const ruleFields = (rule: AlertRecord["rule"]) => {
  switch (rule.type) {
    case "price":
      return { token: rule.token, condition: rule.condition, targetPrice: rule.targetPrice }
    case "volume":
    case "whale":
      return { token: rule.token }
    case "portfolio":
      return {}
  }
}

/** The creation form of an alert. */
export const alertCreatedView = (alert: AlertRecord): AlertCreatedView => ({
  id: alert.id,
  type: alert.rule.type,
  ...ruleFields(alert.rule),
  channel: alert.channel,
  status: alert.status,
  createdAt: toIso(alert.createdAt)
})

/** An alert as lists and single reads show it. */
export const alertView = (alert: AlertRecord): AlertView => ({
  ...alertCreatedView(alert),
  triggeredAt: isoOrNull(alert.triggeredAt)
})

/** A page of alerts as `GET /alerts` answers it. */
export const alertListView: (page: Page<AlertRecord>) => AlertListView = pageView("alerts", alertView)
