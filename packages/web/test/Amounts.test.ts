// Proves the amount checks the swap and order forms run before sending anything and the one rule
// every screen shows token amounts by: base units are exact (a round trip through `toUnits` and
// `fromUnits` keeps every digit, for any amount, by fast-check), each wrong amount gets its one
// reason, Max leaves the gas reserve on the native token only (on the simulator's catalogue, as
// `GET /v1/tokens` answers it), a shown amount is within one unit of its last place below the exact
// one and a non-zero amount never reads as zero (fast-check over any amount and 0–18 decimals), and
// the display helpers never use exponent notation.
import { fc, test } from "@fast-check/vitest"
import { simulatorTokens } from "@swapdesk/core"
import { beforeAll, describe, expect, it } from "vitest"
import {
  amountProblem,
  amountText,
  balanceText,
  BELOW_SHOWN,
  fromUnits,
  grouped,
  impactText,
  significant,
  toUnits
} from "../src/app/Amounts.ts"
import { tokenCatalogue, tokenInfoOf } from "../src/app/Tokens.ts"
import { maxSpend } from "../src/app/ui/AmountField.tsx"

beforeAll(() => {
  tokenCatalogue.value = simulatorTokens.map(({ addresses, decimals, name, stablecoin, symbol }) =>
    tokenInfoOf({ symbol, name, decimals, stablecoin, networks: { ...addresses } })
  )
})

describe("amounts as typed", () => {
  test.prop([fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 })])(
    "round-trip through base units exactly",
    (units, decimals) => {
      expect(toUnits(fromUnits(units, decimals), decimals)).toBe(units)
    }
  )

  it("gives one reason for each wrong amount", () => {
    expect(amountProblem("", "SOL", 9, undefined)).toBe("Enter an amount.")
    expect(amountProblem("-1", "SOL", 9, undefined)).toBe("The amount must be greater than zero.")
    expect(amountProblem("0.000", "SOL", 9, undefined)).toBe("The amount must be greater than zero.")
    expect(amountProblem("1e3", "SOL", 9, undefined)).toBe("Enter the amount as a plain number, like 1.5.")
    expect(amountProblem("01", "SOL", 9, undefined)).toBe("Enter the amount as a plain number, like 1.5.")
    expect(amountProblem("1.1234567", "USDC", 6, undefined)).toBe("USDC has at most 6 decimals.")
    expect(amountProblem("25.000000001", "SOL", 9, 25_000_000_000n)).toBe("More than your free balance of 25 SOL.")
    expect(amountProblem("25", "SOL", 9, 25_000_000_000n)).toBeNull()
    expect(amountProblem(" 1.5 ", "SOL", 9, undefined)).toBeNull()
  })

  it("keeps the gas reserve out of Max on the native token only", () => {
    expect(fromUnits(maxSpend("SOL", "solana", 25_000_000_000n), 9)).toBe("24.99")
    expect(fromUnits(maxSpend("ETH", "base", 10n ** 18n), 18)).toBe("0.999")
    expect(fromUnits(maxSpend("ETH", "ethereum", 10n ** 18n), 18)).toBe("0.98")
    expect(maxSpend("SOL", "solana", 5_000_000n)).toBe(0n)
    expect(maxSpend("USDC", "solana", 1_000_000n)).toBe(1_000_000n)
  })

  it("shows rates, impacts and amounts without exponents", () => {
    expect(significant("250.795534333333333")).toBe("250.796")
    expect(significant("0.0000000420123456")).toBe("0.0000000420123")
    expect(significant("90000.123456")).toBe("90,000.1")
    expect(impactText(0.000036)).toBe("< 0.01%")
    expect(impactText(6.638713)).toBe("6.64%")
    expect(grouped("13474772.741752")).toBe("13,474,772.741752")
    expect(grouped("999")).toBe("999")
  })
})

describe("amounts as shown", () => {
  const anyAmount = fc.tuple(
    fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 6n })),
    fc.integer({ min: 0, max: 18 })
  )

  test.prop([anyAmount])(
    "read at most one unit of the last place shown below the exact amount",
    ([units, decimals]) => {
      const shown = amountText(fromUnits(units, decimals))
      const places = Math.min(decimals, 6)
      // One unit of the last place shown, in base units of the token.
      const bound = 10n ** BigInt(decimals - places)
      if (shown === BELOW_SHOWN) {
        expect(units > 0n && units < bound).toBe(true)
        return
      }
      expect(shown).toMatch(/^\d{1,3}(,\d{3})*(\.\d{1,6})?$/)
      const back = toUnits(shown.replaceAll(",", ""), decimals)
      expect(back).toBeDefined()
      expect(units - back!).toBeGreaterThanOrEqual(0n)
      expect(units - back!).toBeLessThan(bound)
    }
  )

  test.prop([anyAmount])("never shows a non-zero amount as zero", ([units, decimals]) => {
    const shown = amountText(fromUnits(units, decimals))
    expect(/^[0.,]+$/.test(shown)).toBe(units === 0n)
    expect(balanceText(units, decimals)).toBe(shown)
  })

  it("keeps the whole part, cuts the fraction to 6 places toward zero and drops trailing zeros", () => {
    expect(amountText("6.858604033510889344")).toBe("6.858604")
    expect(amountText("0.017189483793260375")).toBe("0.017189")
    expect(amountText("13474772.741752")).toBe("13,474,772.741752")
    expect(amountText("50000000")).toBe("50,000,000")
    expect(amountText("0.9999999999")).toBe("0.999999")
    expect(amountText("1.000000999")).toBe("1")
    expect(amountText("0.0000010")).toBe("0.000001")
    expect(amountText("0.0000000420123456")).toBe("<0.000001")
    expect(amountText("0.000000")).toBe("0")
    expect(amountText("0")).toBe("0")
    expect(amountText("-1234.5678901")).toBe("-1,234.56789")
    expect(amountText("-0.0000001")).toBe(">-0.000001")
    expect(amountText("not a number")).toBe("not a number")
    expect(balanceText(1n, 18)).toBe("<0.000001")
    expect(balanceText(6_858_604_033_510_889_344n, 18)).toBe("6.858604")
  })
})
