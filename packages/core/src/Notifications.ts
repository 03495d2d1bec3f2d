/**
 * The account's notification settings: where `email`, `telegram` and `push` alerts go. An update
 * sets the fields it names (`null` removes a channel) and keeps the others. A channel that active
 * or triggered alerts use cannot be removed (`CHANNEL_IN_USE`): a triggered alert can be re-armed
 * and would then have nowhere to notify. The check and the write run under the alerts' lock, so an
 * alert created on the channel meanwhile is either seen by the check or refused for want of it.
 */
import { Context, Effect, Layer, Option } from "effect"
import { type Channel, type NotificationSettings } from "./Account.ts"
import { Alerts } from "./Alerts.ts"
import { ChannelInUse } from "./Errors.ts"
import { AccountRepository, AlertRepository } from "./Repositories.ts"
import type { UpdateNotificationsBody } from "./Requests.ts"

const channels: ReadonlyArray<Channel> = ["email", "telegram", "push"]

export class Notifications extends Context.Service<Notifications, {
  readonly get: (accountId: string) => Effect.Effect<NotificationSettings>
  readonly update: (
    accountId: string,
    body: UpdateNotificationsBody
  ) => Effect.Effect<NotificationSettings, ChannelInUse>
}>()("@swapdesk/core/Notifications") {
  static readonly layer = Layer.effect(
    Notifications,
    Effect.gen(function*() {
      const accounts = yield* AccountRepository
      const alertRecords = yield* AlertRepository
      const alerts = yield* Alerts

      const get = (accountId: string) =>
        accounts.get(accountId).pipe(
          Effect.map(Option.getOrElse(() => {
            throw new Error(`authenticated account ${accountId} does not exist`)
          })),
          Effect.map((account) => account.notifications)
        )

      const update = Effect.fn("Notifications.update")(function*(accountId: string, body: UpdateNotificationsBody) {
        return yield* alerts.exclusive(Effect.gen(function*() {
          const current = yield* get(accountId)
          for (const channel of channels) {
            if (body[channel] !== null || current[channel] === null) continue
            const using = yield* alertRecords.countByChannel(accountId, channel, ["active", "triggered"])
            if (using > 0) return yield* new ChannelInUse({ channel })
          }
          const next: NotificationSettings = {
            email: body.email === undefined ? current.email : body.email,
            telegram: body.telegram === undefined ? current.telegram : body.telegram,
            push: body.push === undefined ? current.push : body.push
          }
          yield* accounts.updateNotifications(accountId, next)
          return next
        }))
      })

      return { get, update }
    })
  )
}
