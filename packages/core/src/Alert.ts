/**
 * The alert record: a condition the account watches (price, volume, whale or portfolio) and the
 * channel that tells it when the condition is met.
 */
import { Schema } from "effect"
import type { Channel } from "./Account.ts"

export const AlertType = Schema.Literals(["price", "volume", "whale", "portfolio"])
export type AlertType = typeof AlertType.Type

export const AlertStatus = Schema.Literals(["active", "triggered", "disabled"])
export type AlertStatus = typeof AlertStatus.Type

export const AlertCondition = Schema.Literals(["above", "below"])
export type AlertCondition = typeof AlertCondition.Type

/** Defaults of the optional, type-specific fields (docs/reference/http-api.md#alerts). */
export const alertDefaults = { multiplier: 3, minValueUsd: 100_000, changePercent: 10 } as const

/** What an alert watches; the fields that belong to its type and no others. */
export type AlertRule =
  | { readonly type: "price"; readonly token: string; readonly condition: AlertCondition; readonly targetPrice: number }
  | { readonly type: "volume"; readonly token: string; readonly multiplier: number }
  | { readonly type: "whale"; readonly token: string; readonly minValueUsd: number }
  | { readonly type: "portfolio"; readonly changePercent: number }

export interface AlertRecord {
  readonly id: string
  readonly accountId: string
  readonly rule: AlertRule
  readonly channel: Channel
  readonly status: AlertStatus
  readonly createdAt: number
  readonly triggeredAt: number | null
  /** When monitoring last (re)started: only observations after it can fire the alert. */
  readonly armedAt: number
}

/** The token an alert watches, if any (portfolio alerts watch the whole account). */
export const alertToken = (rule: AlertRule): string | undefined => rule.type === "portfolio" ? undefined : rule.token
