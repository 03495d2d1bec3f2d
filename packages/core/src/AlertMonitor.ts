/**
 * Watches the market for the active alerts and fires those whose condition is met (the
 * semantics are in docs/alerts.md). The alerts live in the `AlertIndex` engine, so an observation
 * costs O(log n + fired) whatever the number of alerts: price alerts are checked at every
 * observation against one price per token that has any, whale alerts against each swap of their
 * token, and volume and portfolio alerts (whose inputs are hourly and daily aggregates) at each
 * whole minute of market time (or when the observation says they are due), against one set of
 * figures per token or per account. Only observations after an alert was armed can fire it: an
 * alert whose condition already holds at creation fires at the next price update (a tick or a
 * price move), never within the creating request. The alerts one observation fires are told in
 * the order they were armed.
 */
import type { Decimal } from "decimal.js"
import { Context, Effect, Layer, Option } from "effect"
import { channelAddress } from "./Account.ts"
import type { AlertRecord, AlertRule } from "./Alert.ts"
import { type ArmedAlert, priceAsNumber } from "./AlertEngine.ts"
import { AlertIndex } from "./AlertIndex.ts"
import { Alerts } from "./Alerts.ts"
import { alertView } from "./AlertViews.ts"
import { DomainEvents } from "./DomainEvents.ts"
import type { UsdCandle } from "./Market.ts"
import type { MarketObservation, ObservedPrices } from "./MarketReactor.ts"
import { MoneyDecimal } from "./Money.ts"
import { Notifier } from "./Notifier.ts"
import { PriceFeed } from "./PriceFeed.ts"
import { AccountRepository } from "./Repositories.ts"
import { TokenRegistry } from "./TokenRegistry.ts"
import { Wallets } from "./Wallets.ts"

const MINUTE_MS = 60_000
const DAY_MS = 86_400_000
/** How much of the past the portfolio valuation reads at once: an hour of one-minute candles. */
const OPENS_READ_MS = 3_600_000
/** `openOf` has nothing read for that minute. */
const NOT_READ = Symbol("not read")

const alertTypeNames = { price: "Price", volume: "Volume", whale: "Whale", portfolio: "Portfolio" } as const

/** A held token and how much of it, in whole tokens. */
interface Holding {
  readonly symbol: string
  readonly amount: number
}

/** Why an alert fired, in words for the notification. */
type Finding = string

const usd = (value: Decimal | number): string => new MoneyDecimal(value).toSignificantDigits(8).toFixed() + " USD"

export class AlertMonitor extends Context.Service<AlertMonitor, {
  readonly observe: (observation: MarketObservation) => Effect.Effect<void>
}>()("@swapdesk/core/AlertMonitor") {
  static readonly layer = Layer.effect(
    AlertMonitor,
    Effect.gen(function*() {
      const alerts = yield* Alerts
      const engine = yield* AlertIndex
      const accounts = yield* AccountRepository
      const feed = yield* PriceFeed
      const wallets = yield* Wallets
      const notifier = yield* Notifier
      const events = yield* DomainEvents
      const tokens = yield* TokenRegistry

      /** An account's holdings as amounts of whole tokens, and the wallets' revision they were read at. */
      const holdingsRead = new Map<string, { readonly revision: number; readonly holdings: ReadonlyArray<Holding> }>()

      /**
       * The account's holdings (free and reserved), read from the wallets only when their revision
       * moved since the last read: the valuation runs every minute, the balances change with trades.
       */
      const holdingsOf = Effect.fnUntraced(function*(accountId: string) {
        const revision = yield* wallets.revision(accountId)
        const known = holdingsRead.get(accountId)
        if (known !== undefined && known.revision === revision) return known.holdings
        const holdings: Array<Holding> = []
        for (const wallet of yield* wallets.list(accountId)) {
          for (const [symbol, balance] of yield* wallets.balances(accountId, wallet.network)) {
            const units = balance.free + balance.reserved
            if (units === 0n) continue
            holdings.push({ symbol, amount: Number(units) / 10 ** tokens.tokenOf(symbol).decimals })
          }
        }
        holdingsRead.set(accountId, { revision, holdings })
        return holdings
      })

      /**
       * Per token, an hour of one-minute candles from 24 h ago, read at once: a valuation needs one
       * candle's open per holding per minute, and those minutes lie a day in the past, where
       * candles no longer change. An hour read at once costs about what one minute read alone does.
       */
      const opensRead = new Map<string, { readonly from: number; readonly candles: ReadonlyArray<UsdCandle> }>()

      /**
       * The open of `symbol`'s one-minute candle at `minute` from what was read: `undefined` before
       * history (the feed has no candle there), `NOT_READ` when the candle is not among those read.
       */
      const openOf = (symbol: string, minute: number): number | undefined | typeof NOT_READ => {
        const read = opensRead.get(symbol)
        if (read === undefined || minute < read.from || minute >= read.from + OPENS_READ_MS) return NOT_READ
        const first = read.candles[0]
        if (first === undefined || minute < first.openTime) return undefined
        return read.candles[(minute - first.openTime) / MINUTE_MS]?.open ?? NOT_READ
      }

      /** Reads the hour of candles from `minute` and answers the open at `minute`. */
      const readOpens = (symbol: string, minute: number) =>
        Effect.map(feed.candles(symbol, "1m", minute, minute + OPENS_READ_MS), (candles) => {
          opensRead.set(symbol, { from: minute, candles })
          const open = openOf(symbol, minute)
          return open === NOT_READ ? undefined : open
        })

      /**
       * The account's holdings valued now and at each token's price 24 h ago (the open of that
       * minute's candle): one valuation per account, whatever the number of its portfolio alerts.
       * A percentage against a threshold needs no more than a double's 15 significant digits, so
       * this runs on numbers; the notification prints the figures it found.
       */
      const portfolioValues = Effect.fnUntraced(function*(
        accountId: string,
        at: number,
        prices: ObservedPrices
      ) {
        const dayAgoMinute = Math.floor((at - DAY_MS) / MINUTE_MS) * MINUTE_MS
        let now = 0
        let dayAgo = 0
        for (const { amount, symbol } of yield* holdingsOf(accountId)) {
          const price = prices.priceUsd(symbol)
          let then = openOf(symbol, dayAgoMinute)
          if (then === NOT_READ) then = yield* readOpens(symbol, dayAgoMinute)
          now += amount * price
          dayAgo += amount * (then ?? price)
        }
        return { now, dayAgo }
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
            message: `${alertTypeNames[alert.rule.type]} alert ${alert.id}: ${finding}`
          })
        }
        yield* events.publish({
          type: "alert.triggered",
          accountId: alert.accountId,
          // What a webhook carries: the alert as lists show it.
          data: alertView(alert)
        })
      })

      /** What one observation fired so far, each alert with its finding. */
      class Firing {
        readonly taken: Array<ArmedAlert> = []
        private findings: Map<ArmedAlert, Finding> | undefined
        readonly at: number
        constructor(at: number) {
          this.at = at
        }
        /** Gives the alerts taken since `from` their finding. */
        found(from: number, finding: (alert: AlertRecord) => Finding): void {
          if (from === this.taken.length) return
          this.findings ??= new Map()
          for (let i = from; i < this.taken.length; i++) {
            this.findings.set(this.taken[i]!, finding(this.taken[i]!.value))
          }
        }
        /** In arming order: several books may have fired. */
        result(): ReadonlyArray<readonly [AlertRecord, Finding]> {
          return this.taken.sort((a, b) => a.seq - b.seq).map((entry) => [entry.value, this.findings!.get(entry)!])
        }
      }

      /** The price alerts of `token`, at its exact price. */
      const checkPrice = (firing: Firing, token: string, exact: Decimal) => {
        const { price, rounding } = priceAsNumber(exact)
        const from = firing.taken.length
        engine.takePrice(token, price, rounding, firing.at, firing.taken)
        firing.found(from, (alert) => {
          const rule = alert.rule as Extract<AlertRule, { type: "price" }>
          return `${token} is ${rule.condition} ${usd(rule.targetPrice)}: now ${usd(exact)}`
        })
      }

      const whaleMayFire = (swaps: MarketObservation["swaps"]) => {
        const lowest = engine.lowestWhaleThreshold()
        if (lowest === Number.POSITIVE_INFINITY) return false
        // An indexed loop: a tick carries dozens of swaps, and this runs at every tick.
        for (let i = 0; i < swaps.length; i++) {
          const swap = swaps[i]!
          if (swap.valueUsd >= lowest && engine.whaleMayFire(swap.symbol, swap.valueUsd)) return true
        }
        return false
      }

      const checkWhales = (firing: Firing, swaps: MarketObservation["swaps"]) => {
        const lowest = engine.lowestWhaleThreshold()
        for (const swap of swaps) {
          if (swap.valueUsd < lowest || !engine.whaleMayFire(swap.symbol, swap.valueUsd)) continue
          const from = firing.taken.length
          engine.takeWhale(swap.symbol, swap.valueUsd, firing.at, firing.taken)
          firing.found(from, () => `a ${swap.side} of ${swap.symbol} worth ${usd(swap.valueUsd)} on ${swap.network}`)
        }
      }

      /** Volume and portfolio alerts: one set of figures per token and per account. */
      const checkAggregates = Effect.fnUntraced(function*(firing: Firing, prices: ObservedPrices) {
        for (const token of engine.volumeTokens()) {
          const stats = yield* feed.hourlyVolumes(token)
          const average = stats.averageHourlyVolume24hUsd
          const from = firing.taken.length
          engine.takeVolume(
            token,
            (multiplier) => average > 0 && stats.volume1hUsd >= average * multiplier,
            firing.at,
            firing.taken
          )
          firing.found(from, (alert) => {
            const rule = alert.rule as Extract<AlertRule, { type: "volume" }>
            return `${token} traded ${usd(stats.volume1hUsd)} in the last hour, ${rule.multiplier}x its hourly average`
          })
        }
        for (const accountId of engine.portfolioAccounts()) {
          const { dayAgo, now } = yield* portfolioValues(accountId, firing.at, prices)
          if (dayAgo === 0) continue
          const change = (now - dayAgo) / dayAgo * 100
          const moved = Math.abs(change)
          const from = firing.taken.length
          engine.takePortfolio(accountId, (changePercent) => moved >= changePercent, firing.at, firing.taken)
          firing.found(
            from,
            () =>
              `your portfolio moved ${new MoneyDecimal(change).toSignificantDigits(4).toFixed()}% in 24 h, to ${
                usd(now)
              }`
          )
        }
      })

      /**
       * What one observation fires. When nothing does, this is synchronous and answers
       * `Effect.void`: the prices come with the observation, the exact price of a token is read
       * only when its double may reach a target, and the aggregates only at whole minutes.
       */
      const observeWatched = (observation: MarketObservation): Effect.Effect<void> => {
        let reached: Array<string> | undefined
        for (const reach of engine.priceReach()) {
          const price = observation.prices.priceUsd(reach.token)
          if (price >= reach.above || price <= reach.below) (reached ??= []).push(reach.token)
        }
        const minute = engine.watchesAggregates &&
          (observation.aggregates ?? observation.at % MINUTE_MS === 0)
        if (reached === undefined && !minute && !whaleMayFire(observation.swaps)) return Effect.void
        const firing = new Firing(observation.at)
        checkWhales(firing, observation.swaps)
        if (reached === undefined && !minute) return firing.taken.length === 0 ? Effect.void : fireAll(firing)
        return Effect.gen(function*() {
          for (const token of reached ?? []) checkPrice(firing, token, yield* feed.priceUsd(token))
          if (minute) yield* checkAggregates(firing, observation.prices)
          if (firing.taken.length > 0) yield* fireAll(firing)
        })
      }

      const fireAll = Effect.fnUntraced(function*(firing: Firing) {
        for (const [alert, finding] of firing.result()) {
          const fired = yield* alerts.fire(alert, firing.at)
          if (Option.isSome(fired)) yield* notify(fired.value, finding)
        }
      })

      // Called at every market observation: with no alert watched, it does nothing at all.
      const observe = (observation: MarketObservation): Effect.Effect<void> =>
        engine.size === 0 ? Effect.void : observeWatched(observation)

      return { observe }
    })
  )
}
