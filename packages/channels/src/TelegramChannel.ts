/**
 * `telegram` notifications through the Bot API's `sendMessage`, to the account's chat id. The text
 * goes without `parse_mode`, so Telegram shows it as it is and interprets no markup in it.
 */
import type { AttemptFailure, Notification } from "@swapdesk/core"
import { Effect } from "effect"
import { ATTEMPT_TIMEOUT_MS, httpFailure, isFailure, thrownFailure } from "./Failure.ts"

export interface TelegramSettings {
  readonly botToken: string
  /** The Bot API base, without a trailing slash. */
  readonly apiUrl: string
}

export const makeTelegramChannel = (settings: TelegramSettings) => {
  const endpoint = `${settings.apiUrl.replace(/\/+$/, "")}/bot${settings.botToken}/sendMessage`
  return (notification: Notification): Effect.Effect<void, AttemptFailure> =>
    Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ chat_id: notification.to, text: notification.message }),
          signal: AbortSignal.any([signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)])
        })
        const answer = await response.json().catch(() => undefined) as
          | { readonly ok?: boolean; readonly description?: string }
          | undefined
        if (!response.ok || answer?.ok !== true) {
          throw httpFailure(response.status, answer?.description ?? "")
        }
      },
      catch: (error) => isFailure(error) ? error : thrownFailure(error)
    })
}
