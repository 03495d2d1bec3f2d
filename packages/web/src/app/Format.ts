/** How numbers, amounts and times read on screen: one place, so every screen says them alike. */

export const money = (value: number, currency = "USD"): string =>
  new Intl.NumberFormat("en-US", {
    style: "currency",
    currency,
    maximumFractionDigits: Math.abs(value) >= 1 ? 2 : 8
  }).format(value)

export const compact = (value: number, currency?: string): string =>
  new Intl.NumberFormat("en-US", {
    notation: "compact",
    maximumFractionDigits: 2,
    ...(currency === undefined ? {} : { style: "currency", currency })
  }).format(value)

const smallPercent = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 2, useGrouping: false })

/**
 * A signed percentage to two decimals; one that two decimals would show as 0.00 but is not zero
 * keeps two significant digits (`-0.0015%`), so a gain or a loss never reads as none.
 */
export const percent = (value: number): string =>
  `${value > 0 ? "+" : ""}${value !== 0 && Math.abs(value) < 0.005 ? smallPercent.format(value) : value.toFixed(2)}%`

export const count = (value: number): string => new Intl.NumberFormat("en-US").format(value)

/** A timestamp in UTC, as the API gives them; the market's clock is UTC. */
export const time = (iso: string | null | undefined): string =>
  iso === null || iso === undefined || iso === "" ? "—" : iso.replace("T", " ").replace(/\.\d+Z$|Z$/, " UTC")

/** A long id or hash, shortened for a table cell (the full value stays in the title). */
export const short = (text: string, keep = 8): string =>
  text.length <= keep * 2 + 1 ? text : `${text.slice(0, keep)}…${text.slice(-keep)}`

/** `datetime-local` input value (taken as UTC) to ISO 8601, or undefined when empty. */
export const isoFromInput = (value: string): string | undefined =>
  value === "" ? undefined : new Date(value.length === 16 ? `${value}:00Z` : `${value}Z`).toISOString()

/** ISO 8601 to a `datetime-local` value in UTC. */
export const inputFromIso = (iso: string): string => iso.slice(0, 16)

/**
 * `amount × price` on decimal strings, rounded down to `decimals` places: a limit order's minimum
 * output from its limit price without a float's rounding.
 */
export const multiplyDecimal = (amount: string, price: string, decimals: number): string | undefined => {
  const pattern = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/
  if (!pattern.test(amount) || !pattern.test(price)) return undefined
  const [ai = "0", af = ""] = amount.split(".")
  const [pi = "0", pf = ""] = price.split(".")
  const product = BigInt(ai + af) * BigInt(pi + pf)
  const scale = af.length + pf.length
  const digits = product.toString().padStart(scale + 1, "0")
  const whole = digits.slice(0, digits.length - scale)
  const fraction = digits.slice(digits.length - scale).slice(0, decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}
