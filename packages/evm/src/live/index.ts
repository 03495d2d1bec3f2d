/**
 * @swapdesk/evm/live: the core's ports on real EVM networks (`layerLivePorts`), the followers that
 * report each trade's later life (`layerLiveFollowers`), and the pieces they are made of.
 */
export { approvalGasLimit, fallbackSwapGas, type LiveChainOptions, makeLiveChain, swapDeadlineMs } from "./LiveChain.ts"
export { layerLiveFollowers, type LiveFollowerOptions } from "./LiveFollowers.ts"
export {
  layerLiveNetworkStatus,
  type LiveNetworkHealth,
  LiveNetworkStatus,
  type LiveNetworkStatusOptions,
  makeLiveNetworkStatus
} from "./LiveNetworkStatus.ts"
export { liveOrderTypedData, makeLiveOrderSigner } from "./LiveOrderSigner.ts"
export { layerLivePorts, type LivePortsOptions } from "./LivePorts.ts"
export { makeLivePriceFeed } from "./LivePriceFeed.ts"
export {
  type FollowedTrade,
  type LiveNetworkContext,
  LiveState,
  type LiveStateOptions,
  type LiveStateShape,
  makeLiveState,
  networkContext,
  tokenAddress
} from "./LiveState.ts"
export { layerLiveTokenRegistry, liveTokensOf } from "./LiveTokens.ts"
export { makeLiveWallets, restoreHolds } from "./LiveWallets.ts"
export { makeNonceManager, type NonceManager, type NonceUse } from "./NonceManager.ts"
