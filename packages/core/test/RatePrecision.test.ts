// Proves the precision of a rate and a limit price on the wire (`formatUnitRatio`, `RateString`), by fast-check
// properties with pinned seeds checked in exact integer arithmetic: the string is plain (no exponent, no trailing zeros),
// has at most 10 significant digits, is never above the exact ratio and is less than one unit in its tenth significant
// digit below it (rounding is down, so the bound is one directed ulp rather than half an ulp either way), and rounding
// keeps the order of two ratios. Pinned cases show the quote rate and the limit price the API used to answer in full.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Result, Schema } from "effect"
import { formatUnitRatio, RATE_SIGNIFICANT_DIGITS, RateString } from "../src/WireFormats.ts"

const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/

/** A plain decimal string as an exact fraction `n / d`. */
const fraction = (text: string) => {
  const [whole, decimals = ""] = text.split(".")
  return { n: BigInt(whole! + decimals), d: 10n ** BigInt(decimals.length) }
}

/** The digits from the first non-zero one to the last non-zero one. */
const significantDigits = (text: string) => text.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length

/** The power of ten of the leading digit of a positive plain decimal string. */
const leadingExponent = (text: string) => {
  const [whole, decimals = ""] = text.split(".")
  return whole !== "0" ? whole!.length - 1 : -(decimals.length - decimals.replace(/^0+/, "").length + 1)
}

const accepts = (text: string) => Result.isSuccess(Schema.decodeUnknownResult(RateString)(text))

/** Two token amounts and their decimals: every ratio from 10^-66 to 10^66. */
const ratio = fc.record({
  numerator: fc.bigInt({ min: 1n, max: 10n ** 48n }),
  numeratorDecimals: fc.integer({ min: 0, max: 18 }),
  denominator: fc.bigInt({ min: 1n, max: 10n ** 48n }),
  denominatorDecimals: fc.integer({ min: 0, max: 18 })
})
type Ratio = typeof ratio extends fc.Arbitrary<infer R> ? R : never

/** The exact ratio as `n / d`: numerator·10^denominatorDecimals / (denominator·10^numeratorDecimals). */
const exact = (r: Ratio) => ({
  n: r.numerator * 10n ** BigInt(r.denominatorDecimals),
  d: r.denominator * 10n ** BigInt(r.numeratorDecimals)
})

const format = (r: Ratio) => formatUnitRatio(r.numerator, r.numeratorDecimals, r.denominator, r.denominatorDecimals)

describe("rates and limit prices on the wire", () => {
  it("are rounded down to 10 significant digits, never in exponent notation", () => {
    assert.strictEqual(RATE_SIGNIFICANT_DIGITS, 10)
    // 1 SOL for 250.795534333… USDC (a quote) and 3 SOL for a minimum of 2000 USDC (an order).
    assert.strictEqual(formatUnitRatio(752_386_603n, 6, 3_000_000_000n, 9), "250.7955343")
    assert.strictEqual(formatUnitRatio(2_000_000_000n, 6, 3_000_000_000n, 9), "666.6666666")
    assert.strictEqual(formatUnitRatio(1_000_000n, 6, 3_000_000_000n, 9), "0.3333333333")
    assert.strictEqual(formatUnitRatio(2_000_000n, 6, 3_000_000_000n, 9), "0.6666666666", "down, not to nearest")
    assert.strictEqual(formatUnitRatio(160_000_000n, 6, 1_000_000_000n, 9), "160")
    assert.strictEqual(formatUnitRatio(10n ** 36n, 6, 1n, 18), "1" + "0".repeat(48))
    assert.strictEqual(formatUnitRatio(1n, 6, 10n ** 48n, 18), "0." + "0".repeat(35) + "1")
    assert.strictEqual(formatUnitRatio(12_345_678_901_234n, 0, 1n, 0), "12345678900000")
  })

  it("RateString takes at most 10 significant digits in plain notation", () => {
    for (const text of ["250.7955343", "0.000001234567891", "12345678900000", "160", "0"]) {
      assert.isTrue(accepts(text), text)
    }
    for (const text of ["250.79553433", "0.00000123456789012", "12345678901", "1.50", "1e3", "-1"]) {
      assert.isFalse(accepts(text), text)
    }
  })

  test.prop([ratio], { seed: 2411, numRuns: 2000 })(
    "is plain, has at most 10 significant digits, is never above the exact ratio and less than one ulp below it",
    (r) => {
      const text = format(r)
      assert.match(text, PLAIN_DECIMAL)
      assert.isAtMost(significantDigits(text), RATE_SIGNIFICANT_DIGITS)
      assert.isTrue(accepts(text), text)
      const shown = fraction(text)
      const { d, n } = exact(r)
      // exact − shown, over the common denominator d·shown.d
      const gap = n * shown.d - shown.n * d
      assert.isTrue(gap >= 0n, `${text} is not above the exact ratio`)
      const ulpPower = leadingExponent(text) - (RATE_SIGNIFICANT_DIGITS - 1)
      const ulp = ulpPower >= 0 ? { n: 10n ** BigInt(ulpPower), d: 1n } : { n: 1n, d: 10n ** BigInt(-ulpPower) }
      assert.isTrue(gap * ulp.d < ulp.n * d * shown.d, `${text} is within one unit of its last digit`)
    }
  )

  test.prop([ratio, ratio], { seed: 2412, numRuns: 2000 })(
    "keeps the order of two ratios: a rate at or above a limit is never shown below it",
    (a, b) => {
      const [ea, eb] = [exact(a), exact(b)]
      const [sa, sb] = [fraction(format(a)), fraction(format(b))]
      if (ea.n * eb.d >= eb.n * ea.d) assert.isTrue(sa.n * sb.d >= sb.n * sa.d, `${format(a)} ≥ ${format(b)}`)
      else assert.isTrue(sa.n * sb.d <= sb.n * sa.d, `${format(a)} ≤ ${format(b)}`)
    }
  )
})
