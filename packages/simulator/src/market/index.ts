/**
 * The simulator's market model: deterministic prices, background trading, candles, statistics
 * and trending, as plain synchronous code for the simulator's services to wrap.
 */
export type { HourStoreSnapshot } from "./HourStore.ts"
export * from "./MarketEngine.ts"
export * from "./MarketParams.ts"
export type { MinuteStoreSnapshot } from "./MinuteStore.ts"
export { executionImpact, priceAfterSwap, swapToReach } from "./PoolImpact.ts"
export type { PriceProcessesSnapshot } from "./PriceProcess.ts"
export type { SwapArrivalsSnapshot } from "./SwapArrivals.ts"
export { WHALE_THRESHOLD_USD } from "./TradeFlow.ts"
export type { TradeLedgerSnapshot } from "./TradeLedger.ts"
export type { TrendingRankingsSnapshot } from "./TrendingRankings.ts"
export type { WhaleLogSnapshot } from "./WhaleLog.ts"
