/**
 * Watches the active alerts against each market observation and fires those whose condition is met
 * (docs/reference/http-api.md#alerts). Price and whale alerts are evaluated at every observation; volume and
 * portfolio alerts, whose inputs are hourly and daily aggregates, at each whole minute of market
 * time. Only observations after an alert was armed can fire it: an alert whose condition already
 * holds at creation fires at the next price update (a tick or a price move), never within the
 * creating request.
 */
import type { Decimal } from "decimal.js"
import { Context, Effect, Layer, Option } from "effect"
import { channelAddress } from "./Account.ts"
import type { AlertRecord, AlertRule } from "./Alert.ts"
import { Alerts } from "./Alerts.ts"
import { DomainEvents } from "./DomainEvents.ts"
import { toIso } from "./MarketClock.ts"
import type { MarketObservation } from "./MarketReactor.ts"
import { MoneyDecimal, unitsToDecimal } from "./Money.ts"
import { Notifier } from "./Notifier.ts"
import { PriceFeed } from "./PriceFeed.ts"
import { AccountRepository, AlertRepository } from "./Repositories.ts"
import { tokenOf } from "./Token.ts"
import { Wallets } from "./Wallets.ts"

const MINUTE_MS = 60_000

/** Why an alert fired, in words for the notification. */
type Finding = string

export const priceConditionMet = (condition: "above" | "below", target: Decimal, price: Decimal): boolean =>
  condition === "above" ? price.gte(target) : price.lte(target)

const usd = (value: Decimal | number): string => new MoneyDecimal(value).toSignificantDigits(8).toFixed() + " USD"

export class AlertMonitor extends Context.Service<AlertMonitor, {
  readonly observe: (observation: MarketObservation) => Effect.Effect<void>
}>()("@swapdesk/core/AlertMonitor") {
  static readonly layer = Layer.effect(
    AlertMonitor,
    Effect.gen(function*() {
      const alerts = yield* Alerts
      const repository = yield* AlertRepository
      const accounts = yield* AccountRepository
      const feed = yield* PriceFeed
      const wallets = yield* Wallets
      const notifier = yield* Notifier
      const events = yield* DomainEvents

      /** The account's holdings valued now and at the prices of 24 h ago. */
      const portfolioValues = Effect.fn("AlertMonitor.portfolioValues")(function*(accountId: string) {
        let now = new MoneyDecimal(0)
        let dayAgo = new MoneyDecimal(0)
        for (const wallet of yield* wallets.list(accountId)) {
          for (const [symbol, balance] of yield* wallets.balances(accountId, wallet.network)) {
            const amount = unitsToDecimal(balance.free + balance.reserved, tokenOf(symbol).decimals)
            if (amount.isZero()) continue
            const stats = yield* feed.stats(symbol)
            now = now.add(amount.mul(stats.priceUsd))
            dayAgo = dayAgo.add(amount.mul(stats.priceUsd.div(1 + stats.change24hPercent / 100)))
          }
        }
        return { now, dayAgo }
      })

      const evaluate = Effect.fnUntraced(function*(
        rule: AlertRule,
        accountId: string,
        observation: MarketObservation,
        wholeMinute: boolean
      ) {
        switch (rule.type) {
          case "price": {
            const price = yield* feed.priceUsd(rule.token)
            const target = new MoneyDecimal(rule.targetPrice)
            return priceConditionMet(rule.condition, target, price)
              ? Option.some<Finding>(`${rule.token} is ${rule.condition} ${usd(target)}: now ${usd(price)}`)
              : Option.none<Finding>()
          }
          case "whale": {
            const swap = observation.swaps.find((s) => s.symbol === rule.token && s.valueUsd >= rule.minValueUsd)
            return swap === undefined
              ? Option.none<Finding>()
              : Option.some<Finding>(`a ${swap.side} of ${rule.token} worth ${usd(swap.valueUsd)} on ${swap.network}`)
          }
          case "volume": {
            if (!wholeMinute) return Option.none<Finding>()
            const stats = yield* feed.stats(rule.token)
            const threshold = stats.averageHourlyVolume24hUsd * rule.multiplier
            return threshold > 0 && stats.volume1hUsd >= threshold
              ? Option.some<Finding>(
                `${rule.token} traded ${
                  usd(stats.volume1hUsd)
                } in the last hour, ${rule.multiplier}x its hourly average`
              )
              : Option.none<Finding>()
          }
          case "portfolio": {
            if (!wholeMinute) return Option.none<Finding>()
            const { dayAgo, now } = yield* portfolioValues(accountId)
            if (dayAgo.isZero()) return Option.none<Finding>()
            const change = now.sub(dayAgo).div(dayAgo).mul(100)
            return change.abs().gte(rule.changePercent)
              ? Option.some<Finding>(
                `your portfolio moved ${change.toSignificantDigits(4).toFixed()}% in 24 h, to ${usd(now)}`
              )
              : Option.none<Finding>()
          }
        }
      })

      const notify = Effect.fn("AlertMonitor.notify")(function*(alert: AlertRecord, finding: Finding) {
        const account = yield* accounts.get(alert.accountId)
        const to = Option.isSome(account) ? channelAddress(account.value.notifications, alert.channel) : undefined
        // A channel in use by an active alert cannot be removed, so `to` is only missing if the
        // account itself is gone; the alert still fires and is recorded.
        if (to !== undefined) {
          yield* notifier.send({
            channel: alert.channel,
            to,
            alertId: alert.id,
            message: `Alert ${alert.id}: ${finding}`
          })
        }
        yield* events.publish({
          type: "alert.triggered",
          accountId: alert.accountId,
          data: { id: alert.id, type: alert.rule.type, triggeredAt: toIso(alert.triggeredAt!), message: finding }
        })
      })

      const observe = Effect.fnUntraced(function*(observation: MarketObservation) {
        const active = yield* repository.active
        if (active.length === 0) return
        const wholeMinute = observation.at % MINUTE_MS === 0
        for (const alert of active) {
          // An observation made before the alert was armed cannot fire it. Equal times are later
          // observations: on a manual clock a price can move at the instant the alert was created.
          if (observation.at < alert.armedAt) continue
          const finding = yield* evaluate(alert.rule, alert.accountId, observation, wholeMinute)
          if (Option.isNone(finding)) continue
          const fired = yield* alerts.fire(alert, observation.at)
          if (Option.isSome(fired)) yield* notify(fired.value, finding.value)
        }
      })

      return { observe }
    })
  )
}
