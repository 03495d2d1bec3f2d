/**
 * The real channels a deployment configures (docs/alerts.md#channels), read from the server's
 * settings: `SMTP_URL` and `EMAIL_FROM` for email, `TELEGRAM_BOT_TOKEN` and `TELEGRAM_API_URL`
 * for Telegram, `FCM_SERVICE_ACCOUNT` and `FCM_API_URL` for push. A channel whose setting is absent
 * is not configured: its notifications are recorded only. A setting that is present but unusable
 * (a URL that does not parse, a service-account file that cannot be read) stops the server at
 * start, with a message naming it, rather than failing every notification later.
 */
import { ChannelTransport, type Notification } from "@swapdesk/core"
import { Config, Data, Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { makeEmailChannel } from "./EmailChannel.ts"
import { makeFcmChannel, parseServiceAccount } from "./FcmChannel.ts"
import { makeTelegramChannel } from "./TelegramChannel.ts"

/** A channel setting the server cannot start with. */
export class InvalidChannelSetting extends Data.TaggedError("InvalidChannelSetting")<{ readonly message: string }> {}

/** A text setting, `fallback` when it is absent. */
const setting = (name: string, fallback = "") => Config.String(name).pipe(Config.withDefault(fallback))

const settings = Config.all({
  smtpUrl: setting("SMTP_URL"),
  emailFrom: setting("EMAIL_FROM", "alerts@swapdesk.local"),
  telegramBotToken: setting("TELEGRAM_BOT_TOKEN"),
  telegramApiUrl: setting("TELEGRAM_API_URL", "https://api.telegram.org"),
  fcmServiceAccount: setting("FCM_SERVICE_ACCOUNT"),
  fcmApiUrl: setting("FCM_API_URL", "https://fcm.googleapis.com")
})

const requireUrl = (name: string, value: string, protocols: ReadonlyArray<string>) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidChannelSetting({ message: `${name} is not a URL (${JSON.stringify(value)})` })
  }
  if (!protocols.includes(url.protocol)) {
    throw new InvalidChannelSetting({ message: `${name} must be a ${protocols.join(" or ")} URL` })
  }
}

type Send = (notification: Notification) => ReturnType<ReturnType<typeof makeEmailChannel>>

/** The configured channels, from the settings; fails naming the first unusable one. */
export const loadChannels: Effect.Effect<ChannelTransport["Service"], InvalidChannelSetting | Config.ConfigError> =
  Effect.gen(function*() {
    const s = yield* settings
    return yield* Effect.try({
      try: () => {
        const senders: Partial<Record<Notification["channel"], Send>> = {}
        if (s.smtpUrl !== "") {
          requireUrl("SMTP_URL", s.smtpUrl, ["smtp:", "smtps:"])
          senders.email = makeEmailChannel({ smtpUrl: s.smtpUrl, from: s.emailFrom })
        }
        if (s.telegramBotToken !== "") {
          requireUrl("TELEGRAM_API_URL", s.telegramApiUrl, ["http:", "https:"])
          senders.telegram = makeTelegramChannel({ botToken: s.telegramBotToken, apiUrl: s.telegramApiUrl })
        }
        if (s.fcmServiceAccount !== "") {
          requireUrl("FCM_API_URL", s.fcmApiUrl, ["http:", "https:"])
          let account
          try {
            account = parseServiceAccount(JSON.parse(readFileSync(s.fcmServiceAccount, "utf8")))
          } catch (error) {
            throw new InvalidChannelSetting({
              message: `FCM_SERVICE_ACCOUNT ${s.fcmServiceAccount}: ${(error as Error).message}`
            })
          }
          senders.push = makeFcmChannel({ account, apiUrl: s.fcmApiUrl })
        }
        return {
          configured: (channel) => senders[channel] !== undefined,
          send: (notification) => {
            const send = senders[notification.channel]
            return send === undefined
              ? Effect.fail({ reason: `the ${notification.channel} channel is not configured` })
              : send(notification)
          }
        } satisfies ChannelTransport["Service"]
      },
      catch: (error) => {
        if (error instanceof InvalidChannelSetting) return error
        throw error
      }
    })
  })

/** `loadChannels` as the layer of the core's `ChannelTransport`. */
export const layerChannels = Layer.effect(ChannelTransport, loadChannels)
