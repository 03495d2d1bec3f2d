/**
 * @swapdesk/evm: live mode on EVM networks. The networks and their chain ids; the adapters that
 * serve the core's ports from real chains through viem; the project's contract that swaps and fills
 * signed limit orders in one transaction.
 */
export {
  deploySwapdeskRouter,
  orderDomainOf,
  type SendingClient,
  slippageExceededSelector,
  swapdeskRouterAbi,
  swapdeskRouterBytecode,
  type SwapdeskRouterSettings
} from "./contracts/SwapdeskRouter.ts"
export {
  type DelegatedSigner,
  type ExecutorSigner,
  readDelegatedSigners,
  readExecutorSigners,
  signerAccount,
  type SigningKeyProblem,
  SigningKeysUnavailable
} from "./DelegatedSigners.ts"
export { chainIdOf, EvmNetwork, evmNetworks, isEvmNetwork, nativeTokenAddress } from "./EvmNetwork.ts"
export {
  defaultRpcTimeoutMs,
  type EvmRpc,
  type EvmRpcSettings,
  evmRpcSettingsOf,
  makeEvmRpc,
  type RevertCause,
  type SwapCall,
  type SwapGas,
  swapGasLimit,
  type SwapOutcome,
  swapOutcome,
  type SwapQuote,
  swapTransaction,
  type TransactionDepth,
  type WalletBalances
} from "./EvmRpc.ts"
export {
  type EvmRpcFailure,
  InsufficientGas,
  NetworkUnavailable,
  NoRoute,
  revertDataOf,
  rpcFailure,
  RpcRefused,
  SlippageExceeded,
  TransactionReverted
} from "./EvmRpcFailure.ts"
export {
  ChainIndex,
  type ChainIndexerOptions,
  type IndexedPriceFeedOptions,
  layerChainIndex,
  layerIndexedPriceFeed,
  layerLiveMarketData,
  layerLiveMarketObserver,
  type LiveMarketObserverOptions,
  type NetworkIndexStatus
} from "./indexer/index.ts"
export {
  type FollowedTrade,
  layerLiveFollowers,
  layerLivePorts,
  layerLiveTokenRegistry,
  type LiveFollowerOptions,
  type LiveNetworkHealth,
  LiveNetworkStatus,
  type LivePortsOptions,
  LiveState,
  liveTokensOf
} from "./live/index.ts"
export {
  addressOf,
  decodeLiveConfig,
  EvmAddress,
  InvalidLiveConfig,
  LiveAccount,
  LiveApiKey,
  LiveConfig,
  type LiveConfigIssue,
  LiveContracts,
  LiveDex,
  LiveFxFeed,
  LiveNetwork,
  LiveNetworks,
  liveNetworksOf,
  LiveNotifications,
  LiveToken,
  LiveWallet,
  parseLiveConfig
} from "./LiveConfig.ts"
