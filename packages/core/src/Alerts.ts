/**
 * Alert use cases: create, read, list, enable or disable, delete. The Free plan's limit is checked
 * and the alert written under one lock, so two concurrent creations cannot both take the last slot;
 * on a SQL store also in one transaction holding the account (AccountWrites), so that holds across
 * processes. An unlimited plan's alerts are not counted at all.
 */
import { Context, Effect, Layer, Option, Result, Semaphore } from "effect"
import { type Channel, channelAddress, type Plan } from "./Account.ts"
import { accountWrites } from "./AccountWrites.ts"
import type { AlertRecord, AlertRule } from "./Alert.ts"
import { AlertIndex } from "./AlertIndex.ts"
import { AlertEvent, applyAlertEvent, countsTowardLimit } from "./AlertMachine.ts"
import { AlertLimitExceeded, AlertNotFound, ChannelNotConfigured, InvalidToken, ValidationFailed } from "./Errors.ts"
import { IdGenerator } from "./Ids.ts"
import { alertLimitOf, checkAlertLimit } from "./Limits.ts"
import { MarketClock } from "./MarketClock.ts"
import type { Page } from "./Page.ts"
import { AccountRepository, AlertRepository, foundOr } from "./Repositories.ts"
import { type CreateAlertBody, type ListAlertsQuery, pageLimits } from "./Requests.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { validateAlertRule } from "./Validation.ts"

export type CreateAlertError = ValidationFailed | InvalidToken | ChannelNotConfigured | AlertLimitExceeded

export class Alerts extends Context.Service<Alerts, {
  readonly create: (accountId: string, body: CreateAlertBody) => Effect.Effect<AlertRecord, CreateAlertError>
  readonly get: (accountId: string, id: string) => Effect.Effect<AlertRecord, AlertNotFound>
  readonly list: (accountId: string, query: ListAlertsQuery) => Effect.Effect<Page<AlertRecord>, InvalidToken>
  /** Disables, or re-enables and re-arms; re-enabling counts against the Free limit again. */
  readonly setStatus: (
    accountId: string,
    id: string,
    status: "active" | "disabled"
  ) => Effect.Effect<AlertRecord, AlertNotFound | AlertLimitExceeded | ChannelNotConfigured>
  readonly remove: (accountId: string, id: string) => Effect.Effect<void, AlertNotFound>
  /**
   * Runs `effect` under the lock that guards every alert write, so that a change the alerts depend
   * on (removing a notification channel) cannot interleave with a creation or a re-arm.
   */
  readonly exclusive: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Fires an alert the monitor found met, if it is still active: one notification, once. */
  readonly fire: (alert: AlertRecord, at: number) => Effect.Effect<Option.Option<AlertRecord>>
}>()("@swapdesk/core/Alerts") {
  static readonly layer = Layer.effect(
    Alerts,
    Effect.gen(function*() {
      const repository = yield* AlertRepository
      const index = yield* AlertIndex
      const accounts = yield* AccountRepository
      const ids = yield* IdGenerator
      const clock = yield* MarketClock
      const tokens = yield* TokenRegistry
      const writes = yield* accountWrites
      // Serialises every write that depends on what is already stored (the limit, the status).
      const lock = yield* Semaphore.make(1)

      const accountOf = (accountId: string) =>
        accounts.get(accountId).pipe(
          Effect.map(Option.getOrElse(() => {
            throw new Error(`authenticated account ${accountId} does not exist`)
          }))
        )

      const requireChannel = Effect.fn("Alerts.requireChannel")(function*(accountId: string, channel: Channel) {
        const account = yield* accountOf(accountId)
        if (channelAddress(account.notifications, channel) === undefined) {
          return yield* new ChannelNotConfigured({ channel })
        }
        return account
      })

      const resolveRule = Effect.fn("Alerts.resolveRule")(function*(body: CreateAlertBody) {
        const rule = validateAlertRule(body)
        if (Result.isFailure(rule)) return yield* new ValidationFailed({ details: rule.failure })
        if (rule.success.type === "portfolio") return rule.success
        const token = yield* tokens.resolve(rule.success.token)
        return { ...rule.success, token: token.symbol } satisfies AlertRule
      })

      // One more counting alert for the account, if its plan has room: counted only under a limit.
      const checkRoom = (accountId: string, plan: Plan) =>
        alertLimitOf(plan) === undefined
          ? Effect.void
          : Effect.flatMap(repository.countByStatus(accountId, ["active", "triggered"]), (count) =>
            checkAlertLimit(plan, count))

      // A write that takes a slot of a limited plan runs as one unit holding the account, in every
      // process (AccountWrites); under an unlimited plan there is nothing to hold it against.
      const limited = <A, E, R>(plan: Plan, accountId: string, write: Effect.Effect<A, E, R>) =>
        alertLimitOf(plan) === undefined ? write : writes.serialize(accountId, write)

      const find = (accountId: string, id: string) =>
        foundOr(repository.get(accountId, id), () => new AlertNotFound({ id }))

      const create = Effect.fn("Alerts.create")(function*(accountId: string, body: CreateAlertBody) {
        const rule = yield* resolveRule(body)
        const write = Effect.gen(function*() {
          const account = yield* requireChannel(accountId, body.channel)
          yield* checkRoom(accountId, account.plan)
          const now = yield* clock.now
          const alert: AlertRecord = {
            id: yield* ids.next("alert"),
            accountId,
            rule,
            channel: body.channel,
            status: "active",
            createdAt: now,
            triggeredAt: null,
            armedAt: now
          }
          yield* repository.insert(alert)
          return alert
        })
        // Armed once the write is committed, still under the lock (a removal cannot disarm it first).
        return yield* lock.withPermits(1)(
          Effect.flatMap(accountOf(accountId), (account) => limited(account.plan, accountId, write)).pipe(
            Effect.tap((alert) => Effect.sync(() => index.arm(alert)))
          )
        )
      })

      const list = Effect.fn("Alerts.list")(function*(accountId: string, query: ListAlertsQuery) {
        const token = query.token === undefined ? undefined : (yield* tokens.resolve(query.token)).symbol
        return yield* repository.list(accountId, {
          ...(query.status === undefined ? {} : { status: query.status }),
          ...(query.type === undefined ? {} : { type: query.type }),
          ...(token === undefined ? {} : { token })
        }, { limit: query.limit ?? pageLimits.defaultLimit, offset: query.offset ?? 0 })
      })

      const setStatus = Effect.fn("Alerts.setStatus")(function*(
        accountId: string,
        id: string,
        status: "active" | "disabled"
      ) {
        return yield* lock.withPermits(1)(Effect.gen(function*() {
          const alert = yield* find(accountId, id)
          if (status === "disabled") {
            const next = applyAlertEvent(alert, AlertEvent.Disable())
            yield* repository.update(next)
            index.disarm(id)
            return next
          }
          if (alert.status === "active") return alert
          // Re-enabling takes a slot of the plan: checked and written as one unit, as a creation is.
          const next = yield* limited(
            (yield* accountOf(accountId)).plan,
            accountId,
            Effect.gen(function*() {
              const account = yield* requireChannel(accountId, alert.channel)
              // A triggered alert already holds its slot; a disabled one takes a new one.
              if (!countsTowardLimit(alert.status)) yield* checkRoom(accountId, account.plan)
              const next = applyAlertEvent(alert, AlertEvent.Enable({ at: yield* clock.now }))
              yield* repository.update(next)
              return next
            })
          )
          index.arm(next)
          return next
        }))
      })

      const remove = Effect.fn("Alerts.remove")(function*(accountId: string, id: string) {
        const removed = yield* lock.withPermits(1)(Effect.tap(
          repository.remove(accountId, id),
          (removed) => Effect.sync(() => removed && index.disarm(id))
        ))
        if (!removed) return yield* new AlertNotFound({ id })
      })

      const fire = Effect.fn("Alerts.fire")(function*(alert: AlertRecord, at: number) {
        return yield* lock.withPermits(1)(Effect.gen(function*() {
          // Re-read: the alert may have been disabled, deleted or re-armed since the monitor looked.
          const current = yield* repository.get(alert.accountId, alert.id)
          if (Option.isNone(current) || current.value.status !== "active" || current.value.armedAt > at) {
            return Option.none<AlertRecord>()
          }
          const fired = applyAlertEvent(current.value, AlertEvent.Fire({ at }))
          yield* repository.update(fired)
          index.disarm(alert.id)
          return Option.some(fired)
        }))
      })

      return { create, get: find, list, setStatus, remove, exclusive: lock.withPermits(1), fire }
    })
  )
}
