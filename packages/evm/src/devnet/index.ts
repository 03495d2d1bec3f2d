/**
 * @swapdesk/evm/devnet: local EVM networks for tests and the demo. anvil nodes started by path,
 * Uniswap V2 from its published artifacts, demo tokens and pools at given prices.
 */
export {
  type Anvil,
  anvilBinaryPath,
  type AnvilMining,
  type AnvilOptions,
  anvilScoped,
  AnvilStartFailed,
  startAnvil
} from "./Anvil.ts"
export {
  addPool,
  confirmed,
  type DemoMarket,
  type DemoMarketSpec,
  type DemoTokenSpec,
  deployDemoMarket,
  deployDemoToken,
  type DeployedToken,
  mintDemoToken,
  poolAmountsAtPrice,
  wrapEth
} from "./DemoMarket.ts"
export { devAccount, devMnemonic, devnetChain, type DevnetClient, devnetClient } from "./DevnetClient.ts"
export {
  deploy,
  deployUniswapV2,
  uniswapArtifact,
  type UniswapV2Deployment,
  uniswapV2FactoryAbi,
  uniswapV2PairAbi,
  uniswapV2RouterAbi,
  wethAbi
} from "./UniswapV2.ts"
