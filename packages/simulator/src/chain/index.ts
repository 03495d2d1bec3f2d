/**
 * The simulated chains and wallets: plain synchronous classes the simulator wraps into the core's
 * `Chain` and `Wallets` ports.
 */
export * from "./ChainEngine.ts"
export * from "./Faults.ts"
export * from "./NetworkParams.ts"
export * from "./SwapMath.ts"
export * from "./TxHash.ts"
export * from "./WalletBook.ts"
export * from "./WalletKeys.ts"
