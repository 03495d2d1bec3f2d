/**
 * Amounts as the user types them, checked before anything is sent: decimal strings turned into
 * base units (bigint) with the token's decimals, so "more than the balance" and "too many
 * decimals" are exact, never a float's guess.
 */

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/

/** `text` in base units of a token with `decimals`, or undefined when it is not such an amount. */
export const toUnits = (text: string, decimals: number): bigint | undefined => {
  const trimmed = text.trim()
  if (!DECIMAL.test(trimmed)) return undefined
  const [whole = "0", fraction = ""] = trimmed.split(".")
  if (fraction.length > decimals) return undefined
  return BigInt(whole + fraction.padEnd(decimals, "0"))
}

/** Base units back to a plain decimal string, without trailing zeros. */
export const fromUnits = (units: bigint, decimals: number): string => {
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  return `${negative ? "-" : ""}${whole}${fraction === "" ? "" : `.${fraction}`}`
}

/**
 * Why `text` cannot be sent as an amount of `symbol` (decimals `decimals`), or null when it can:
 * not a plain decimal, zero or negative, more decimals than the token has, or more than `free`
 * (base units; undefined when the balance is not known).
 */
export const amountProblem = (
  text: string,
  symbol: string,
  decimals: number,
  free: bigint | undefined
): string | null => {
  const trimmed = text.trim()
  if (trimmed === "") return "Enter an amount."
  if (trimmed.startsWith("-")) return "The amount must be greater than zero."
  if (!DECIMAL.test(trimmed)) return "Enter the amount as a plain number, like 1.5."
  const fraction = trimmed.split(".")[1] ?? ""
  if (fraction.length > decimals) return `${symbol} has at most ${decimals} decimals.`
  const units = toUnits(trimmed, decimals)!
  if (units === 0n) return "The amount must be greater than zero."
  if (free !== undefined && units > free) {
    return `More than your free balance of ${grouped(fromUnits(free, decimals))} ${symbol}.`
  }
  return null
}

/** A decimal string shown to `digits` significant digits, grouped, never in exponent notation. */
export const significant = (value: string | number, digits = 6): string => {
  const number = typeof value === "number" ? value : Number(value)
  if (!Number.isFinite(number)) return String(value)
  return new Intl.NumberFormat("en-US", { maximumSignificantDigits: digits }).format(number)
}

/** The most decimal places a token amount shows; the exact amount stays in its title. */
export const SHOWN_DECIMALS = 6

/** What a non-zero amount smaller than the last place shown reads (docs/decisions.md, "Token amounts read to 6 decimals"). */
export const BELOW_SHOWN = "<0.000001"

/**
 * A token amount as every screen shows it: the whole part in full and grouped, at most 6 decimal
 * places (never more than the amount has, so never more than the token's decimals), cut toward
 * zero so it never overstates, trailing zeros dropped; a non-zero amount under 0.000001 reads
 * "<0.000001", never "0". `exact` is a decimal string as the API sends it; anything else is
 * shown as it is.
 */
export const amountText = (exact: string): string => {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(exact.trim())
  if (match === null) return exact
  const [, sign = "", whole = "0", fraction = ""] = match
  const kept = fraction.slice(0, SHOWN_DECIMALS).replace(/0+$/, "")
  const wholeDigits = whole.replace(/^0+(?=\d)/, "")
  if (wholeDigits === "0" && kept === "") {
    if (/[1-9]/.test(fraction)) return sign === "-" ? `>-${BELOW_SHOWN.slice(1)}` : BELOW_SHOWN
    return "0"
  }
  return grouped(`${sign}${wholeDigits}${kept === "" ? "" : `.${kept}`}`)
}

/** A balance in base units of a token with `decimals`, shown by the same rule as every amount. */
export const balanceText = (units: bigint, decimals: number): string => amountText(fromUnits(units, decimals))

/** A decimal string as the API gave it, its whole part grouped by thousands; every digit kept. */
export const grouped = (amount: string): string => {
  const [whole = "", fraction] = amount.split(".")
  const sign = whole.startsWith("-") ? "-" : ""
  const digits = whole.replace(/^-/, "").replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return fraction === undefined ? `${sign}${digits}` : `${sign}${digits}.${fraction}`
}

/** A percentage to 3 significant digits; below 0.01 it reads "< 0.01%". */
export const impactText = (percent: number): string => (percent < 0.01 ? "< 0.01%" : `${significant(percent, 3)}%`)
