/**
 * The swap's price: what a network's liquidity pays for an input, with price impact. The same
 * function prices the quote and the execution at inclusion, so the two differ only by what moved
 * in between (prices, depth), never by formula.
 *
 * A swap is routed through the dollar, as aggregators route through a stablecoin: the input is
 * sold into tokenIn's pool and the proceeds buy from tokenOut's pool. Each pool is constant-product
 * with `D` dollars on each side (`poolDepthUsd`), so `v` dollars in come out as `v·D/(D+v)`. Two
 * thin pools compound their impact; a deep stablecoin pool adds almost none. The arithmetic is
 * decimal.js at 80 digits (`MoneyDecimal`) and the output is floored to base units: exact and the
 * same on every machine.
 */
import {
  decimalToUnitsFloor,
  MoneyDecimal,
  type Network,
  simulatorCatalog,
  type SwapRequest,
  unitsToDecimal
} from "@swapdesk/core"

/** What the chain needs to read from the market to price a swap. */
export interface PoolView {
  priceUsd(symbol: string): number
  poolDepthUsd(symbol: string, network: Network): number
}

/** A priced swap: its output and the dollar flows it sends through the two pools. */
export interface SwapPricing {
  /** `tokenOut` base units the pools pay, before the platform fee, rounded down. */
  readonly grossOut: bigint
  /** Percent the execution is worse than the market rate (`1 - valueOut/valueIn`). */
  readonly priceImpactPercent: number
  /** Dollars of tokenIn sold into its pool. */
  readonly sellValueUsd: MoneyDecimal
  /** Dollars that leave tokenIn's pool and buy tokenOut. */
  readonly buyValueUsd: MoneyDecimal
  /** Dollars' worth of tokenOut paid, before flooring to base units. */
  readonly valueOutUsd: MoneyDecimal
}

const ZERO = new MoneyDecimal(0)

/** A finite positive price, or a defect: a market that prices a token at zero is broken. */
const priceOf = (pools: PoolView, symbol: string): MoneyDecimal => {
  const price = pools.priceUsd(symbol)
  if (!Number.isFinite(price) || price <= 0) throw new RangeError(`market price of ${symbol} is ${price}`)
  return new MoneyDecimal(price)
}

/** Constant product against a dollar depth: `value·D/(D+value)`; no depth pays nothing. */
export const constantProductOut = (valueUsd: MoneyDecimal, depthUsd: number): MoneyDecimal => {
  if (!(depthUsd > 0) || valueUsd.lte(0)) return ZERO
  const depth = new MoneyDecimal(depthUsd)
  return valueUsd.mul(depth).div(depth.add(valueUsd))
}

/** Prices `request` against the pools as they are now. */
export const priceSwap = (request: SwapRequest, pools: PoolView): SwapPricing => {
  const tokenIn = simulatorCatalog.tokenOf(request.tokenIn)
  const tokenOut = simulatorCatalog.tokenOf(request.tokenOut)
  const sellValueUsd = unitsToDecimal(request.amountIn, tokenIn.decimals).mul(priceOf(pools, tokenIn.symbol))
  const buyValueUsd = constantProductOut(sellValueUsd, pools.poolDepthUsd(tokenIn.symbol, request.network))
  const valueOutUsd = constantProductOut(buyValueUsd, pools.poolDepthUsd(tokenOut.symbol, request.network))
  const grossOut = decimalToUnitsFloor(valueOutUsd.div(priceOf(pools, tokenOut.symbol)), tokenOut.decimals)
  const priceImpactPercent = sellValueUsd.lte(0)
    ? 0
    : new MoneyDecimal(1).sub(valueOutUsd.div(sellValueUsd)).mul(100).toDecimalPlaces(6).toNumber()
  return { grossOut, priceImpactPercent, sellValueUsd, buyValueUsd, valueOutUsd }
}
