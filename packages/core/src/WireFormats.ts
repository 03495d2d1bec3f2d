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

/** A token amount as the API writes it: plain digits, at most one point, no trailing zeros after it. */
export const DecimalString = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/, {
    message: "must be a plain decimal string without exponent or trailing zeros"
  })
).annotate({ description: "Decimal string, e.g. \"1.5\": never exponent notation, no trailing zeros" })

/** A timestamp as the API writes it: `Date.prototype.toISOString`'s UTC form with milliseconds. */
export const IsoDateTime = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, { message: "must be an ISO 8601 UTC date-time" })
).annotate({ description: "ISO 8601 UTC date-time, e.g. 2026-01-01T00:00:00.000Z" })

/**
 * `numerator / denominator` of two token amounts in whole tokens (`numerator` has
 * `numeratorDecimals`, `denominator` has `denominatorDecimals`), as a decimal string rounded down
 * to 20 significant digits: a rate or a limit price, never overstated, never in exponent notation.
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
  return ratio.toSignificantDigits(20, MoneyDecimal.ROUND_DOWN).toFixed()
}

/** A time that may not have happened yet (`confirmedAt`, `expiresAt`, …) as the API writes it: `null` until then. */
export const isoOrNull = (ms: number | null): string | null => ms === null ? null : toIso(ms)
