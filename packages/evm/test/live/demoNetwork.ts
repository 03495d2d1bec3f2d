/**
 * What the live tests on one anvil node declare alike, named once: the node with the demo market on
 * it (`startDemoChain`), the project's contract deployed over that market (`deployDemoRouter`) and that market as one network of a live configuration
 * (`demoNetwork`), before `decodeLiveConfig` reads it.
 */
import type { Address } from "viem"
import {
  type DemoMarket,
  deployDemoMarket,
  devAccount,
  type DevnetClient,
  devnetClient,
  startAnvil
} from "../../src/devnet/index.ts"
import { deploySwapdeskRouter } from "../../src/index.ts"

/**
 * Starts anvil (chain id 1) and deploys, from dev account 0 (`owner`), the demo market: USDC quoted
 * with ETH at 3000 and LINK at 14.5, each pool `depth` USDC deep.
 */
export const startDemoChain = async (depth: bigint) => {
  const anvil = await startAnvil({ chainId: 1 })
  const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
  const market = await deployDemoMarket(owner, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  return { anvil, owner, market }
}

/** The project's contract over `market`'s router, dev account 1 its executor, account 3 its fee recipient. */
export const deployDemoRouter = (owner: DevnetClient, market: DemoMarket) =>
  deploySwapdeskRouter(owner, {
    router: market.uniswap.router,
    weth: market.uniswap.weth,
    executor: devAccount(1).address,
    feeRecipient: devAccount(3).address,
    owner: owner.account.address
  })

/**
 * `market` and `contract` as a network of a live configuration: Uniswap V2, USDC quoted, fees to dev
 * account 3, USDC, WETH, LINK and `extraTokens` listed, from block 0.
 */
export const demoNetwork = (
  market: DemoMarket,
  contract: Address,
  network: {
    readonly rpcUrl: string
    readonly chainId: number
    readonly confirmations: number
    readonly executorKeyEnv: string
    readonly extraTokens?: ReadonlyArray<
      { readonly symbol: string; readonly address: Address; readonly decimals: number }
    >
  }
) => ({
  rpcUrl: network.rpcUrl,
  chainId: network.chainId,
  confirmations: network.confirmations,
  startBlock: 0,
  dex: { kind: "uniswap-v2" as const, ...market.uniswap },
  quoteToken: "USDC",
  feeRecipient: devAccount(3).address,
  executorKeyEnv: network.executorKeyEnv,
  tokens: [
    { symbol: "USDC", address: market.tokens["USDC"]!.address, decimals: 6 },
    { symbol: "WETH", address: market.uniswap.weth, decimals: 18 },
    { symbol: "LINK", address: market.tokens["LINK"]!.address, decimals: 18 },
    ...(network.extraTokens ?? [])
  ],
  contracts: { swapdeskRouter: contract }
})
