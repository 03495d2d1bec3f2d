// Proves the amount checks the swap and order forms run before sending anything: base units are
// exact (a round trip through `toUnits` and `fromUnits` keeps every digit, for any amount, by
// fast-check), each wrong amount gets its one reason, Max leaves the gas reserve on the native
// token only (on the simulator's catalogue, as `GET /v1/tokens` answers it), and the display helpers
// never use exponent notation.
import { fc, test } from "@fast-check/vitest"
import { simulatorTokens } from "@swapdesk/core"
import { beforeAll, describe, expect, it } from "vitest"
import { amountProblem, fromUnits, grouped, impactText, significant, toUnits } from "../src/app/Amounts.ts"
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
