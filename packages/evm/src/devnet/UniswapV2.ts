/**
 * Uniswap V2 on a local node, deployed from the artifacts Uniswap published to npm
 * (`@uniswap/v2-core` for the factory, `@uniswap/v2-periphery` for WETH9 and Router02): the same
 * bytecode as on mainnet, so the router's hard-coded pair init code hash matches the factory's
 * pairs and `getAmountsOut` prices exactly what a swap moves.
 */
import { createRequire } from "node:module"
import { type Abi, type Address, getAddress, type Hex, parseAbi } from "viem"
import type { DevnetClient } from "./DevnetClient.ts"

/** Where Uniswap V2 lives on a node. */
export interface UniswapV2Deployment {
  readonly weth: Address
  readonly factory: Address
  readonly router: Address
}

/** The router's functions the devnet and tests call. */
export const uniswapV2RouterAbi = parseAbi([
  "function factory() view returns (address)",
  "function WETH() view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256 amountToken, uint256 amountETH, uint256 liquidity)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)"
])

/** The factory's functions the devnet calls. */
export const uniswapV2FactoryAbi = parseAbi([
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
  "function createPair(address tokenA, address tokenB) returns (address pair)"
])

/** A pair's functions and its `Swap` event. */
export const uniswapV2PairAbi = parseAbi([
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
])

/** WETH9's functions. */
export const wethAbi = parseAbi([
  "function deposit() payable",
  "function withdraw(uint256 amount)",
  "function balanceOf(address owner) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)"
])

interface Artifact {
  readonly abi: Abi
  readonly bytecode: string
}

const require = createRequire(import.meta.url)

/** A published artifact: `<package>/build/<Contract>.json`. */
export const uniswapArtifact = (
  pkg: "@uniswap/v2-core" | "@uniswap/v2-periphery",
  contract: string
): { readonly abi: Abi; readonly bytecode: Hex } => {
  const artifact = require(`${pkg}/build/${contract}.json`) as Artifact
  return { abi: artifact.abi, bytecode: `0x${artifact.bytecode.replace(/^0x/, "")}` }
}

/** Deploys a contract and waits for its address. */
export const deploy = async (
  client: DevnetClient,
  contract: { readonly abi: Abi; readonly bytecode: Hex },
  args: ReadonlyArray<unknown>
): Promise<Address> => {
  const hash = await client.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args })
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || receipt.contractAddress == null) {
    throw new Error(`deployment ${hash} failed (${receipt.status})`)
  }
  return getAddress(receipt.contractAddress)
}

/** Deploys WETH9, the factory (its fee setter the client's account) and Router02. */
export const deployUniswapV2 = async (client: DevnetClient): Promise<UniswapV2Deployment> => {
  const weth = await deploy(client, uniswapArtifact("@uniswap/v2-periphery", "WETH9"), [])
  const factory = await deploy(client, uniswapArtifact("@uniswap/v2-core", "UniswapV2Factory"), [
    client.account.address
  ])
  const router = await deploy(client, uniswapArtifact("@uniswap/v2-periphery", "UniswapV2Router02"), [factory, weth])
  return { weth, factory, router }
}
