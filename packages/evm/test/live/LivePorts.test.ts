// Proves the live ports other than the chain against a real node (anvil with Uniswap V2, the demo
// tokens and the project's contract): the file's tokens as core tokens; prices as the pools' mid
// prices, exact, direct and through WETH, with no statistic made up; a delegated wallet's EIP-712
// order signature that recovers to the wallet under the contract's domain and fails for other
// terms; balances from the chain less the holds, holds refused beyond free balance and rebuilt at
// start from the stored pending trades; and a network whose RPC answers another chain id reported
// down, its quotes failing with NetworkUnavailable.
import {
  Chain,
  layerMemoryOrderRepository,
  layerMemoryTradeRepository,
  OrderSigner,
  type OrderTerms,
  PriceFeed,
  type TradeRecord,
  TradeRepository,
  Wallets
} from "@swapdesk/core"
import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { type Address, type Hex, parseAbi, parseUnits, recoverTypedDataAddress, toHex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addPool,
  type Anvil,
  type DemoMarket,
  deployDemoToken,
  devAccount,
  devMnemonic,
  type DevnetClient,
  mintDemoToken,
  wrapEth
} from "../../src/devnet/index.ts"
import {
  decodeLiveConfig,
  type LiveConfig,
  nativeTokenAddress,
  orderDomainOf,
  readDelegatedSigners
} from "../../src/index.ts"
import { layerLivePorts, LiveNetworkStatus, LiveState, liveTokensOf } from "../../src/live/index.ts"
import { demoNetwork, deployDemoRouter, startDemoChain } from "./demoNetwork.ts"

const walletIndex = 4
const walletKey = toHex(mnemonicToAccount(devMnemonic, { addressIndex: walletIndex }).getHdKey().privateKey!)
const wallet = devAccount(walletIndex).address

let anvil: Anvil
let owner: DevnetClient
let market: DemoMarket
let contract: Address
let uni: Address
let config: LiveConfig

const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])
const factoryAbi = parseAbi(["function getPair(address, address) view returns (address)"])

/** The pool's reserves of `base` and `quote`. */
const reservesOf = async (base: Address, quote: Address) => {
  const pair = await owner.readContract({
    address: market.uniswap.factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [base, quote]
  })
  const token0 = await owner.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  const [r0, r1] = await owner.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" })
  return token0.toLowerCase() === base.toLowerCase() ? [r0, r1] as const : [r1, r0] as const
}

const pendingTrade: TradeRecord = {
  id: "trade_stored_pending",
  accountId: "acct_live",
  stage: "broadcast",
  network: "ethereum",
  tokenIn: "USDC",
  tokenOut: "LINK",
  amountIn: parseUnits("250", 6),
  estimatedAmountOut: 1n,
  fee: 0n,
  minAmountOut: 1n,
  slippage: 1,
  walletAddress: wallet,
  createdAt: 0,
  txHash: `0x${"ab".repeat(32)}`,
  submittedAt: 0,
  confirmedAt: null,
  amountOut: null,
  gasFee: null,
  estimatedGasFee: 0n,
  failureReason: null,
  orderId: null
}

let runtime: ManagedRuntime.ManagedRuntime<
  Chain | Wallets | PriceFeed | OrderSigner | LiveNetworkStatus | LiveState,
  never
>

beforeAll(async () => {
  ;({ anvil, owner, market } = await startDemoChain(1_000_000n))
  // UNI trades against WETH only: its USD price goes through WETH.
  uni = await deployDemoToken(owner, { name: "Uniswap", symbol: "UNI", decimals: 18 })
  await mintDemoToken(owner, uni, owner.account.address, parseUnits("300000", 18))
  await wrapEth(owner, market.uniswap.weth, parseUnits("100", 18))
  await addPool(owner, market.uniswap, {
    tokenA: uni,
    amountA: parseUnits("300000", 18),
    tokenB: market.uniswap.weth,
    amountB: parseUnits("100", 18)
  })
  contract = await deployDemoRouter(owner, market)
  await mintDemoToken(owner, market.tokens["USDC"]!.address, wallet, parseUnits("1000", 6))
  const network = (chainId: number) =>
    demoNetwork(market, contract, {
      rpcUrl: anvil.rpcUrl,
      chainId,
      confirmations: 1,
      executorKeyEnv: "SWAPDESK_EXECUTOR_KEY",
      extraTokens: [{ symbol: "UNI", address: uni, decimals: 18 }]
    })
  config = decodeLiveConfig({
    // base's RPC is the same node, which answers chain id 1: base is down.
    networks: { ethereum: network(1), base: { ...network(8453), tokens: network(8453).tokens.slice(0, 2) } },
    accounts: [{
      id: "acct_live",
      wallets: [
        { network: "ethereum", address: wallet, signingKeyEnv: "WALLET_KEY" },
        { network: "base", address: wallet, signingKeyEnv: "WALLET_KEY" }
      ]
    }]
  })
  const signers = Effect.runSync(readDelegatedSigners(config, { WALLET_KEY: walletKey }))
  const repositories = Layer.effectContext(Effect.gen(function*() {
    const context = yield* Layer.build(Layer.merge(layerMemoryTradeRepository, layerMemoryOrderRepository))
    yield* TradeRepository.use((r) => r.insert(pendingTrade)).pipe(Effect.provide(context))
    return context
  }))
  runtime = ManagedRuntime.make(
    layerLivePorts({ config, signers, rpcTimeoutMs: 2_000, statusPollIntervalMs: 500 }).pipe(
      Layer.provide(repositories)
    )
  )
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await anvil?.stop()
})

describe("liveTokensOf", () => {
  it("lists ETH native on every network and each token once, stablecoins being the quote tokens", () => {
    const tokens = liveTokensOf(config)
    const eth = tokens.find((t) => t.symbol === "ETH")
    expect(eth).toMatchObject({ decimals: 18, primaryNetwork: "ethereum", stablecoin: false, name: "Ether" })
    expect(eth?.addresses).toEqual({ ethereum: nativeTokenAddress, base: nativeTokenAddress })
    const usdc = tokens.find((t) => t.symbol === "USDC")
    expect(usdc).toMatchObject({ decimals: 6, primaryNetwork: "ethereum", stablecoin: true })
    expect(Object.keys(usdc?.addresses ?? {})).toEqual(["ethereum", "base"])
    expect(tokens.find((t) => t.symbol === "UNI")?.addresses).toEqual({ ethereum: uni })
    expect(tokens.find((t) => t.symbol === "WETH")?.name).toBe("Wrapped Ether")
    expect(tokens.map((t) => t.symbol)).toEqual(["ETH", "USDC", "WETH", "LINK", "UNI"])
  })
})

describe("LivePriceFeed", () => {
  it("prices a token at its pool's mid price against the quote token, exactly", async () => {
    const [link, usdc] = await reservesOf(market.tokens["LINK"]!.address, market.tokens["USDC"]!.address)
    const price = await runtime.runPromise(PriceFeed.use((feed) => feed.priceUsd("LINK")))
    // reserveUSDC / 10^6 ÷ reserveLINK / 10^18, to 30 significant digits.
    const expected = (usdc * 10n ** 12n * 10n ** 30n) / link
    expect(price.mul("1e30").floor().toFixed()).toBe(expected.toString())
    expect(price.toNumber()).toBeCloseTo(14.5, 6)
    expect((await runtime.runPromise(PriceFeed.use((feed) => feed.priceUsd("USDC")))).toFixed()).toBe("1")
  })

  it("prices a token with no pool against the quote token through WETH, and ETH as WETH", async () => {
    const [uniR, wethR] = await reservesOf(uni, market.uniswap.weth)
    const [wethQ, usdcQ] = await reservesOf(market.uniswap.weth, market.tokens["USDC"]!.address)
    const [uniPrice, ethPrice] = await runtime.runPromise(
      PriceFeed.use((feed) => Effect.all([feed.priceUsd("UNI"), feed.priceUsd("ETH")]))
    )
    const wethUsd = Number(usdcQ) / 1e6 / (Number(wethQ) / 1e18)
    expect(ethPrice.toNumber()).toBeCloseTo(wethUsd, 8)
    expect(uniPrice.toNumber()).toBeCloseTo((Number(wethR) / Number(uniR)) * wethUsd, 8)
  })

  it("answers the spot price in the statistics and no candle: nothing that needs the swap index is made up", async () => {
    const [stats, candles] = await runtime.runPromise(
      PriceFeed.use((feed) => Effect.all([feed.stats("LINK"), feed.candles("LINK", "1h", 0, Date.now())]))
    )
    expect(stats.priceUsd.toNumber()).toBeCloseTo(14.5, 6)
    expect(stats.volume24hUsd).toBe(0)
    expect(stats.change24hPercent).toBe(0)
    expect(candles).toEqual([])
  })
})

describe("LiveOrderSigner", () => {
  const terms: OrderTerms = {
    id: "ord_live_1",
    network: "ethereum",
    tokenIn: "USDC",
    tokenOut: "LINK",
    amountIn: parseUnits("100", 6),
    minAmountOut: parseUnits("6", 18),
    expiresAt: 1_900_000_000_000
  }

  it("signs an order that recovers to the wallet under the contract's domain, and verifies only those terms", async () => {
    const signed = await runtime.runPromise(OrderSigner.use((s) => s.sign("acct_live", terms)))
    expect(signed.signer).toBe(wallet)
    const recovered = await recoverTypedDataAddress({
      domain: orderDomainOf(1, contract),
      types: {
        Order: [
          { name: "id", type: "string" },
          { name: "maker", type: "address" },
          { name: "tokenIn", type: "address" },
          { name: "tokenOut", type: "address" },
          { name: "amountIn", type: "uint256" },
          { name: "minAmountOut", type: "uint256" },
          { name: "expiresAt", type: "uint256" }
        ]
      },
      primaryType: "Order",
      message: {
        id: terms.id,
        maker: wallet,
        tokenIn: market.tokens["USDC"]!.address,
        tokenOut: market.tokens["LINK"]!.address,
        amountIn: terms.amountIn,
        minAmountOut: terms.minAmountOut,
        expiresAt: 1_900_000_000n
      },
      signature: signed.signature as Hex
    })
    expect(recovered).toBe(wallet)
    const [valid, otherTerms] = await runtime.runPromise(OrderSigner.use((s) =>
      Effect.all([
        s.verify("acct_live", terms, { signer: signed.signer, signature: signed.signature! }),
        s.verify("acct_live", { ...terms, minAmountOut: terms.minAmountOut - 1n }, {
          signer: signed.signer,
          signature: signed.signature!
        })
      ])
    ))
    expect(valid).toBe(true)
    expect(otherTerms).toBe(false)
  })
})

describe("LiveWallets", () => {
  it("reads balances from the chain less the holds rebuilt from the stored pending trades, and refuses beyond free", async () => {
    const before = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))
    expect(before.get("USDC")).toEqual({ free: parseUnits("750", 6), reserved: parseUnits("250", 6) })
    expect(before.get("ETH")?.free).toBe(await owner.getBalance({ address: wallet }))

    const revision = await runtime.runPromise(Wallets.use((w) => w.revision("acct_live")))
    const refused = await runtime.runPromiseExit(Wallets.use((w) =>
      w.reserve({
        holdId: "hold_big",
        accountId: "acct_live",
        network: "ethereum",
        token: "USDC",
        amount: parseUnits("750.000001", 6)
      })
    ))
    expect(Exit.isFailure(refused) && Cause.squash(refused.cause)).toMatchObject({
      _tag: "InsufficientBalance",
      required: "750.000001",
      available: "750"
    })
    await runtime.runPromise(
      Wallets.use((w) =>
        w.reserve({
          holdId: "hold_ok",
          accountId: "acct_live",
          network: "ethereum",
          token: "USDC",
          amount: 750_000_000n
        })
      )
    )
    expect(await runtime.runPromise(Wallets.use((w) => w.revision("acct_live")))).not.toBe(revision)
    const after = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))
    expect(after.get("USDC")).toEqual({ free: 0n, reserved: parseUnits("1000", 6) })
    await runtime.runPromise(Wallets.use((w) => w.release("hold_ok")))
    const released = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))
    expect(released.get("USDC")?.free).toBe(parseUnits("750", 6))
  })
})

describe("LiveNetworkStatus", () => {
  it("reports a network whose RPC answers another chain id down, and its quotes fail with NetworkUnavailable", async () => {
    const networks = await runtime.runPromise(LiveNetworkStatus.use((s) => s.networks))
    expect(networks.map((n) => [n.network, n.rpc])).toEqual([["ethereum", "up"], ["base", "down"]])
    expect(networks[0]?.headBlock).toBe(Number(await owner.getBlockNumber()))
    expect(networks[1]?.reason).toContain("chain id 1")
    const down = await runtime.runPromiseExit(LiveNetworkStatus.use((s) => s.requireUp("base")))
    expect(Exit.isFailure(down) && Cause.squash(down.cause)).toMatchObject({
      _tag: "NetworkUnavailable",
      network: "base"
    })
    const quote = await runtime.runPromiseExit(
      Chain.use((c) => c.quote({ network: "base", tokenIn: "USDC", tokenOut: "WETH", amountIn: 1_000_000n }))
    )
    expect(Exit.isFailure(quote) && Cause.squash(quote.cause)).toMatchObject({
      _tag: "NetworkUnavailable",
      network: "base"
    })
    const up = await runtime.runPromise(
      Chain.use((c) => c.quote({ network: "ethereum", tokenIn: "USDC", tokenOut: "WETH", amountIn: 1_000_000n }))
    )
    expect(up.grossOut).toBeGreaterThan(0n)
  })
})
