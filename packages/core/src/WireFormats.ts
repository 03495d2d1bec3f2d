/**
 * The values of the response resources as they appear on the wire. Token amounts are decimal
 * strings (never exponent notation, no trailing zeros), timestamps are ISO 8601 UTC strings, and
 * prices, USD values and percentages are numbers, as the spec says. A field that exists only in
 * some states is an optional key that is absent, not `null`, except where the spec says `null`
 * (`confirmedAt`, `triggeredAt`).
 *
 * Each resource has its view module (`AlertViews`, `TradeViews`, `OrderViews`, `MarketViews`,
 * `PortfolioViews`, `ApiKeyViews`, `WebhookViews`): schemas that document the contract (OpenAPI)
 * and let tests check a view against it, and the mapping functions that are the only place a
 * record becomes a response, so the spec's field rules are decided once.
 */
import { Schema } from "effect"
import { toIso } from "./MarketClock.ts"
import { MoneyDecimal } from "./Money.ts"

const isPlainDecimal = Schema.isPattern(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/, {
  message: "must be a plain decimal string without exponent or trailing zeros"
})

/** A token amount as the API writes it: plain digits, at most one point, no trailing zeros after it. */
export const DecimalString = Schema.String.check(isPlainDecimal).annotate({
  description: "Decimal string, e.g. \"1.5\": never exponent notation, no trailing zeros"
})

/** A timestamp as the API writes it: `Date.prototype.toISOString`'s UTC form with milliseconds. */
export const IsoDateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, { message: "must be an ISO 8601 UTC date-time" })
).annotate({ description: "ISO 8601 UTC date-time, e.g. 2026-01-01T00:00:00.000Z" })

/**
 * How many significant digits a rate or a limit price carries on the wire (docs/decisions.md,
 * "Rates and limit prices carry 10 significant digits"): a relative step of at most 10^-9, finer
 * than any market's tick, and fewer than the 15 digits a double always keeps, so a client that
 * reads one into a number loses none.
 */
export const RATE_SIGNIFICANT_DIGITS = 10

/** The significant digits of a plain decimal string: no sign, leading zeros or (of a rounded value) trailing zeros. */
const significantDigitsOf = (text: string): number => text.replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length

/**
 * A rate or a limit price as the API writes it: a `DecimalString` of at most
 * `RATE_SIGNIFICANT_DIGITS` significant digits, rounded down (see `formatUnitRatio`).
 */
export const RateString = Schema.String.annotate({
  // On the base schema: the OpenAPI document reads a description there or on the first check, not on a later one.
  description: `Decimal string rounded down to ${RATE_SIGNIFICANT_DIGITS} significant digits, e.g. "250.7955343": ` +
    "never exponent notation, no trailing zeros"
}).check(
  isPlainDecimal,
  Schema.makeFilter((text: string) =>
    significantDigitsOf(text) <= RATE_SIGNIFICANT_DIGITS ||
    `must have at most ${RATE_SIGNIFICANT_DIGITS} significant digits`
  )
)

/**
 * `numerator / denominator` of two token amounts in whole tokens (`numerator` has
 * `numeratorDecimals`, `denominator` has `denominatorDecimals`), as a decimal string rounded down
 * to `RATE_SIGNIFICANT_DIGITS` significant digits: a rate or a limit price, never overstated, never
 * in exponent notation. Rounding both the same monotone way keeps their order: a rate at or above
 * a limit is never shown below it.
 */
export const formatUnitRatio = (
  numerator: bigint,
  numeratorDecimals: number,
  denominator: bigint,
  denominatorDecimals: number
): string => {
  const ratio = new MoneyDecimal(numerator.toString())
    .mul(new MoneyDecimal(10).pow(denominatorDecimals))
    .div(new MoneyDecimal(denominator.toString()).mul(new MoneyDecimal(10).pow(numeratorDecimals)))
  return ratio.toSignificantDigits(RATE_SIGNIFICANT_DIGITS, MoneyDecimal.ROUND_DOWN).toFixed()
}

/** A time that may not have happened yet (`confirmedAt`, `expiresAt`, …) as the API writes it: `null` until then. */
export const isoOrNull = (ms: number | null): string | null => ms === null ? null : toIso(ms)
