/**
 * A demo market on a local node: Uniswap V2, the demo ERC-20 tokens (OpenZeppelin's, decimals as
 * asked: USDC 6, the others 18) and a pool of each against the quote token at its demo price, plus
 * WETH's pool at ETH's price. Everything is sent from one funded dev account, which owns the tokens
 * and can mint more for the demo wallets.
 */
import { type Address, erc20Abi, getAddress, type Hash, maxUint256, parseUnits } from "viem"
import { demoTokenAbi, demoTokenBytecode } from "../contracts/DemoTokenArtifact.ts"
import type { DevnetClient } from "./DevnetClient.ts"
import {
  deploy,
  deployUniswapV2,
  type UniswapV2Deployment,
  uniswapV2FactoryAbi,
  uniswapV2RouterAbi,
  wethAbi
} from "./UniswapV2.ts"

/** A demo token to deploy, and its price in the quote token (a decimal string). */
export interface DemoTokenSpec {
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly price: string
}

/** A token deployed on the node. */
export interface DeployedToken {
  readonly symbol: string
  readonly address: Address
  readonly decimals: number
}

/** What to build. */
export interface DemoMarketSpec {
  /** The stablecoin every pool is priced against (its price is 1). */
  readonly quote: { readonly symbol: string; readonly name: string; readonly decimals: number }
  readonly tokens: ReadonlyArray<DemoTokenSpec>
  /** ETH's price in the quote token: WETH's pool. */
  readonly ethPrice: string
  /** Each pool's quote-token side, in whole quote tokens. */
  readonly depth: bigint
}

/** The demo market on the node. */
export interface DemoMarket {
  readonly uniswap: UniswapV2Deployment
  /** The quote token, WETH and the demo tokens, by symbol. */
  readonly tokens: Readonly<Record<string, DeployedToken>>
  /** Each pool's pair address, by the symbol of its non-quote token. */
  readonly pairs: Readonly<Record<string, Address>>
}

/** Waits for a transaction and fails when it reverted. */
export const confirmed = async (client: DevnetClient, hash: Hash): Promise<void> => {
  const receipt = await client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`)
}

/** Deploys a demo token owned by the client's account. */
export const deployDemoToken = (
  client: DevnetClient,
  token: { readonly name: string; readonly symbol: string; readonly decimals: number }
): Promise<Address> =>
  deploy(client, { abi: demoTokenAbi, bytecode: demoTokenBytecode }, [
    token.name,
    token.symbol,
    token.decimals,
    client.account.address
  ])

/** Mints a demo token (the client's account must own it). */
export const mintDemoToken = async (client: DevnetClient, token: Address, to: Address, amount: bigint) =>
  confirmed(
    client,
    await client.writeContract({ address: token, abi: demoTokenAbi, functionName: "mint", args: [to, amount] })
  )

/**
 * The two sides of a pool that prices `base` at `price` quote tokens, holding `depth` whole quote
 * tokens: `quoteAmount = depth` in base units, `baseAmount = depth / price`, rounded down.
 */
export const poolAmountsAtPrice = (
  base: { readonly decimals: number },
  quote: { readonly decimals: number },
  price: string,
  depth: bigint
): { readonly baseAmount: bigint; readonly quoteAmount: bigint } => {
  const priceScale = 36
  const scaledPrice = parseUnits(price, priceScale)
  if (scaledPrice <= 0n) throw new Error(`price must be positive: ${price}`)
  return {
    baseAmount: (depth * 10n ** BigInt(base.decimals) * 10n ** BigInt(priceScale)) / scaledPrice,
    quoteAmount: depth * 10n ** BigInt(quote.decimals)
  }
}

/**
 * Creates the pair of two tokens the client's account holds and adds `amountA` and `amountB` to
 * it (the pool's price is their ratio); answers the pair's address.
 */
export const addPool = async (
  client: DevnetClient,
  uniswap: UniswapV2Deployment,
  pool: { readonly tokenA: Address; readonly amountA: bigint; readonly tokenB: Address; readonly amountB: bigint }
): Promise<Address> => {
  for (const [token, amount] of [[pool.tokenA, pool.amountA], [pool.tokenB, pool.amountB]] as const) {
    await confirmed(
      client,
      await client.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [uniswap.router, amount]
      })
    )
  }
  await confirmed(
    client,
    await client.writeContract({
      address: uniswap.router,
      abi: uniswapV2RouterAbi,
      functionName: "addLiquidity",
      args: [
        pool.tokenA,
        pool.tokenB,
        pool.amountA,
        pool.amountB,
        pool.amountA,
        pool.amountB,
        client.account.address,
        maxUint256
      ]
    })
  )
  return getAddress(
    await client.readContract({
      address: uniswap.factory,
      abi: uniswapV2FactoryAbi,
      functionName: "getPair",
      args: [pool.tokenA, pool.tokenB]
    })
  )
}

/** Wraps ETH from the client's account into WETH. */
export const wrapEth = async (client: DevnetClient, weth: Address, amount: bigint) =>
  confirmed(client, await client.writeContract({ address: weth, abi: wethAbi, functionName: "deposit", value: amount }))

/** Deploys Uniswap V2, the tokens and their pools on the client's node. */
export const deployDemoMarket = async (client: DevnetClient, spec: DemoMarketSpec): Promise<DemoMarket> => {
  const uniswap = await deployUniswapV2(client)
  const quote: DeployedToken = {
    symbol: spec.quote.symbol,
    decimals: spec.quote.decimals,
    address: await deployDemoToken(client, spec.quote)
  }
  const weth: DeployedToken = { symbol: "WETH", decimals: 18, address: uniswap.weth }
  const tokens: Record<string, DeployedToken> = { [quote.symbol]: quote, WETH: weth }
  const pairs: Record<string, Address> = {}

  const pool = async (base: DeployedToken, price: string) => {
    const { baseAmount, quoteAmount } = poolAmountsAtPrice(base, quote, price, spec.depth)
    if (base.address === uniswap.weth) await wrapEth(client, uniswap.weth, baseAmount)
    else await mintDemoToken(client, base.address, client.account.address, baseAmount)
    await mintDemoToken(client, quote.address, client.account.address, quoteAmount)
    pairs[base.symbol] = await addPool(client, uniswap, {
      tokenA: base.address,
      amountA: baseAmount,
      tokenB: quote.address,
      amountB: quoteAmount
    })
  }

  await pool(weth, spec.ethPrice)
  for (const token of spec.tokens) {
    const deployed: DeployedToken = {
      symbol: token.symbol,
      decimals: token.decimals,
      address: await deployDemoToken(client, token)
    }
    tokens[token.symbol] = deployed
    await pool(deployed, token.price)
  }
  return { uniswap, tokens, pairs }
}
