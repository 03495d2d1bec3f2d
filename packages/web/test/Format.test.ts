// Proves the interface's decimal arithmetic for limit orders: `multiplyDecimal` (a limit order's
// minimum output from its amount and limit price) equals the exact product computed with bigints,
// rounded down to the places asked, for any amounts (fast-check), and refuses what is not a
// decimal string; and that a percentage that is not zero never reads as 0.00% (pinned values).
import { fc, test } from "@fast-check/vitest"
import { describe, expect, it } from "vitest"
import { multiplyDecimal, percent } from "../src/app/Format.ts"

const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 12 })).map(
  ([units, places]) => ({ units, places })
)

const text = ({ units, places }: { units: bigint; places: number }): string => {
  const digits = units.toString().padStart(places + 1, "0")
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`
}

describe("multiplyDecimal", () => {
  test.prop([decimal, decimal, fc.integer({ min: 0, max: 8 })])(
    "is the exact product rounded down",
    (amount, price, keep) => {
      const product = amount.units * price.units
      const scale = amount.places + price.places
      const kept = scale <= keep ? product * 10n ** BigInt(keep - scale) : product / 10n ** BigInt(scale - keep)
      const shown = multiplyDecimal(text(amount), text(price), keep)!
      const [whole = "0", fraction = ""] = shown.split(".")
      expect(fraction.length).toBeLessThanOrEqual(keep)
      expect(fraction.endsWith("0")).toBe(false)
      expect(BigInt(whole + fraction.padEnd(keep, "0"))).toBe(kept)
    }
  )

  it("refuses what is not a plain decimal", () => {
    for (const bad of ["", "1e3", "-1", "1.", ".5", "0x10", "1,5"]) expect(multiplyDecimal(bad, "2", 6)).toBeUndefined()
    expect(multiplyDecimal("2.5", "1.2", 6)).toBe("3")
    expect(multiplyDecimal("1", "0.0000001", 6)).toBe("0")
  })
})

describe("percentages on screen", () => {
  it("are signed to two decimals, and a small one that is not zero keeps two significant digits", () => {
    expect(percent(2.0649)).toBe("+2.06%")
    expect(percent(-8.9)).toBe("-8.90%")
    expect(percent(0)).toBe("0.00%")
    expect(percent(-0)).toBe("0.00%")
    expect(percent(-0.001478)).toBe("-0.0015%")
    expect(percent(0.0049)).toBe("+0.0049%")
    expect(percent(0.005)).toBe("+0.01%")
    expect(percent(0.00000012)).toBe("+0.00000012%")
  })
})
