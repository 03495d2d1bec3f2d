// Proves the devnet: anvil started by path answers with the chain id asked for; Uniswap V2 deployed
// from its published npm artifacts prices its pools at the demo prices; and a swap through the
// published router moves exactly what its `getAmountsOut` quoted, on a direct and a two-hop path,
// against the factory deployed here (so the router's hard-coded pair init code hash matches). One
// node mines every 0.25 s, as a real chain does, to show the same path with blocks of their own. A
// stopped node no longer answers, and a binary that cannot run fails the start with a reason.
import { Effect } from "effect"
import { existsSync } from "node:fs"
import { type Address, createPublicClient, erc20Abi, http, maxUint256, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Anvil,
  anvilBinaryPath,
  anvilScoped,
  confirmed,
  type DemoMarket,
  deployDemoMarket,
  devAccount,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil,
  uniswapV2PairAbi,
  uniswapV2RouterAbi
} from "../../src/devnet/index.ts"

const spec = {
  quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
  ethPrice: "3000",
  depth: 1_000_000n,
  tokens: [
    { symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" },
    { symbol: "WBTC", name: "Wrapped Bitcoin", decimals: 8, price: "65000" }
  ]
} as const

/** Swaps `amountIn` along `path` from `trader` and answers what the router quoted and what arrived. */
const swapAndMeasure = async (
  owner: DevnetClient,
  trader: DevnetClient,
  market: DemoMarket,
  path: ReadonlyArray<Address>,
  amountIn: bigint
) => {
  const tokenIn = path[0]!
  const tokenOut = path[path.length - 1]!
  await mintDemoToken(owner, tokenIn, trader.account.address, amountIn)
  await confirmed(
    trader,
    await trader.writeContract({
      address: tokenIn,
      abi: erc20Abi,
      functionName: "approve",
      args: [market.uniswap.router, amountIn]
    })
  )
  const quoted = await trader.readContract({
    address: market.uniswap.router,
    abi: uniswapV2RouterAbi,
    functionName: "getAmountsOut",
    args: [amountIn, path]
  })
  const balanceOf = () =>
    trader.readContract({ address: tokenOut, abi: erc20Abi, functionName: "balanceOf", args: [trader.account.address] })
  const before = await balanceOf()
  await confirmed(
    trader,
    await trader.writeContract({
      address: market.uniswap.router,
      abi: uniswapV2RouterAbi,
      functionName: "swapExactTokensForTokens",
      args: [amountIn, 0n, path, trader.account.address, maxUint256]
    })
  )
  return { quoted: quoted[quoted.length - 1]!, received: (await balanceOf()) - before }
}

describe("the devnet, automined", () => {
  let anvil: Anvil
  let owner: DevnetClient
  let trader: DevnetClient
  let market: DemoMarket

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 })
    owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
    trader = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(1))
    market = await deployDemoMarket(owner, spec)
  })
  afterAll(() => anvil?.stop())

  it("runs anvil from its npm platform package, with the chain id asked for", async () => {
    expect(existsSync(anvilBinaryPath())).toBe(true)
    expect(await owner.getChainId()).toBe(8453)
  })

  it("prices each pool at its demo price against USDC: depth / price of the token, rounded down", async () => {
    const expected = {
      WETH: 333_333_333_333_333_333_333n, // 10^6 USDC / 3000, in wei
      LINK: 68_965_517_241_379_310_344_827n, // 10^6 USDC / 14.5, 18 decimals
      WBTC: 1_538_461_538n // 10^6 USDC / 65000, 8 decimals
    }
    for (const [symbol, baseExpected] of Object.entries(expected)) {
      const pair = market.pairs[symbol]!
      const [reserve0, reserve1] = await owner.readContract({
        address: pair,
        abi: uniswapV2PairAbi,
        functionName: "getReserves"
      })
      const token0 = await owner.readContract({ address: pair, abi: uniswapV2PairAbi, functionName: "token0" })
      const [baseReserve, quoteReserve] = token0 === market.tokens[symbol]!.address
        ? [reserve0, reserve1]
        : [reserve1, reserve0]
      expect([baseReserve, quoteReserve]).toEqual([baseExpected, 1_000_000n * 10n ** 6n])
    }
  })

  it("a swap through the router moves what getAmountsOut quoted, directly and over two hops", async () => {
    const usdc = market.tokens["USDC"]!.address
    const direct = await swapAndMeasure(owner, trader, market, [usdc, market.tokens["LINK"]!.address], 1_000_000_000n)
    expect(direct.quoted).toBeGreaterThan(0n)
    expect(direct.received).toBe(direct.quoted)
    const twoHops = await swapAndMeasure(
      owner,
      trader,
      market,
      [market.tokens["LINK"]!.address, usdc, market.tokens["WBTC"]!.address],
      parseUnits("250", 18)
    )
    expect(twoHops.quoted).toBeGreaterThan(0n)
    expect(twoHops.received).toBe(twoHops.quoted)
  })
})

describe("the devnet, mining every 0.25 s", () => {
  let anvil: Anvil

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161, mining: { _tag: "interval", blockTimeSeconds: 0.25 } })
  })
  afterAll(() => anvil?.stop())

  it("mines blocks with no transactions, and the swap path works with each transaction waiting for its block", async () => {
    const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
    const trader = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(1))
    const first = await owner.getBlockNumber()
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(await owner.getBlockNumber()).toBeGreaterThan(first)

    const market = await deployDemoMarket(owner, { ...spec, tokens: [] })
    const usdc = market.tokens["USDC"]!.address
    const swap = await swapAndMeasure(owner, trader, market, [usdc, market.uniswap.weth], 3_000_000_000n)
    expect(swap.received).toBe(swap.quoted)
    expect(swap.received).toBeGreaterThan(parseUnits("0.99", 18))
  })
})

describe("the node's lifecycle", () => {
  it("stop ends the process: the RPC no longer answers", async () => {
    const anvil = await startAnvil({ chainId: 1 })
    const client = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
    expect(await client.getChainId()).toBe(1)
    await anvil.stop()
    await expect(
      createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }) }).getChainId()
    ).rejects.toThrow()
  })

  it("a scoped node lives as long as its scope", async () => {
    const rpcUrl = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const anvil = yield* anvilScoped({ chainId: 8453 })
          const chainId = yield* Effect.promise(() =>
            createPublicClient({ transport: http(anvil.rpcUrl) }).getChainId()
          )
          expect(chainId).toBe(8453)
          return anvil.rpcUrl
        })
      )
    )
    await expect(createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) }).getChainId()).rejects.toThrow()
  })

  it("a binary that cannot start fails the start, saying so", async () => {
    const previous = process.env["ANVIL_BINARY"]
    process.env["ANVIL_BINARY"] = "/nonexistent/anvil"
    try {
      await expect(startAnvil({ chainId: 1 })).rejects.toThrow("anvil could not be started")
    } finally {
      if (previous === undefined) delete process.env["ANVIL_BINARY"]
      else process.env["ANVIL_BINARY"] = previous
    }
  })
})
