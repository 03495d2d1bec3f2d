/**
 * `email` notifications over SMTP with nodemailer, to the account's address. `SMTP_URL` is
 * `smtp://user:pass@host:port` (STARTTLS when the server offers it) or `smtps://…` (TLS from the
 * start). The message is plain text, with an HTML part whose text is escaped.
 */
import type { AttemptFailure, Notification } from "@swapdesk/core"
import { Effect } from "effect"
import { createTransport } from "nodemailer"
import { ATTEMPT_TIMEOUT_MS, thrownFailure } from "./Failure.ts"

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" })[c]!)

export interface EmailSettings {
  readonly smtpUrl: string
  readonly from: string
}

/** One attempt to send `notification` by email. */
export const makeEmailChannel = (settings: EmailSettings) => {
  const url = new URL(settings.smtpUrl)
  const transport = createTransport({
    host: url.hostname,
    port: url.port === "" ? (url.protocol === "smtps:" ? 465 : 587) : Number(url.port),
    secure: url.protocol === "smtps:",
    ...(url.username === ""
      ? {}
      : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    connectionTimeout: ATTEMPT_TIMEOUT_MS,
    greetingTimeout: ATTEMPT_TIMEOUT_MS,
    socketTimeout: ATTEMPT_TIMEOUT_MS
  })
  return (notification: Notification): Effect.Effect<void, AttemptFailure> =>
    Effect.tryPromise({
      try: () =>
        transport.sendMail({
          from: settings.from,
          to: notification.to,
          subject: `swapdesk alert ${notification.alertId}`,
          text: notification.message,
          html: `<p>${escapeHtml(notification.message)}</p>`
        }),
      catch: thrownFailure
    }).pipe(Effect.asVoid)
}
