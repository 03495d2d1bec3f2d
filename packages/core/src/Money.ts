/**
 * Money at the boundary and in the swap math. Token amounts are `bigint` base units everywhere
 * inside; decimal strings exist only where requests and responses cross the API. Every rounding
 * is named and explicit: the platform fee rounds up, what the trader receives rounds down, and
 * the parts always add back to the whole (`amountOut + fee == grossOut`).
 */
import { Decimal } from "decimal.js"
import { Result } from "effect"

/** Enough significant digits for 10^30 at 18 decimals, with room to spare: never the default 20. */
export const MoneyDecimal = Decimal.clone({
  precision: 80,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -100,
  toExpPos: 100
})
export type MoneyDecimal = Decimal

/** The platform fee: a flat 0.25% of the gross output, in `tokenOut`. */
export const PLATFORM_FEE_BPS = 25n
const BPS = 10_000n

/** The largest amount a request may name, in whole tokens. */
export const MAX_AMOUNT = 10n ** 30n

const AMOUNT_PATTERN = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/

/**
 * Parses a request's decimal string into base units, strictly: digits with an optional fractional
 * part, no sign, exponent or spaces, greater than zero, at most `decimals` fractional digits and at
 * most 10^30. The failure is a message fit for a validation detail.
 */
export const parseAmount = (text: string, decimals: number): Result.Result<bigint, string> => {
  const match = AMOUNT_PATTERN.exec(text)
  if (match === null) {
    return Result.fail(
      "must be a plain decimal string such as \"1.5\" (digits, at most one point, no sign or exponent)"
    )
  }
  const whole = match[1]!
  const fraction = (match[2] ?? "").slice(1)
  if (fraction.length > decimals) {
    return Result.fail(`has ${fraction.length} decimal places; this token allows at most ${decimals}`)
  }
  const units = BigInt(whole + fraction.padEnd(decimals, "0"))
  if (units === 0n) return Result.fail("must be greater than zero")
  if (units > MAX_AMOUNT * 10n ** BigInt(decimals)) return Result.fail("must be at most 10^30")
  return Result.succeed(units)
}

const ZERO = 48 // "0"

/**
 * Formats base units as a plain decimal string: no exponent, no trailing zeros after the point.
 * Every trade view formats several, so trailing zeros are found by scanning, not by a regex.
 */
export const formatAmount = (units: bigint, decimals: number): string => {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0")
  const point = digits.length - decimals
  let end = digits.length
  while (end > point && digits.charCodeAt(end - 1) === ZERO) end--
  const text = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`
  return negative ? `-${text}` : text
}

/** Base units as a decimal number of whole tokens, exact. */
export const unitsToDecimal = (units: bigint, decimals: number): Decimal =>
  new MoneyDecimal(units.toString()).div(new MoneyDecimal(10).pow(decimals))

/** Whole tokens to base units, rounding down (what is received is never rounded up). */
export const decimalToUnitsFloor = (value: Decimal.Value, decimals: number): bigint => {
  const scaled = new MoneyDecimal(value).mul(new MoneyDecimal(10).pow(decimals)).floor()
  return BigInt(scaled.toFixed(0))
}

const divCeil = (numerator: bigint, denominator: bigint): bigint => (numerator + denominator - 1n) / denominator

/** The platform fee on a gross output: 0.25%, rounded up to the token's base unit. */
export const platformFee = (grossOut: bigint): bigint => divCeil(grossOut * PLATFORM_FEE_BPS, BPS)

/** A slippage tolerance in percent as an exact fraction `numerator / denominator` of one. */
const slippageFraction = (slippagePercent: number): { numerator: bigint; denominator: bigint } => {
  const text = new MoneyDecimal(slippagePercent).toFixed()
  const [whole, fraction = ""] = text.split(".")
  return { numerator: BigInt(whole! + fraction), denominator: 100n * 10n ** BigInt(fraction.length) }
}

/** What a swap with `grossOut` before the fee pays out, and the least it may pay at execution. */
export interface SwapOutcome {
  readonly grossOut: bigint
  readonly fee: bigint
  /** `grossOut - fee`: the estimated amount out. */
  readonly netOut: bigint
  /** `netOut × (1 − slippage/100)`, rounded down. */
  readonly minAmountOut: bigint
}

/** Splits a gross output into fee and net, and bounds it by the slippage tolerance (percent). */
export const swapOutcome = (grossOut: bigint, slippagePercent: number): SwapOutcome => {
  const fee = platformFee(grossOut)
  const netOut = grossOut - fee
  const { denominator, numerator } = slippageFraction(slippagePercent)
  const minAmountOut = (netOut * (denominator - numerator)) / denominator
  return { grossOut, fee, netOut, minAmountOut }
}

/** Splits a gross output at execution into what the wallet receives and the fee. */
export const settle = (grossOut: bigint): { readonly amountOut: bigint; readonly fee: bigint } => {
  const fee = platformFee(grossOut)
  return { amountOut: grossOut - fee, fee }
}
