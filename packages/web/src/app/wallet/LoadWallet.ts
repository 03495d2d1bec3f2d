/**
 * The module that talks to the browser wallet (`ExternalWallet.ts`), loaded on first use: the
 * bundler splits it into a chunk of its own, which only a live screen that needs the wallet fetches.
 */
export const loadWallet = () => import("./ExternalWallet.ts")
