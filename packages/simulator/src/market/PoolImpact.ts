/**
 * How a swap moves a token's price: each network's liquidity is modelled as one constant-product
 * pool (x·y = k) holding `depthUsd` of USD on one side and `depthUsd / price` tokens on the other.
 * The pool is re-centred on the market price after every block (arbitrage and liquidity providers),
 * so its depth stays `depthUsd`, but a swap's move of the price is permanent.
 *
 * - A buy spending V USD: spot price × (1 + V/D)²   (≈ 1 + 2V/D for small V)
 * - A sell of tokens worth V USD at the pre-trade price: spot price ÷ (1 + V/D)²
 * - The trader's average execution price is off the pre-trade price by V / (D + V) (≈ V/D): that
 *   is the price impact a quote reports.
 */

/** The spot price after a swap of `valueUsd` on a pool of depth `depthUsd`. */
export const priceAfterSwap = (
  priceUsd: number,
  side: "buy" | "sell",
  valueUsd: number,
  depthUsd: number
): number => {
  const factor = (1 + valueUsd / depthUsd) ** 2
  return side === "buy" ? priceUsd * factor : priceUsd / factor
}

/** The swap that moves the spot price from `fromUsd` to `toUsd` on a pool of depth `depthUsd`. */
export const swapToReach = (
  fromUsd: number,
  toUsd: number,
  depthUsd: number
): { readonly side: "buy" | "sell"; readonly valueUsd: number } =>
  toUsd >= fromUsd
    ? { side: "buy", valueUsd: depthUsd * (Math.sqrt(toUsd / fromUsd) - 1) }
    : { side: "sell", valueUsd: depthUsd * (Math.sqrt(fromUsd / toUsd) - 1) }

/** The trader's execution price impact (a fraction of the pre-trade price) of a swap of `valueUsd`. */
export const executionImpact = (valueUsd: number, depthUsd: number): number => valueUsd / (depthUsd + valueUsd)
