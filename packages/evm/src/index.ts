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
export { chainIdOf, EvmNetwork, evmNetworks, isEvmNetwork, nativeTokenAddress } from "./EvmNetwork.ts"
