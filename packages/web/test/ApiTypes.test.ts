// Proves the interface's hand-written API types (src/app/api/Types.ts) agree with the core's response views, which the
// server encodes and the OpenAPI document publishes. The type checks run under `tsc -b`: every form of a resource the
// server sends must be assignable to the interface's type (no field the interface requires is missing or typed
// otherwise), and the interface's type may name no key that no form has; a change on either side fails the type check.
// The value lists the interface offers (networks, timeframes, currencies, scopes, webhook events) are compared with the
// core's at run time.
import * as Core from "@swapdesk/core"
import type {
  AlertCreatedView,
  AlertListView,
  AlertView,
  ApiKeyCreatedView,
  ApiKeyListView,
  ApiKeyView,
  CandleView,
  ChartView,
  MarketDataView,
  NotificationSettingsView,
  OrderListView,
  OrderView,
  PortfolioView,
  QuoteView,
  TradeCreatedView,
  TradeListItemView,
  TradeListView,
  TradeView,
  TrendingView,
  WebhookCreatedView,
  WebhookDeliveryListView,
  WebhookDeliveryView,
  WebhookListView,
  WebhookView
} from "@swapdesk/core"
import { describe, expect, it } from "vitest"
import type * as Web from "../src/app/api/Types.ts"
import { currencies, networks, scopes, timeframes, webhookEvents } from "../src/app/api/Types.ts"

/** `true` when every `From` is a `To`. */
type Assignable<From, To> = [From] extends [To] ? true : false
/** `true` when the two types hold the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
/** `true` when `Web` names no key that none of the server's `Forms` has. */
type NoUnsentKeys<Web, Forms> = Same<Exclude<keyof Web, Forms extends unknown ? keyof Forms : never>, never>

/** Compiles only when given `true`. */
const holds = <_ extends true>(): void => undefined

// Each resource: every form the server sends fits the interface's type, which names nothing the server never sends.
holds<Assignable<AlertCreatedView | AlertView, Web.Alert>>()
// The creation settings are the one exception: typed `undefined`, as no form shows them.
holds<
  NoUnsentKeys<Omit<Web.Alert, "multiplier" | "minValueUsd" | "changePercent">, AlertCreatedView | AlertView>
>()
holds<Assignable<TradeCreatedView | TradeListItemView | TradeView, Web.Trade>>()
holds<NoUnsentKeys<Web.Trade, TradeCreatedView | TradeListItemView | TradeView>>()
holds<Assignable<OrderView, Web.Order>>()
holds<Same<keyof Web.Order, keyof OrderView>>()
holds<Assignable<ApiKeyCreatedView | ApiKeyView, Web.ApiKey>>()
holds<NoUnsentKeys<Web.ApiKey, ApiKeyCreatedView | ApiKeyView>>()
holds<Assignable<WebhookCreatedView | WebhookView, Web.Webhook>>()
holds<NoUnsentKeys<Web.Webhook, WebhookCreatedView | WebhookView>>()
holds<Assignable<WebhookDeliveryView, Web.Delivery>>()
holds<Same<keyof Web.Delivery, keyof WebhookDeliveryView>>()
holds<Assignable<MarketDataView, Web.MarketRecord>>()
holds<Same<keyof Web.MarketRecord, keyof MarketDataView>>()
holds<Assignable<CandleView, Web.Candle>>()
holds<Same<keyof Web.Candle, keyof CandleView>>()
holds<Assignable<ChartView, Web.Chart>>()
holds<Same<keyof Web.Chart, keyof ChartView>>()
holds<Assignable<TrendingView, Web.Trending>>()
holds<Same<keyof Web.Trending, keyof TrendingView>>()
holds<Same<keyof Web.Trending["tokens"][number], keyof TrendingView["tokens"][number]>>()
holds<Assignable<QuoteView, Web.Quote>>()
holds<Same<keyof Web.Quote, keyof QuoteView>>()
holds<Assignable<PortfolioView, Web.Portfolio>>()
holds<Same<keyof Web.Portfolio, keyof PortfolioView>>()
holds<Same<keyof Web.Portfolio["holdings"][number], keyof PortfolioView["holdings"][number]>>()
holds<Same<Web.NotificationSettings, NotificationSettingsView>>()

// Every paged list carries the pagination the interface's pager reads.
holds<Assignable<AlertListView | TradeListView | OrderListView | WebhookDeliveryListView, Web.Page>>()
holds<Assignable<ApiKeyListView | WebhookListView, Pick<Web.Page, "total">>>()

// The enumerations are the same sets of values.
holds<Same<Web.Network, Core.Network>>()
holds<Same<Web.Timeframe, Core.Timeframe>>()
holds<Same<Web.TradeStatus, Core.TradeStatus>>()
holds<Same<Web.AlertType, Core.AlertType>>()
holds<Same<Web.AlertStatus, Core.AlertStatus>>()
holds<Same<Web.Channel, Core.Channel>>()
holds<Same<Web.OrderStatus, Core.OrderStatus>>()
holds<Same<Web.Scope, Core.ApiScope>>()

describe("the interface's value lists", () => {
  it("offer exactly the core's networks, timeframes, currencies, scopes and webhook events, in its order", () => {
    expect(networks).toEqual(Core.networks)
    expect(timeframes).toEqual(Core.timeframes)
    expect(currencies).toEqual(Core.currencies)
    expect(scopes).toEqual(Core.scopes)
    expect(webhookEvents).toEqual(Core.webhookEventTypes)
  })
})
