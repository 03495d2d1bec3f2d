/**
 * The simulator's market model: deterministic prices, background trading, candles, statistics
 * and trending, as plain synchronous code for the simulator's services to wrap.
 */
export * from "./MarketEngine.ts"
export * from "./MarketParams.ts"
export { executionImpact, priceAfterSwap, swapToReach } from "./PoolImpact.ts"
export { WHALE_THRESHOLD_USD } from "./TradeFlow.ts"
export { trendingScore, type TrendingSignals } from "./Trending.ts"
