// Proves the response views have exactly the field sets the spec and contract list, state by state (the trade creation
// form's eight keys, amountOut only when confirmed, txHash only once broadcast, no triggeredAt on a created alert, no
// secret outside creation), that every view a mapping function builds passes its own wire schema strictly, and, by
// fast-check properties with pinned seeds, that amounts are plain decimal strings that parse back to the exact units.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import type { AlertRecord } from "../src/Alert.ts"
import {
  AlertCreatedView,
  alertCreatedView,
  AlertListView,
  alertListView,
  AlertView,
  alertView
} from "../src/AlertViews.ts"
import type { ApiKeyRecord } from "../src/ApiKey.ts"
import {
  ApiKeyCreatedView,
  apiKeyCreatedView,
  ApiKeyListView,
  apiKeyListView,
  ApiKeyView,
  apiKeyView
} from "../src/ApiKeyViews.ts"
import { ChartView, MarketDataView, TrendingView } from "../src/MarketViews.ts"
import { parseAmount, swapOutcome } from "../src/Money.ts"
import { nativeTokenOf, type Network, networks } from "../src/Network.ts"
import { OrderListView, orderListView, OrderView, orderView } from "../src/OrderViews.ts"
import { PortfolioView } from "../src/PortfolioViews.ts"
import { simulatorCatalog, simulatorTokens } from "../src/SimulatorTokens.ts"
import type { Token } from "../src/Token.ts"
import type { TradeRecord, TradeStage } from "../src/Trade.ts"
import {
  QuoteView,
  quoteView,
  TradeCreatedView,
  tradeCreatedView,
  TradeListItemView,
  tradeListItemView,
  TradeListView,
  tradeListView,
  TradeView,
  tradeView
} from "../src/TradeViews.ts"
import { strictParseOptions } from "../src/Validation.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "../src/Webhook.ts"
import {
  NotificationSettingsView,
  WebhookCreatedView,
  webhookCreatedView,
  WebhookDeliveryListView,
  webhookDeliveryListView,
  WebhookListView,
  webhookListView,
  WebhookView,
  webhookView
} from "../src/WebhookViews.ts"
import { makeAlert, makeOrder, makeTrade, T0 } from "./fixtures.ts"

const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/
const ISO = "2026-01-01T00:00:00.000Z"

const keysOf = (value: object) => Object.keys(value).toSorted()

/** The view passes its schema with no key missing, mistyped or extra. */
const conforms = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown) => {
  const result = Schema.decodeUnknownResult(schema)(value, strictParseOptions)
  if (Result.isFailure(result)) assert.fail(`view does not match its schema: ${result.failure.message}`)
}

/** The schema refuses the value (`strict`: an extra key is refused too). */
const rejects = (
  schema: Schema.Top & { readonly DecodingServices: never },
  value: unknown,
  { message = JSON.stringify(value), strict = false }: { readonly message?: string; readonly strict?: boolean } = {}
) =>
  assert.isTrue(
    Result.isFailure(Schema.decodeUnknownResult(schema)(value, strict ? strictParseOptions : undefined)),
    message
  )

/** A trade that has legitimately reached `stage`, with the fields that stage carries. */
const tradeAt = (stage: TradeStage | "rejected", overrides: Partial<TradeRecord> = {}): TradeRecord => {
  const broadcast = makeTrade({ stage: "broadcast", txHash: "5sig", submittedAt: T0 + 1_000, ...overrides })
  switch (stage) {
    case "awaiting_approval":
      return makeTrade(overrides)
    case "rejected":
      return makeTrade({ stage: "failed", failureReason: "WALLET_REJECTED", ...overrides })
    case "broadcast":
      return broadcast
    case "confirmed":
      return {
        ...broadcast,
        stage,
        amountOut: 149_500_000n,
        fee: 374_000n,
        gasFee: 5_200n,
        confirmedAt: T0 + 2_000
      }
    case "failed":
      return { ...broadcast, stage, failureReason: "SLIPPAGE_EXCEEDED", gasFee: 4_800n }
  }
}

/** Any amount of the token from one base unit to 10^30 whole tokens. */
const unitsOf = (t: Token) => fc.bigInt({ min: 1n, max: 10n ** 30n * 10n ** BigInt(t.decimals) })

// ---- trades -------------------------------------------------------------------------------------

describe("trade views", () => {
  it("the creation form has exactly the spec's eight keys", () => {
    const view = tradeCreatedView(simulatorCatalog)(makeTrade())
    assert.deepStrictEqual(view, {
      id: "trd_1",
      status: "pending",
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: "1",
      estimatedAmountOut: "149.625",
      fee: "0.375",
      network: "solana"
    })
    assert.deepStrictEqual(keysOf(view), keysOf(TradeCreatedView.fields))
    assert.strictEqual(keysOf(view).length, 8)
    conforms(TradeCreatedView, view)
  })

  const listAlways = [
    "amountIn",
    "confirmedAt",
    "createdAt",
    "fee",
    "id",
    "network",
    "status",
    "tokenIn",
    "tokenOut"
  ]

  it("a list item awaiting approval: no amountOut, no txHash, confirmedAt null", () => {
    const view = tradeListItemView(simulatorCatalog)(makeTrade())
    assert.deepStrictEqual(keysOf(view), listAlways)
    assert.isNull(view.confirmedAt)
    assert.strictEqual(view.createdAt, ISO)
    conforms(TradeListItemView, view)
  })

  it("a broadcast list item gains txHash, still no amountOut", () => {
    const view = tradeListItemView(simulatorCatalog)(tradeAt("broadcast"))
    assert.deepStrictEqual(keysOf(view), [...listAlways, "txHash"].toSorted())
    assert.strictEqual(view.status, "pending")
    conforms(TradeListItemView, view)
  })

  it("a confirmed list item has amountOut, txHash and confirmedAt: the spec's eleven list keys", () => {
    const view = tradeListItemView(simulatorCatalog)(tradeAt("confirmed"))
    assert.deepStrictEqual(keysOf(view), [...listAlways, "amountOut", "txHash"].toSorted())
    assert.strictEqual(view.amountOut, "149.5")
    assert.strictEqual(view.fee, "0.374")
    assert.strictEqual(view.confirmedAt, "2026-01-01T00:00:02.000Z")
    conforms(TradeListItemView, view)
  })

  it("a failed list item never shows amountOut; txHash only if it had been broadcast", () => {
    assert.deepStrictEqual(
      keysOf(tradeListItemView(simulatorCatalog)(tradeAt("failed"))),
      [...listAlways, "txHash"].toSorted()
    )
    assert.deepStrictEqual(keysOf(tradeListItemView(simulatorCatalog)(tradeAt("rejected"))), listAlways)
  })

  it("amountOut is tied to the confirmed status, not to the record's shape", () => {
    const odd = { ...tradeAt("failed"), amountOut: 1n }
    assert.notProperty(tradeListItemView(simulatorCatalog)(odd), "amountOut")
    assert.notProperty(tradeView(simulatorCatalog)(odd), "amountOut")
  })

  const specTradeFields = [
    "id",
    "status",
    "tokenIn",
    "tokenOut",
    "amountIn",
    "estimatedAmountOut",
    "amountOut",
    "fee",
    "slippage",
    "network",
    "txHash",
    "walletAddress",
    "createdAt",
    "submittedAt",
    "confirmedAt"
  ]
  // `approval` is contract section 16's: a live external wallet's trade awaiting its answer.
  const contractExtras = ["minAmountOut", "gasFee", "failureReason", "orderId", "approval"]

  it("the single read's schema has every field of the spec's Trade table plus the contract's extras, and no other", () => {
    assert.deepStrictEqual(keysOf(TradeView.fields), [...specTradeFields, ...contractExtras].toSorted())
  })

  it("a confirmed trade made by an order shows every field but failureReason", () => {
    const view = tradeView(simulatorCatalog)(tradeAt("confirmed", { orderId: "ord_1" }))
    assert.deepStrictEqual(
      keysOf(view),
      [...specTradeFields, ...contractExtras].filter((key) => key !== "failureReason" && key !== "approval").toSorted()
    )
    assert.deepStrictEqual(view, {
      id: "trd_1",
      status: "confirmed",
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: "1",
      estimatedAmountOut: "149.625",
      amountOut: "149.5",
      fee: "0.374",
      minAmountOut: "148.876875",
      slippage: 0.5,
      gasFee: "0.0000052",
      network: "solana",
      txHash: "5sig",
      walletAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
      createdAt: ISO,
      submittedAt: "2026-01-01T00:00:01.000Z",
      confirmedAt: "2026-01-01T00:00:02.000Z",
      orderId: "ord_1"
    })
    conforms(TradeView, view)
  })

  it("a trade awaiting approval: walletAddress but no txHash, submittedAt, amountOut, failureReason or orderId", () => {
    const view = tradeView(simulatorCatalog)(makeTrade())
    for (const absent of ["txHash", "submittedAt", "amountOut", "failureReason", "orderId"]) {
      assert.notProperty(view, absent)
    }
    assert.strictEqual(view.walletAddress, makeTrade().walletAddress)
    assert.isNull(view.confirmedAt)
    assert.strictEqual(view.gasFee, "0.000005", "the estimate, before execution")
    conforms(TradeView, view)
  })

  it("a failed trade shows its failureReason and the gas it burned", () => {
    const view = tradeView(simulatorCatalog)(tradeAt("failed"))
    assert.strictEqual(view.status, "failed")
    assert.strictEqual(view.failureReason, "SLIPPAGE_EXCEEDED")
    assert.strictEqual(view.gasFee, "0.0000048")
    assert.strictEqual(view.txHash, "5sig")
    conforms(TradeView, view)
  })

  it("a trade rejected before broadcast paid no gas", () => {
    const view = tradeView(simulatorCatalog)(tradeAt("rejected"))
    assert.strictEqual(view.failureReason, "WALLET_REJECTED")
    assert.strictEqual(view.gasFee, "0")
    assert.notProperty(view, "txHash")
    assert.notProperty(view, "submittedAt")
  })

  it("gas is counted in the network's native token: ETH (18 decimals) on EVM networks", () => {
    const view = tradeView(simulatorCatalog)(
      makeTrade({
        network: "base",
        tokenIn: "USDC",
        tokenOut: "WETH",
        amountIn: 2_500_000_000n,
        estimatedGasFee: 1_000_000_000_000n
      })
    )
    assert.strictEqual(view.gasFee, "0.000001")
    assert.strictEqual(view.amountIn, "2500")
  })

  const tokenArb = fc.constantFrom(...simulatorTokens)
  const tradeArb = fc.tuple(
    tokenArb,
    tokenArb,
    fc.constantFrom<TradeStage | "rejected">(
      "awaiting_approval",
      "rejected",
      "broadcast",
      "confirmed",
      "failed"
    )
  ).chain(([tokenIn, tokenOut, stage]) =>
    fc.record({
      stage: fc.constant(stage),
      network: fc.constantFrom<Network>(...networks),
      tokenIn: fc.constant(tokenIn),
      tokenOut: fc.constant(tokenOut),
      amountIn: unitsOf(tokenIn),
      estimatedAmountOut: unitsOf(tokenOut),
      fee: unitsOf(tokenOut),
      minAmountOut: unitsOf(tokenOut),
      amountOut: unitsOf(tokenOut),
      gasFee: fc.bigInt({ min: 1n, max: 10n ** 20n })
    })
  )

  test.prop([tradeArb], { seed: 6001, numRuns: 500 })(
    "every amount in every trade view is a plain decimal string that parses back to its exact units",
    ({ amountIn, amountOut, estimatedAmountOut, fee, gasFee, minAmountOut, network, stage, tokenIn, tokenOut }) => {
      const record = tradeAt(stage, {
        network,
        tokenIn: tokenIn.symbol,
        tokenOut: tokenOut.symbol,
        amountIn,
        estimatedAmountOut,
        fee,
        minAmountOut,
        estimatedGasFee: gasFee
      })
      // once executed (confirmed, or failed after broadcast) the gas paid replaces the estimate
      const trade = stage === "confirmed"
        ? { ...record, amountOut, fee, gasFee }
        : stage === "failed"
        ? { ...record, gasFee }
        : record
      const native = simulatorCatalog.tokenOf(nativeTokenOf(network)).decimals
      const full = tradeView(simulatorCatalog)(trade)
      const expected: ReadonlyArray<readonly [string | undefined, bigint, number]> = [
        [full.amountIn, amountIn, tokenIn.decimals],
        [full.estimatedAmountOut, estimatedAmountOut, tokenOut.decimals],
        [full.fee, fee, tokenOut.decimals],
        [full.minAmountOut, minAmountOut, tokenOut.decimals],
        [full.amountOut, amountOut, tokenOut.decimals],
        [full.gasFee, stage === "rejected" ? 0n : gasFee, native]
      ]
      for (const [text, units, decimals] of expected) {
        if (text === undefined) continue
        assert.match(text, PLAIN_DECIMAL)
        if (units > 0n) assert.deepStrictEqual(parseAmount(text, decimals), Result.succeed(units))
      }
      assert.strictEqual(full.amountOut !== undefined, stage === "confirmed")
      conforms(TradeView, full)
      conforms(TradeCreatedView, tradeCreatedView(simulatorCatalog)(trade))
      conforms(TradeListItemView, tradeListItemView(simulatorCatalog)(trade))
    }
  )
})

// ---- alerts -------------------------------------------------------------------------------------

describe("alert views", () => {
  const alerts: Record<string, AlertRecord> = {
    price: makeAlert(),
    volume: makeAlert({ rule: { type: "volume", token: "BONK", multiplier: 3 } }),
    whale: makeAlert({ rule: { type: "whale", token: "ETH", minValueUsd: 100_000 } }),
    portfolio: makeAlert({ rule: { type: "portfolio", changePercent: 10 } })
  }
  const common = ["channel", "createdAt", "id", "status", "type"]
  // The spec's Alert table: the type-specific settings (multiplier, minValueUsd, changePercent) are not among them.
  const byType: Record<string, ReadonlyArray<string>> = {
    price: ["token", "condition", "targetPrice"],
    volume: ["token"],
    whale: ["token"],
    portfolio: []
  }

  it("the schemas have exactly the spec's Alert fields, triggeredAt only beyond creation", () => {
    const spec = ["id", "type", "token", "condition", "targetPrice", "channel", "status", "createdAt"]
    assert.deepStrictEqual(keysOf(AlertCreatedView.fields), spec.toSorted())
    assert.deepStrictEqual(keysOf(AlertView.fields), [...spec, "triggeredAt"].toSorted())
  })

  it("the creation form of a price alert is the spec's eight fields, without triggeredAt", () => {
    const view = alertCreatedView(alerts.price!)
    assert.deepStrictEqual(view, {
      id: "alrt_1",
      type: "price",
      token: "SOL",
      condition: "above",
      targetPrice: 150,
      channel: "email",
      status: "active",
      createdAt: ISO
    })
    assert.notProperty(view, "triggeredAt")
    conforms(AlertCreatedView, view)
  })

  for (const [type, alert] of Object.entries(alerts)) {
    it(`a ${type} alert shows only its own fields, in both forms`, () => {
      const created = alertCreatedView(alert)
      assert.deepStrictEqual(keysOf(created), [...common, ...byType[type]!].toSorted())
      const listed = alertView(alert)
      assert.deepStrictEqual(keysOf(listed), [...common, ...byType[type]!, "triggeredAt"].toSorted())
      conforms(AlertCreatedView, created)
      conforms(AlertView, listed)
    })
  }

  it("a portfolio alert has no token key at all", () => {
    assert.notProperty(alertView(alerts.portfolio!), "token")
  })

  it("triggeredAt is null until the alert fires, then its ISO time", () => {
    assert.isNull(alertView(makeAlert()).triggeredAt)
    assert.strictEqual(
      alertView(makeAlert({ status: "triggered", triggeredAt: T0 + 90_000 })).triggeredAt,
      "2026-01-01T00:01:30.000Z"
    )
  })

  it("the alert schema rejects a triggeredAt on the creation form", () => {
    rejects(AlertCreatedView, { ...alertCreatedView(makeAlert()), triggeredAt: null }, { strict: true })
  })
})

// ---- orders -------------------------------------------------------------------------------------

describe("order views", () => {
  it("shows the contract's order fields, limitPrice = minAmountOut / amountIn", () => {
    const view = orderView(simulatorCatalog)(makeOrder())
    assert.deepStrictEqual(view, {
      id: "ord_1",
      status: "pending",
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: "1",
      minAmountOut: "160",
      limitPrice: "160",
      network: "solana",
      signer: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
      signature: "sig_1",
      walletAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
      createdAt: ISO,
      expiresAt: null,
      tradeId: null,
      closedAt: null
    })
    conforms(OrderView, view)
  })

  it("a filled order links its trade", () => {
    const view = orderView(simulatorCatalog)(
      makeOrder({ status: "confirmed", tradeId: "trd_7", closedAt: T0 + 5_000, expiresAt: T0 + 86_400_000 })
    )
    assert.strictEqual(view.tradeId, "trd_7")
    assert.strictEqual(view.closedAt, "2026-01-01T00:00:05.000Z")
    assert.strictEqual(view.expiresAt, "2026-01-02T00:00:00.000Z")
  })
})

// ---- keys, webhooks, notifications --------------------------------------------------------------

const webhook: WebhookRecord = {
  id: "whk_1",
  accountId: "acct_alice",
  url: "https://example.com/hook",
  events: ["trade.confirmed", "alert.triggered"],
  secret: "whsec_abc",
  createdAt: T0
}

const delivery: WebhookDeliveryRecord = {
  id: "dlv_1",
  accountId: "acct_alice",
  subscriptionId: "whk_1",
  event: "trade.confirmed",
  webhookId: "msg_1",
  attempt: 1,
  status: "succeeded",
  responseStatus: 200,
  createdAt: T0,
  nextAttemptAt: null
}

describe("API key and webhook views", () => {
  const key: ApiKeyRecord = {
    id: "key_1",
    accountId: "acct_alice",
    name: "bot",
    prefix: "sd_test_abcd",
    last4: "wxyz",
    secretHash: "f".repeat(64),
    scopes: ["read", "trade"],
    createdAt: T0,
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null
  }

  it("a listed key never shows its secret or hash", () => {
    const view = apiKeyView(key)
    assert.deepStrictEqual(keysOf(view), [
      "createdAt",
      "expiresAt",
      "id",
      "last4",
      "lastUsedAt",
      "name",
      "prefix",
      "scopes"
    ])
    assert.notInclude(JSON.stringify(apiKeyListView([key])), key.secretHash)
    conforms(ApiKeyView, view)
  })

  it("the creation form carries the secret once, under key", () => {
    const view = apiKeyCreatedView(key, "sd_test_" + "a".repeat(40))
    assert.deepStrictEqual(keysOf(view), ["createdAt", "expiresAt", "id", "key", "name", "prefix", "scopes"])
    assert.strictEqual(view.key.length, 48)
    conforms(ApiKeyCreatedView, view)
  })

  it("a webhook shows its secret only at creation", () => {
    assert.deepStrictEqual(keysOf(webhookView(webhook)), ["createdAt", "events", "id", "url"])
    assert.strictEqual(webhookCreatedView(webhook).secret, "whsec_abc")
    assert.notInclude(JSON.stringify(webhookListView([webhook])), "whsec_abc")
    conforms(WebhookView, webhookView(webhook))
    conforms(WebhookCreatedView, webhookCreatedView(webhook))
  })

  it("notification settings mark unconfigured channels with null", () => {
    conforms(NotificationSettingsView, { email: "alice@example.com", telegram: null, push: { deviceToken: "d" } })
    rejects(NotificationSettingsView, { email: "a@b.c" }, { strict: true })
  })
})

// ---- market data, quote and portfolio schemas ---------------------------------------------------

describe("market, quote and portfolio schemas", () => {
  const basic = { token: "SOL", price: 142.5, currency: "USD", change24h: -1.2, volume24h: 1e9, marketCap: 7e10 }
  const extended = {
    volumeByNetwork: { solana: 9e8 },
    buyVolume24h: 5e8,
    sellVolume24h: 4e8,
    holders: { count: 1000, top10Percent: 35 },
    whaleActivity: { transactions24h: 12, netFlow24h: -3e6 }
  }

  it("market data: the spec's six fields, extended optional", () => {
    conforms(MarketDataView, basic)
    conforms(MarketDataView, { ...basic, extended })
    rejects(MarketDataView, { ...basic, currency: "BTC" })
    rejects(MarketDataView, { ...basic, extended: { ...extended, volumeByNetwork: { polygon: 1 } } }, { strict: true })
  })

  it("chart and trending", () => {
    const candle = { timestamp: ISO, open: 1, high: 2, low: 0.5, close: 1.5, volume: 0 }
    conforms(ChartView, { token: "SOL", timeframe: "1h", currency: "EUR", candles: [candle] })
    const entry = { rank: 1, token: "BONK", price: 0.00002, change24h: 12, volume24h: 3e8, network: "solana" }
    conforms(TrendingView, { network: "all", updatedAt: ISO, tokens: [entry] })
    conforms(TrendingView, { network: "base", updatedAt: ISO, tokens: [] })
    rejects(TrendingView, { network: "any", updatedAt: ISO, tokens: [] })
  })

  it("every market figure must be a finite number", () => {
    for (const bad of [Infinity, -Infinity, NaN]) {
      rejects(MarketDataView, { ...basic, volume24h: bad })
      rejects(MarketDataView, { ...basic, extended: { ...extended, holders: { count: bad, top10Percent: 35 } } })
      const candle = { timestamp: ISO, open: 1, high: 2, low: 0.5, close: 1.5, volume: bad }
      rejects(ChartView, { token: "SOL", timeframe: "1h", currency: "EUR", candles: [candle] })
      const entry = { rank: 1, token: "BONK", price: bad, change24h: 12, volume24h: 3e8, network: "solana" }
      rejects(TrendingView, { network: "all", updatedAt: ISO, tokens: [entry] })
    }
  })

  /** The quote of 1 SOL for USDC at 150 gross, on the wire. */
  const quote = {
    tokenIn: "SOL",
    tokenOut: "USDC",
    amountIn: "1",
    network: "solana",
    slippage: 0.5,
    estimatedAmountOut: "149.625",
    fee: "0.375",
    minAmountOut: "148.876875",
    priceImpact: 0.01,
    gasFee: "0.000005",
    rate: "149.625",
    expiresAt: ISO
  }

  it("quote: the contract's GET /quote fields with amounts as decimal strings", () => {
    conforms(QuoteView, quote)
    rejects(QuoteView, { ...quote, fee: "3.750" }, { message: "no trailing zeros" })
    rejects(QuoteView, { ...quote, fee: "1e-7" }, { message: "no exponent" })
  })

  it("quoteView renders a quote record in the quote schema, amounts in each token's decimals", () => {
    const sol = simulatorCatalog.tokenOf("SOL")
    const usdc = simulatorCatalog.tokenOf("USDC")
    const outcome = swapOutcome(150_000_000n, 0.5)
    const view = quoteView(simulatorCatalog)({
      tokenIn: sol,
      tokenOut: usdc,
      network: "solana",
      amountIn: 1_000_000_000n,
      slippage: 0.5,
      chainQuote: { grossOut: 150_000_000n, priceImpactPercent: 0.01, gasFee: 5_000n },
      outcome,
      rate: "149.625",
      expiresAt: Date.parse(ISO)
    })
    conforms(QuoteView, view)
    assert.deepStrictEqual(view, quote)
  })

  it("portfolio: the published fields (http-api.md#portfolio)", () => {
    conforms(PortfolioView, {
      currency: "USD",
      totalValue: 2500,
      totalCostBasis: 2000,
      unrealizedPnl: 500,
      unrealizedPnlPercent: 25,
      realizedPnl: 0,
      change24h: 1.5,
      wallets: [{ network: "solana", address: "7xKX", value: 2500 }],
      holdings: [{
        token: "SOL",
        network: "solana",
        amount: "10",
        price: 150,
        value: 1500,
        costBasis: 1000,
        averageCost: 100,
        unrealizedPnl: 500,
        unrealizedPnlPercent: 50,
        allocationPercent: 60
      }],
      performance: { range: "7d", points: [{ timestamp: ISO, value: 2400 }] },
      updatedAt: ISO
    })
  })
})

// ---- list answers -------------------------------------------------------------------------------

/** A page of `items` as a repository answers it: two from offset 4 of 7. */
const page = <A>(items: ReadonlyArray<A>) => ({ total: 7, limit: 2, offset: 4, items })

describe("list answers", () => {
  // Each page answer: its schema, the function that builds it, a page of records and the key its items sit under.
  const pages = [
    { key: "alerts", schema: AlertListView, view: () => alertListView(page([makeAlert(), makeAlert()])) },
    {
      key: "trades",
      schema: TradeListView,
      view: () => tradeListView(simulatorCatalog)(page([makeTrade(), tradeAt("confirmed")]))
    },
    { key: "orders", schema: OrderListView, view: () => orderListView(simulatorCatalog)(page([makeOrder()])) },
    { key: "deliveries", schema: WebhookDeliveryListView, view: () => webhookDeliveryListView(page([delivery])) }
  ]

  for (const { key, schema, view } of pages) {
    it(`a page of ${key} is total, limit and offset, then its items under ${key}, in that order`, () => {
      const answer = view()
      assert.deepStrictEqual(Object.keys(answer), ["total", "limit", "offset", key])
      assert.deepStrictEqual(Object.keys(schema.fields), ["total", "limit", "offset", key])
      assert.deepStrictEqual([answer.total, answer.limit, answer.offset], [7, 2, 4])
      conforms(schema, answer)
      rejects(schema, { ...answer, total: -1 }, { message: "a count is never negative" })
      rejects(schema, { ...answer, limit: 1.5 }, { message: "a count is whole" })
    })
  }

  it("a whole collection is its total, then its items", () => {
    const keys = apiKeyListView([])
    assert.deepStrictEqual(keys, { total: 0, keys: [] })
    conforms(ApiKeyListView, keys)
    const webhooks = webhookListView([webhook, webhook])
    assert.deepStrictEqual(Object.keys(webhooks), ["total", "webhooks"])
    assert.strictEqual(webhooks.total, 2)
    conforms(WebhookListView, webhooks)
  })
})
