/**
 * `@swapdesk/evm/indexer`: the index of the configured pools' swaps and the tokens' transfers, and
 * the market data built from it (docs/live.md, "Market data from the chain").
 */
export * from "./ChainIndex.ts"
export * from "./ChainIndexer.ts"
export * from "./IndexedCandles.ts"
export * from "./IndexedNetwork.ts"
export * from "./IndexedPriceFeed.ts"
export * from "./IndexStore.ts"
export * from "./LiveMarketObserver.ts"
