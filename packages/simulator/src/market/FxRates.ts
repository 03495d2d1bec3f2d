/**
 * The exchange rates responses are converted with: the calibration's `defaultFxRates` with a
 * market's overrides, fixed for the market's life (the simulator quotes crypto, not currencies).
 */
import type { Currency } from "@swapdesk/core"
import { defaultFxRates } from "./MarketParams.ts"

/** Units of each currency per US dollar. */
export class FxRates {
  private readonly rates: Record<Currency, number>

  constructor(overrides: Partial<Record<Currency, number>> | undefined) {
    this.rates = { ...defaultFxRates, ...overrides }
  }

  /** Units of `currency` per US dollar. */
  rate(currency: Currency): number {
    return this.rates[currency]
  }
}
