// Proves the money rules of docs/reference/http-api.md (conventions, trades): the fee rounds up,
// the minimum out rounds down, the parts always add back to the whole, and amount strings parse
// strictly and round-trip. Properties run with pinned fast-check seeds and are checked against an
// independent oracle in exact bigint/rational arithmetic, never against the code's formula.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Result } from "effect"
import {
  decimalToUnitsFloor,
  formatAmount,
  MAX_AMOUNT,
  parseAmount,
  platformFee,
  settle,
  swapOutcome,
  unitsToDecimal
} from "../src/Money.ts"

/** Any gross output up to 10^30 whole tokens at 18 decimals, with the small edge values made likely. */
const grossOut = fc.oneof(
  fc.bigInt({ min: 0n, max: 10_000n }),
  fc.bigInt({ min: 0n, max: 10n ** 48n })
)

/** A slippage percent in (0, 50] written with up to 6 decimals: its exact rational is `k / 10^j`. */
const decimalSlippage = fc.integer({ min: 0, max: 6 }).chain((j) =>
  fc.integer({ min: 1, max: 50 * 10 ** j }).map((k) => ({
    k: BigInt(k),
    scale: 10n ** BigInt(j),
    percent: k / 10 ** j
  }))
)

/** The exact rational a JS number's shortest decimal text names, e.g. 1e-7 -> 1 / 10^7. */
const rationalOf = (value: number): { numerator: bigint; denominator: bigint } => {
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value))
  if (match === null) throw new Error(`unexpected number text ${value}`)
  const fraction = match[2] ?? ""
  const exponent = Number(match[3] ?? "0") - fraction.length
  const digits = BigInt(match[1]! + fraction)
  return exponent >= 0
    ? { numerator: digits * 10n ** BigInt(exponent), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-exponent) }
}

const decimalsArb = fc.integer({ min: 0, max: 18 })

/** A decimals count with an amount in `[1, 10^30 whole tokens]` of that token, edges included. */
const amountWithDecimals = decimalsArb.chain((decimals) => {
  const max = MAX_AMOUNT * 10n ** BigInt(decimals)
  return fc.tuple(
    fc.constant(decimals),
    fc.oneof(fc.constantFrom(1n, max, max - 1n), fc.bigInt({ min: 1n, max: 10n ** 6n }), fc.bigInt({ min: 1n, max }))
  )
})

describe("platform fee and swap outcome", () => {
  test.prop([grossOut], { seed: 1001, numRuns: 2000 })("settle conserves: amountOut + fee == grossOut", (gross) => {
    const { amountOut, fee } = settle(gross)
    assert.strictEqual(amountOut + fee, gross)
    assert.isTrue(amountOut >= 0n && fee >= 0n)
  })

  test.prop([grossOut, decimalSlippage], { seed: 1002, numRuns: 2000 })(
    "swapOutcome conserves: netOut + fee == grossOut, and agrees with settle",
    (gross, slippage) => {
      const outcome = swapOutcome(gross, slippage.percent)
      assert.strictEqual(outcome.grossOut, gross)
      assert.strictEqual(outcome.netOut + outcome.fee, gross)
      assert.deepStrictEqual(settle(gross), { amountOut: outcome.netOut, fee: outcome.fee })
    }
  )

  test.prop([grossOut], { seed: 1003, numRuns: 2000 })("fee is exactly ceil(grossOut × 25 / 10000)", (gross) => {
    const fee = platformFee(gross)
    // ceil(x / y) is the unique f with (f - 1) * y < x <= f * y
    assert.isTrue(fee * 10_000n >= gross * 25n, "fee is at least 0.25%")
    assert.isTrue((fee - 1n) * 10_000n < gross * 25n, "fee is the least such value")
  })

  test.prop([grossOut, decimalSlippage], { seed: 1004, numRuns: 2000 })(
    "minAmountOut is exactly floor(netOut × (1 − s/100)) for decimal slippage",
    (gross, { k, scale }) => {
      const outcome = swapOutcome(gross, Number(k) / Number(scale))
      const denominator = 100n * scale
      const numerator = outcome.netOut * (denominator - k)
      assert.isTrue(outcome.minAmountOut >= 0n && outcome.minAmountOut <= outcome.netOut)
      assert.isTrue(outcome.minAmountOut * denominator <= numerator, "never above the bound")
      assert.isTrue((outcome.minAmountOut + 1n) * denominator > numerator, "the greatest value under the bound")
    }
  )

  test.prop([grossOut, fc.double({ min: Number.MIN_VALUE, max: 50, noNaN: true })], { seed: 1005, numRuns: 2000 })(
    "minAmountOut is exactly the floor for any slippage number in (0, 50], tiny ones in exponent form included",
    (gross, slippage) => {
      const outcome = swapOutcome(gross, slippage)
      const s = rationalOf(slippage)
      const denominator = 100n * s.denominator
      const numerator = outcome.netOut * (denominator - s.numerator)
      assert.isTrue(outcome.minAmountOut >= 0n && outcome.minAmountOut <= outcome.netOut)
      assert.isTrue(outcome.minAmountOut * denominator <= numerator)
      assert.isTrue((outcome.minAmountOut + 1n) * denominator > numerator)
    }
  )

  test.prop([grossOut, grossOut], { seed: 1006, numRuns: 2000 })("the fee is monotone in the amount", (a, b) => {
    const [low, high] = a <= b ? [a, b] : [b, a]
    assert.isTrue(platformFee(low) <= platformFee(high))
  })

  test.prop([grossOut, decimalSlippage, decimalSlippage], { seed: 1007, numRuns: 1000 })(
    "more slippage tolerance never raises the minimum out",
    (gross, a, b) => {
      const [low, high] = a.percent <= b.percent ? [a, b] : [b, a]
      assert.isTrue(swapOutcome(gross, high.percent).minAmountOut <= swapOutcome(gross, low.percent).minAmountOut)
    }
  )

  it("worked examples: rounding up the fee, down the minimum", () => {
    assert.strictEqual(platformFee(0n), 0n)
    assert.strictEqual(platformFee(1n), 1n)
    assert.strictEqual(platformFee(399n), 1n)
    assert.strictEqual(platformFee(400n), 1n)
    assert.strictEqual(platformFee(401n), 2n)
    assert.strictEqual(platformFee(10_000n), 25n)
    assert.deepStrictEqual(swapOutcome(1_000_000n, 0.5), {
      grossOut: 1_000_000n,
      fee: 2_500n,
      netOut: 997_500n,
      minAmountOut: 992_512n
    })
    // 997500 × 0.25% = 2493.75 -> 2494; 995006 × 50% = 497503 exactly
    assert.deepStrictEqual(swapOutcome(997_500n, 50), {
      grossOut: 997_500n,
      fee: 2_494n,
      netOut: 995_006n,
      minAmountOut: 497_503n
    })
    // 995006 × 99.9% = 994010.994 -> 994010
    assert.strictEqual(swapOutcome(997_500n, 0.1).minAmountOut, 994_010n)
  })
})

describe("parseAmount and formatAmount", () => {
  test.prop([amountWithDecimals], { seed: 2001, numRuns: 3000 })(
    "parseAmount(formatAmount(x, d), d) == x for every amount up to 10^30 tokens, d in 0..18",
    ([decimals, units]) => {
      const text = formatAmount(units, decimals)
      assert.match(text, /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/, "plain decimal, no trailing zeros")
      assert.deepStrictEqual(parseAmount(text, decimals), Result.succeed(units))
    }
  )

  test.prop([amountWithDecimals], { seed: 2002, numRuns: 1000 })(
    "base units survive the trip through an exact decimal and back",
    ([decimals, units]) => {
      assert.strictEqual(decimalToUnitsFloor(unitsToDecimal(units, decimals), decimals), units)
    }
  )

  it("formats without exponent or trailing zeros", () => {
    assert.strictEqual(formatAmount(1_500_000_000n, 9), "1.5")
    assert.strictEqual(formatAmount(1n, 18), "0.000000000000000001")
    assert.strictEqual(formatAmount(10n ** 48n, 18), "1000000000000000000000000000000")
    assert.strictEqual(formatAmount(0n, 6), "0")
    assert.strictEqual(formatAmount(1_000_000n, 6), "1")
    assert.strictEqual(formatAmount(120n, 0), "120")
    assert.strictEqual(formatAmount(-1_234_500n, 6), "-1.2345")
    assert.strictEqual(formatAmount(-5n, 1), "-0.5")
  })

  it("accepts the largest amount and the smallest unit", () => {
    assert.deepStrictEqual(parseAmount("1000000000000000000000000000000", 18), Result.succeed(10n ** 48n))
    assert.deepStrictEqual(parseAmount("0.000001", 6), Result.succeed(1n))
    assert.deepStrictEqual(parseAmount("0.10", 6), Result.succeed(100_000n))
    assert.deepStrictEqual(parseAmount("7", 0), Result.succeed(7n))
  })

  const rejected: ReadonlyArray<readonly [string, string, number]> = [
    ["exponent", "1e5", 6],
    ["upper-case exponent", "1E5", 6],
    ["minus sign", "-1", 6],
    ["plus sign", "+1", 6],
    ["leading space", " 1", 6],
    ["trailing space", "1 ", 6],
    ["inner space", "1 000", 6],
    ["too many decimals", "1.1234567", 6],
    ["decimals on a 0-decimal token", "1.5", 0],
    ["empty", "", 6],
    ["leading zero", "01", 6],
    ["missing whole part", ".5", 6],
    ["missing fraction", "5.", 6],
    ["zero", "0", 6],
    ["zero with decimals", "0.000", 6],
    ["over 10^30", "1000000000000000000000000000000.000001", 6],
    ["10^30 + 1", "1000000000000000000000000000001", 0],
    ["comma", "1,5", 6],
    ["two points", "1.2.3", 6],
    ["hex", "0x10", 6],
    ["Infinity", "Infinity", 6],
    ["NaN", "NaN", 6],
    ["unicode digit", "١", 6]
  ]
  for (const [why, text, decimals] of rejected) {
    it(`rejects ${why}: ${JSON.stringify(text)}`, () => {
      const parsed = parseAmount(text, decimals)
      assert.isTrue(Result.isFailure(parsed), `${JSON.stringify(text)} must be rejected`)
    })
  }

  it("says why an amount is rejected", () => {
    assert.deepStrictEqual(
      parseAmount("1.1234567", 6),
      Result.fail("has 7 decimal places; this token allows at most 6")
    )
    assert.deepStrictEqual(parseAmount("0", 6), Result.fail("must be greater than zero"))
    assert.deepStrictEqual(parseAmount("1000000000000000000000000000001", 0), Result.fail("must be at most 10^30"))
  })
})
