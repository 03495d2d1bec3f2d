// Proves every validation rule of docs/reference/http-api.md#conventions and of the request schemas
// in Requests.ts with one accepted and one rejected input each, decoded the way the API decodes
// them (bodies strict, queries ignoring unknown parameters, every problem collected as { path,
// message }), plus the alert type rules of docs/reference/http-api.md#alerts one by one.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { alertDefaults, type AlertRule } from "../src/Alert.ts"
import { ValidationFailed, type ValidationIssue } from "../src/Errors.ts"
import { currencies, timeframes } from "../src/Market.ts"
import { networks } from "../src/Network.ts"
import {
  ChartQuery,
  CreateAlertBody,
  CreateApiKeyBody,
  CreateOrderBody,
  CreateTradeBody,
  CreateWebhookBody,
  ListAlertsQuery,
  ListOrdersQuery,
  ListTradesQuery,
  MarketDataQuery,
  QuoteQuery,
  TrendingQuery,
  UpdateAlertBody,
  UpdateNotificationsBody
} from "../src/Requests.ts"
import { simulatorCatalog } from "../src/SimulatorTokens.ts"
import {
  amountIssue,
  decodeQueryResult,
  decodeRequest,
  decodeRequestResult,
  type RequestSchema,
  validateAlertRule
} from "../src/Validation.ts"
import { webhookEventTypes } from "../src/Webhook.ts"

// ---- helpers ------------------------------------------------------------------------------------

const body = <S extends RequestSchema>(schema: S) => decodeRequestResult(schema)
const query = <S extends RequestSchema>(schema: S) => decodeQueryResult(schema)

/** The decoded value, failing the test with the issues when there are any. */
const ok = <A>(result: Result.Result<A, ReadonlyArray<ValidationIssue>>): A => {
  if (Result.isFailure(result)) assert.fail(`expected success, got ${JSON.stringify(result.failure)}`)
  return result.success
}

/** The issues, failing the test when the input was accepted. */
const issues = <A>(result: Result.Result<A, ReadonlyArray<ValidationIssue>>): ReadonlyArray<ValidationIssue> => {
  if (Result.isSuccess(result)) assert.fail(`expected a rejection, got ${JSON.stringify(result.success)}`)
  assert.isAbove(result.failure.length, 0)
  return result.failure
}

/** Rejected, with (at least) one issue at `path`; answers that issue's message. */
const rejectedAt = <A>(result: Result.Result<A, ReadonlyArray<ValidationIssue>>, path: string): string => {
  const found = issues(result).filter((issue) => issue.path === path)
  assert.isAbove(found.length, 0, `expected an issue at "${path}", got ${JSON.stringify(issues(result))}`)
  return found[0]!.message
}

const trade = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1.5", network: "solana" } as const

// ---- the envelope of every rejection (http-api.md#conventions) ----------------------------------

/** The message of the issue a trade body with `amountIn` gets at `amountIn`. */
const amountMessage = (amountIn: unknown) =>
  issues(body(CreateTradeBody)({ ...trade, amountIn })).find((issue) => issue.path === "amountIn")?.message

describe("how problems are reported", () => {
  it("an unknown body field is rejected, naming the field", () => {
    assert.deepStrictEqual(issues(body(CreateTradeBody)({ ...trade, evil: 1 })), [
      { path: "evil", message: "Expected no excess property" }
    ])
  })

  it("a body without unknown fields is accepted as it is", () => {
    assert.deepStrictEqual(ok(body(CreateTradeBody)(trade)), trade)
  })

  it("every problem is collected at once, each as { path, message }", () => {
    const found = issues(
      body(CreateTradeBody)({ tokenIn: "", amountIn: "1e5", slippage: 60, network: "polygon", evil: true })
    )
    assert.deepStrictEqual(found.map((issue) => issue.path).toSorted(), [
      "amountIn",
      "evil",
      "network",
      "slippage",
      "tokenIn",
      "tokenOut"
    ])
    for (const issue of found) {
      assert.deepStrictEqual(Object.keys(issue).toSorted(), ["message", "path"])
      assert.isAbove(issue.message.length, 0)
    }
  })

  it("a missing required field is named", () => {
    assert.strictEqual(
      rejectedAt(body(CreateTradeBody)({ tokenIn: "SOL", amountIn: "1", network: "base" }), "tokenOut"),
      "Missing key"
    )
  })

  it("a nested problem has a dotted path", () => {
    rejectedAt(body(UpdateNotificationsBody)({ telegram: { chatId: "42", extra: 1 } }), "telegram.extra")
    rejectedAt(body(CreateWebhookBody)({ url: "https://example.com/hook", events: ["trade.created"] }), "events.0")
  })

  it("a body that is not an object is one issue at the root", () => {
    for (const input of [null, [], "text", 7]) {
      assert.deepStrictEqual(issues(body(CreateTradeBody)(input)).map((issue) => issue.path), [""])
    }
  })

  it("an amount sent as a JSON number says to send it as a string; a bad string says what a decimal is", () => {
    assert.strictEqual(amountMessage(1.5), "send amounts as decimal strings, e.g. \"1.5\"")
    assert.strictEqual(amountMessage(null), "send amounts as decimal strings, e.g. \"1.5\"")
    assert.match(amountMessage("1e5") ?? "", /^must be a plain decimal string such as "1\.5"/)
  })

  it.effect("a summary counts the other issues as issues, not as one more allowed value", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeRequest(CreateTradeBody)({ ...trade, network: "mars", amountIn: 2 }))
      assert.strictEqual(error.details.length, 2)
      assert.match(error.message, /^(network|amountIn): .* \(and 1 more issue; see details\)$/)
      const three = yield* Effect.flip(decodeRequest(CreateTradeBody)({ ...trade, network: "mars", amountIn: 2, x: 1 }))
      assert.match(three.message, / \(and 2 more issues; see details\)$/)
    }))

  it.effect("decodeRequest fails with ValidationFailed carrying every detail, and a summary message", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeRequest(CreateTradeBody)({ ...trade, slippage: 0, extra: 1 }))
      assert.instanceOf(error, ValidationFailed)
      assert.strictEqual(error.code, "VALIDATION_ERROR")
      assert.sameDeepMembers([...error.details], [
        { path: "extra", message: "Expected no excess property" },
        { path: "slippage", message: "must be greater than 0" }
      ])
      assert.match(error.message, / \(and 1 more issue; see details\)$/)
    }))

  it.effect("decodeRequest succeeds with the decoded value", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* decodeRequest(CreateTradeBody)({ ...trade, slippage: 1 }), {
        ...trade,
        slippage: 1
      })
    }))

  it("unknown query parameters are ignored, known ones still checked", () => {
    assert.deepStrictEqual(ok(query(ListTradesQuery)({ limit: "5", utm_source: "x" })), { limit: 5 })
    rejectedAt(query(ListTradesQuery)({ limit: "500", utm_source: "x" }), "limit")
  })
})

// ---- amounts (http-api.md#conventions) ----------------------------------------------------------

describe("amount strings", () => {
  for (const good of ["1", "1.5", "0.000001", "1000000"]) {
    it(`accepts the plain decimal ${JSON.stringify(good)}`, () => {
      assert.strictEqual(ok(body(CreateTradeBody)({ ...trade, amountIn: good })).amountIn, good)
    })
  }
  for (const bad of ["1e5", "-1", "+1", " 1", "1 ", "01", ".5", "5.", "", "1,5", "0x1"]) {
    it(`rejects ${JSON.stringify(bad)} in the schema`, () => {
      rejectedAt(body(CreateTradeBody)({ ...trade, amountIn: bad }), "amountIn")
    })
  }
  it("rejects a number where a decimal string is required", () => {
    rejectedAt(body(CreateTradeBody)({ ...trade, amountIn: 1.5 }), "amountIn")
  })

  it("amountIssue bounds the decimal places by the token", () => {
    const usdc = simulatorCatalog.tokenOf("USDC").decimals
    assert.deepStrictEqual(amountIssue("amountIn", "1.123456", usdc), Result.succeed(1_123_456n))
    assert.deepStrictEqual(
      amountIssue("amountIn", "1.1234567", usdc),
      Result.fail({ path: "amountIn", message: "has 7 decimal places; this token allows at most 6" })
    )
    assert.deepStrictEqual(
      amountIssue("amountIn", "1.1234567", simulatorCatalog.tokenOf("SOL").decimals),
      Result.succeed(1_123_456_700n)
    )
    assert.isTrue(Result.isFailure(amountIssue("amountIn", "0.000001", simulatorCatalog.tokenOf("BONK").decimals)))
  })

  it("amountIssue rejects zero, over 10^30 and malformed text at the path it is given", () => {
    for (const text of ["0", "0.0", "1000000000000000000000000000000.1", "1e3"]) {
      const result = amountIssue("minAmountOut", text, 6)
      assert.isTrue(Result.isFailure(result), text)
      if (Result.isFailure(result)) assert.strictEqual(result.failure.path, "minAmountOut")
    }
    assert.deepStrictEqual(
      amountIssue("minAmountOut", "1000000000000000000000000000000", 6),
      Result.succeed(10n ** 36n)
    )
  })
})

// ---- trades and quotes (http-api.md#trades) -----------------------------------------------------

describe("POST /trades body", () => {
  it("slippage is optional", () => {
    assert.isFalse("slippage" in ok(body(CreateTradeBody)(trade)))
  })
  for (const good of [0.0001, 0.5, 1, 50]) {
    it(`accepts slippage ${good}`, () => {
      assert.strictEqual(ok(body(CreateTradeBody)({ ...trade, slippage: good })).slippage, good)
    })
  }
  for (const bad of [0, -0.5, 50.0001, 100]) {
    it(`rejects slippage ${bad}`, () => {
      rejectedAt(body(CreateTradeBody)({ ...trade, slippage: bad }), "slippage")
    })
  }
  it("rejects slippage as a string", () => {
    rejectedAt(body(CreateTradeBody)({ ...trade, slippage: "0.5" }), "slippage")
  })
  for (const network of networks) {
    it(`accepts network ${network}`, () => {
      assert.strictEqual(ok(body(CreateTradeBody)({ ...trade, network })).network, network)
    })
  }
  for (const bad of ["polygon", "Solana", ""]) {
    it(`rejects network ${JSON.stringify(bad)}`, () => {
      rejectedAt(body(CreateTradeBody)({ ...trade, network: bad }), "network")
    })
  }
  it("a token reference is 1 to 64 characters", () => {
    ok(body(CreateTradeBody)({ ...trade, tokenIn: "0x" + "a".repeat(40) }))
    rejectedAt(body(CreateTradeBody)({ ...trade, tokenIn: "" }), "tokenIn")
    rejectedAt(body(CreateTradeBody)({ ...trade, tokenOut: "x".repeat(65) }), "tokenOut")
  })
})

describe("GET /quote query", () => {
  const quote = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "2", network: "solana" } as const
  it("parses slippage from the query string", () => {
    assert.deepStrictEqual(ok(query(QuoteQuery)({ ...quote, slippage: "0.5" })), { ...quote, slippage: 0.5 })
    assert.deepStrictEqual(ok(query(QuoteQuery)(quote)), quote)
  })
  for (const [good, slippage] of [["1e-1", 0.1], [".5", 0.5], ["50", 50]] as const) {
    it(`accepts slippage ${JSON.stringify(good)}`, () => {
      assert.strictEqual(ok(query(QuoteQuery)({ ...quote, slippage: good })).slippage, slippage)
    })
  }
  for (
    const [bad, message] of [["0", "must be greater than 0"], ["-1", "must be greater than 0"], [
      "50.5",
      "must be at most 50"
    ]]
  ) {
    it(`rejects slippage ${JSON.stringify(bad)}: ${message}`, () => {
      assert.strictEqual(rejectedAt(query(QuoteQuery)({ ...quote, slippage: bad }), "slippage"), message)
    })
  }
  for (const bad of ["abc", "", " 1", "0x10", "NaN", "Infinity", "1,5"]) {
    it(`rejects the non-number ${JSON.stringify(bad)} for slippage as not a number`, () => {
      assert.strictEqual(rejectedAt(query(QuoteQuery)({ ...quote, slippage: bad }), "slippage"), "must be a number")
    })
  }
  it("needs every swap term", () => {
    const found = issues(query(QuoteQuery)({}))
    assert.deepStrictEqual(found.map((issue) => issue.path).toSorted(), ["amountIn", "network", "tokenIn", "tokenOut"])
  })
})

describe("pagination (limit and offset)", () => {
  for (const schema of [ListTradesQuery, ListAlertsQuery, ListOrdersQuery]) {
    it("accepts limit 1..100 and offset >= 0, parsed to numbers", () => {
      assert.deepStrictEqual(ok(query(schema)({ limit: "1", offset: "0" })), { limit: 1, offset: 0 })
      assert.deepStrictEqual(ok(query(schema)({ limit: "100", offset: "40" })), { limit: 100, offset: 40 })
      assert.deepStrictEqual(ok(query(schema)({})), {})
    })
    it("rejects an out-of-range limit instead of clamping it", () => {
      assert.strictEqual(rejectedAt(query(schema)({ limit: "101" }), "limit"), "must be between 1 and 100")
      rejectedAt(query(schema)({ limit: "0" }), "limit")
      rejectedAt(query(schema)({ limit: "-5" }), "limit")
    })
    it("rejects a negative offset", () => {
      rejectedAt(query(schema)({ offset: "-1" }), "offset")
    })
    for (const bad of ["1.5", "abc", "", "1e1", "0x10", " 5"]) {
      it(`rejects the non-integer ${JSON.stringify(bad)} for limit and offset`, () => {
        assert.strictEqual(rejectedAt(query(schema)({ limit: bad }), "limit"), "must be a whole number")
        assert.strictEqual(rejectedAt(query(schema)({ offset: bad }), "offset"), "must be a whole number")
      })
    }
  }
})

describe("GET /trades filters", () => {
  for (const status of ["pending", "confirmed", "failed"] as const) {
    it(`accepts status ${status}`, () => {
      assert.deepStrictEqual(ok(query(ListTradesQuery)({ status })), { status })
    })
  }
  it("rejects an unknown status and network", () => {
    rejectedAt(query(ListTradesQuery)({ status: "cancelled" }), "status")
    rejectedAt(query(ListTradesQuery)({ network: "polygon" }), "network")
  })
  for (const good of ["2026-01-01", "2026-01-01T00:00:00Z", "2026-01-01T12:30Z", "2024-02-29T23:59:59.999+02:00"]) {
    it(`accepts the ISO timestamp ${good}`, () => {
      assert.deepStrictEqual(ok(query(ListTradesQuery)({ from: good, to: good })), { from: good, to: good })
    })
  }
  for (
    const bad of [
      "yesterday",
      "2026-1-1",
      "2026-01-01T00:00:00",
      "2026-13-01",
      "2026-02-30",
      "2025-02-29T00:00:00Z",
      "2026-04-31T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T23:60:00Z",
      "2026-01-01T00:00:61Z",
      "2026-01-01T00:00:00+25:00",
      "1735689600000"
    ]
  ) {
    it(`rejects the timestamp ${JSON.stringify(bad)}`, () => {
      rejectedAt(query(ListTradesQuery)({ from: bad }), "from")
    })
  }
})

// ---- market data (http-api.md#market-data) ------------------------------------------------------

describe("market data queries", () => {
  for (const currency of currencies) {
    it(`accepts currency ${currency}`, () => {
      assert.deepStrictEqual(ok(query(MarketDataQuery)({ token: "SOL", currency })), { token: "SOL", currency })
    })
  }
  for (const bad of ["usd", "BTC", "XYZ"]) {
    it(`rejects currency ${bad}`, () => {
      rejectedAt(query(MarketDataQuery)({ token: "SOL", currency: bad }), "currency")
      rejectedAt(query(ChartQuery)({ token: "SOL", timeframe: "1h", currency: bad }), "currency")
    })
  }
  it("needs a token", () => {
    rejectedAt(query(MarketDataQuery)({}), "token")
  })
  for (const timeframe of timeframes) {
    it(`accepts timeframe ${timeframe}`, () => {
      assert.strictEqual(ok(query(ChartQuery)({ token: "ETH", timeframe })).timeframe, timeframe)
    })
  }
  for (const bad of ["2m", "1H", "1w", ""]) {
    it(`rejects timeframe ${JSON.stringify(bad)}`, () => {
      rejectedAt(query(ChartQuery)({ token: "ETH", timeframe: bad }), "timeframe")
    })
  }
  it("chart needs a timeframe and takes ISO from/to", () => {
    rejectedAt(query(ChartQuery)({ token: "ETH" }), "timeframe")
    ok(query(ChartQuery)({ token: "ETH", timeframe: "1d", from: "2026-01-01", to: "2026-01-31T00:00:00Z" }))
    rejectedAt(query(ChartQuery)({ token: "ETH", timeframe: "1d", to: "2026-02-30" }), "to")
  })
  it("trending limit is at most 50, not clamped", () => {
    assert.deepStrictEqual(ok(query(TrendingQuery)({ limit: "50" })), { limit: 50 })
    assert.strictEqual(rejectedAt(query(TrendingQuery)({ limit: "51" }), "limit"), "must be between 1 and 50")
    rejectedAt(query(TrendingQuery)({ limit: "0" }), "limit")
    rejectedAt(query(TrendingQuery)({ limit: "10.5" }), "limit")
  })
  it("trending network is optional and must be one of the four", () => {
    assert.deepStrictEqual(ok(query(TrendingQuery)({ network: "base" })), { network: "base" })
    rejectedAt(query(TrendingQuery)({ network: "all" }), "network")
  })
})

// ---- alerts (http-api.md#alerts) ----------------------------------------------------------------

describe("POST /alerts body schema", () => {
  const price = { type: "price", token: "SOL", condition: "above", targetPrice: 150, channel: "email" } as const
  it("accepts a complete price alert", () => {
    assert.deepStrictEqual(ok(body(CreateAlertBody)(price)), price)
  })
  it("rejects an unknown type, condition and channel", () => {
    rejectedAt(body(CreateAlertBody)({ ...price, type: "news" }), "type")
    rejectedAt(body(CreateAlertBody)({ ...price, condition: "over" }), "condition")
    rejectedAt(body(CreateAlertBody)({ ...price, channel: "sms" }), "channel")
  })
  for (const channel of ["email", "push", "telegram"]) {
    it(`accepts channel ${channel}`, () => {
      assert.strictEqual(ok(body(CreateAlertBody)({ ...price, channel })).channel, channel)
    })
  }
  it("numbers must be positive numbers", () => {
    rejectedAt(body(CreateAlertBody)({ ...price, targetPrice: 0 }), "targetPrice")
    rejectedAt(body(CreateAlertBody)({ ...price, targetPrice: "150" }), "targetPrice")
    rejectedAt(body(CreateAlertBody)({ type: "volume", token: "SOL", multiplier: -1, channel: "push" }), "multiplier")
    rejectedAt(body(CreateAlertBody)({ type: "whale", token: "SOL", minValueUsd: 0, channel: "push" }), "minValueUsd")
    rejectedAt(body(CreateAlertBody)({ type: "portfolio", changePercent: -10, channel: "push" }), "changePercent")
  })
  it("an unknown field is rejected", () => {
    rejectedAt(body(CreateAlertBody)({ ...price, note: "x" }), "note")
  })
})

const rule = (input: Omit<CreateAlertBody, "channel">) => validateAlertRule({ ...input, channel: "email" })
const rejectedFields = (input: Omit<CreateAlertBody, "channel">) => issues(rule(input)).map((issue) => issue.path)

describe("alert type rules (validateAlertRule)", () => {
  it("price: token, condition and targetPrice make the rule", () => {
    assert.deepStrictEqual(
      ok(rule({ type: "price", token: "sol", condition: "below", targetPrice: 99.5 })),
      { type: "price", token: "sol", condition: "below", targetPrice: 99.5 } satisfies AlertRule
    )
  })
  it("price: token is required", () => {
    assert.deepStrictEqual(rejectedFields({ type: "price", condition: "above", targetPrice: 1 }), ["token"])
  })
  it("price: condition is required", () => {
    assert.deepStrictEqual(rejectedFields({ type: "price", token: "SOL", targetPrice: 1 }), ["condition"])
  })
  it("price: targetPrice is required", () => {
    assert.deepStrictEqual(rejectedFields({ type: "price", token: "SOL", condition: "above" }), ["targetPrice"])
  })
  it("price: all three missing are three issues, with messages naming the type", () => {
    const found = issues(rule({ type: "price" }))
    assert.deepStrictEqual(found.map((issue) => issue.path).toSorted(), ["condition", "targetPrice", "token"])
    for (const issue of found) assert.strictEqual(issue.message, "is required for a price alert")
  })
  it("price: multiplier, minValueUsd and changePercent do not belong", () => {
    const base = { type: "price", token: "SOL", condition: "above", targetPrice: 1 } as const
    assert.deepStrictEqual(rejectedFields({ ...base, multiplier: 2 }), ["multiplier"])
    assert.deepStrictEqual(rejectedFields({ ...base, minValueUsd: 2 }), ["minValueUsd"])
    assert.deepStrictEqual(rejectedFields({ ...base, changePercent: 2 }), ["changePercent"])
  })

  it("volume: token is required; multiplier defaults to 3", () => {
    assert.deepStrictEqual(rejectedFields({ type: "volume" }), ["token"])
    assert.deepStrictEqual(ok(rule({ type: "volume", token: "BONK" })), {
      type: "volume",
      token: "BONK",
      multiplier: alertDefaults.multiplier
    })
    assert.strictEqual(alertDefaults.multiplier, 3)
  })
  it("volume: a given multiplier is kept", () => {
    assert.deepStrictEqual(ok(rule({ type: "volume", token: "BONK", multiplier: 5 })), {
      type: "volume",
      token: "BONK",
      multiplier: 5
    })
  })
  it("volume: condition, targetPrice, minValueUsd and changePercent do not belong", () => {
    assert.deepStrictEqual(rejectedFields({ type: "volume", token: "SOL", condition: "above" }), ["condition"])
    assert.deepStrictEqual(rejectedFields({ type: "volume", token: "SOL", targetPrice: 1 }), ["targetPrice"])
    assert.deepStrictEqual(rejectedFields({ type: "volume", token: "SOL", minValueUsd: 1 }), ["minValueUsd"])
    assert.deepStrictEqual(rejectedFields({ type: "volume", token: "SOL", changePercent: 1 }), ["changePercent"])
  })

  it("whale: token is required; minValueUsd defaults to 100000", () => {
    assert.deepStrictEqual(rejectedFields({ type: "whale" }), ["token"])
    assert.deepStrictEqual(ok(rule({ type: "whale", token: "ETH" })), {
      type: "whale",
      token: "ETH",
      minValueUsd: 100_000
    })
  })
  it("whale: a given minValueUsd is kept; multiplier and condition do not belong", () => {
    assert.deepStrictEqual(ok(rule({ type: "whale", token: "ETH", minValueUsd: 250_000 })), {
      type: "whale",
      token: "ETH",
      minValueUsd: 250_000
    })
    assert.deepStrictEqual(rejectedFields({ type: "whale", token: "ETH", multiplier: 2 }), ["multiplier"])
    assert.deepStrictEqual(rejectedFields({ type: "whale", token: "ETH", condition: "below" }), ["condition"])
  })

  it("portfolio: no token; changePercent defaults to 10", () => {
    assert.deepStrictEqual(ok(rule({ type: "portfolio" })), { type: "portfolio", changePercent: 10 })
    assert.deepStrictEqual(ok(rule({ type: "portfolio", changePercent: 2.5 })), {
      type: "portfolio",
      changePercent: 2.5
    })
  })
  it("portfolio: a token is rejected, naming it", () => {
    const found = issues(rule({ type: "portfolio", token: "SOL" }))
    assert.deepStrictEqual(found, [{ path: "token", message: "is not allowed on a portfolio alert" }])
  })
  it("portfolio: every misplaced field is its own issue", () => {
    assert.deepStrictEqual(
      rejectedFields({
        type: "portfolio",
        token: "SOL",
        condition: "above",
        targetPrice: 1,
        multiplier: 2,
        minValueUsd: 3
      }).toSorted(),
      ["condition", "minValueUsd", "multiplier", "targetPrice", "token"]
    )
  })
  it("missing and misplaced fields are reported together", () => {
    assert.deepStrictEqual(rejectedFields({ type: "price", token: "SOL", multiplier: 2 }).toSorted(), [
      "condition",
      "multiplier",
      "targetPrice"
    ])
  })
})

describe("PATCH /alerts/{id} and GET /alerts", () => {
  for (const status of ["active", "disabled"]) {
    it(`accepts status ${status}`, () => {
      assert.deepStrictEqual(ok(body(UpdateAlertBody)({ status })), { status })
    })
  }
  for (const bad of ["triggered", "deleted", ""]) {
    it(`rejects status ${JSON.stringify(bad)}`, () => {
      rejectedAt(body(UpdateAlertBody)({ status: bad }), "status")
    })
  }
  it("needs a status and nothing else", () => {
    rejectedAt(body(UpdateAlertBody)({}), "status")
    rejectedAt(body(UpdateAlertBody)({ status: "active", channel: "push" }), "channel")
  })
  it("lists filter by status, type and token", () => {
    assert.deepStrictEqual(ok(query(ListAlertsQuery)({ status: "triggered", type: "whale", token: "SOL" })), {
      status: "triggered",
      type: "whale",
      token: "SOL"
    })
    rejectedAt(query(ListAlertsQuery)({ status: "open" }), "status")
    rejectedAt(query(ListAlertsQuery)({ type: "news" }), "type")
  })
})

// ---- orders, keys, notifications, webhooks (http-api.md#api-keys, #limit-orders, #notifications-and-webhooks) ---

describe("POST /orders body", () => {
  const order = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", minAmountOut: "160", network: "solana" } as const
  it("accepts an order, with or without expiresAt", () => {
    assert.deepStrictEqual(ok(body(CreateOrderBody)(order)), order)
    const expiring = { ...order, expiresAt: "2026-02-01T00:00:00Z" }
    assert.deepStrictEqual(ok(body(CreateOrderBody)(expiring)), expiring)
  })
  it("rejects a malformed minAmountOut, a bad expiresAt, a missing network and an unknown field together", () => {
    const { network: _network, ...noNetwork } = order
    const found = issues(body(CreateOrderBody)({ ...noNetwork, minAmountOut: "1e2", expiresAt: "soon", side: "buy" }))
    assert.deepStrictEqual(found.map((issue) => issue.path).toSorted(), [
      "expiresAt",
      "minAmountOut",
      "network",
      "side"
    ])
  })
  it("lists filter by the five order statuses", () => {
    for (const status of ["pending", "confirmed", "failed", "cancelled", "expired"]) {
      ok(query(ListOrdersQuery)({ status }))
    }
    rejectedAt(query(ListOrdersQuery)({ status: "open" }), "status")
  })
})

describe("POST /auth/api-keys body", () => {
  it("accepts a name and scopes, optionally an expiry", () => {
    assert.deepStrictEqual(ok(body(CreateApiKeyBody)({ name: "bot", scopes: ["read", "trade"] })), {
      name: "bot",
      scopes: ["read", "trade"]
    })
    ok(body(CreateApiKeyBody)({ name: "bot", scopes: ["account"], expiresAt: "2027-01-01T00:00:00Z" }))
  })
  it("a name is 1 to 100 characters", () => {
    ok(body(CreateApiKeyBody)({ name: "n".repeat(100), scopes: ["read"] }))
    rejectedAt(body(CreateApiKeyBody)({ name: "", scopes: ["read"] }), "name")
    rejectedAt(body(CreateApiKeyBody)({ name: "n".repeat(101), scopes: ["read"] }), "name")
  })
  it("scopes are a non-empty list of known scopes", () => {
    rejectedAt(body(CreateApiKeyBody)({ name: "bot", scopes: [] }), "scopes")
    rejectedAt(body(CreateApiKeyBody)({ name: "bot", scopes: ["read", "admin"] }), "scopes.1")
    rejectedAt(body(CreateApiKeyBody)({ name: "bot", scopes: "read" }), "scopes")
  })
  it("expiresAt must be an ISO timestamp; unknown fields are rejected", () => {
    rejectedAt(body(CreateApiKeyBody)({ name: "bot", scopes: ["read"], expiresAt: "next year" }), "expiresAt")
    rejectedAt(body(CreateApiKeyBody)({ name: "bot", scopes: ["read"], key: "sd_test_x" }), "key")
  })
})

describe("PUT /account/notifications body", () => {
  it("an empty body changes nothing and is accepted", () => {
    assert.deepStrictEqual(ok(body(UpdateNotificationsBody)({})), {})
  })
  it("sets or removes each channel", () => {
    const all = { email: "alice@example.com", telegram: { chatId: "123" }, push: { deviceToken: "dev-1" } }
    assert.deepStrictEqual(ok(body(UpdateNotificationsBody)(all)), all)
    const none = { email: null, telegram: null, push: null }
    assert.deepStrictEqual(ok(body(UpdateNotificationsBody)(none)), none)
  })
  it("rejects a malformed email, an empty chat id, a missing device token and unknown fields", () => {
    rejectedAt(body(UpdateNotificationsBody)({ email: "not-an-email" }), "email")
    rejectedAt(body(UpdateNotificationsBody)({ telegram: { chatId: "" } }), "telegram.chatId")
    rejectedAt(body(UpdateNotificationsBody)({ push: {} }), "push.deviceToken")
    rejectedAt(body(UpdateNotificationsBody)({ sms: "+100" }), "sms")
  })
})

describe("POST /webhooks body", () => {
  it("accepts an http(s) url and known events", () => {
    const hook = { url: "https://example.com/hooks/swapdesk", events: [...webhookEventTypes] }
    assert.deepStrictEqual(ok(body(CreateWebhookBody)(hook)), hook)
    ok(body(CreateWebhookBody)({ url: "http://localhost:8080/x", events: ["trade.confirmed"] }))
  })
  it("rejects other schemes, an empty event list and unknown events", () => {
    rejectedAt(body(CreateWebhookBody)({ url: "ftp://example.com", events: ["trade.failed"] }), "url")
    rejectedAt(body(CreateWebhookBody)({ url: "example.com", events: ["trade.failed"] }), "url")
    rejectedAt(body(CreateWebhookBody)({ url: "https://example.com", events: [] }), "events")
    rejectedAt(body(CreateWebhookBody)({ url: "https://example.com", events: ["trade.created"] }), "events.0")
  })
  it("rejects an unknown field", () => {
    rejectedAt(body(CreateWebhookBody)({ url: "https://example.com", events: ["order.filled"], secret: "x" }), "secret")
  })
})
