/**
 * Accounts, their plan and their notification settings.
 */
import { Schema } from "effect"

export const Plan = Schema.Literals(["free", "pro"])
export type Plan = typeof Plan.Type

export const Channel = Schema.Literals(["email", "push", "telegram"])
export type Channel = typeof Channel.Type

/** Where notifications go; `null` means the channel is not configured. */
export const NotificationSettings = Schema.Struct({
  email: Schema.NullOr(Schema.String),
  telegram: Schema.NullOr(Schema.Struct({ chatId: Schema.String })),
  push: Schema.NullOr(Schema.Struct({ deviceToken: Schema.String }))
})
export type NotificationSettings = typeof NotificationSettings.Type

/**
 * An account id a file declares (a scenario, a live configuration): `acct_` and 1 to 64 letters,
 * digits, `_` or `-`, so that it reads as an id wherever it is shown.
 */
export const DeclaredAccountId = Schema.String.check(
  Schema.isPattern(/^acct_[0-9A-Za-z_-]{1,64}$/, { message: "must be acct_ followed by letters, digits, _ or -" })
)

/** Notification settings a file declares: each channel optional, `null` for one not configured. */
export const NotificationSettingsInput = Schema.Struct({
  email: Schema.optionalKey(Schema.NullOr(Schema.String)),
  telegram: Schema.optionalKey(Schema.NullOr(Schema.Struct({ chatId: Schema.String }))),
  push: Schema.optionalKey(Schema.NullOr(Schema.Struct({ deviceToken: Schema.String })))
})

export const noNotifications: NotificationSettings = { email: null, telegram: null, push: null }

/** The address a channel delivers to, or undefined when the channel is not configured. */
export const channelAddress = (settings: NotificationSettings, channel: Channel): string | undefined => {
  switch (channel) {
    case "email":
      return settings.email ?? undefined
    case "telegram":
      return settings.telegram?.chatId
    case "push":
      return settings.push?.deviceToken
  }
}

export interface Account {
  readonly id: string
  readonly plan: Plan
  readonly notifications: NotificationSettings
}
