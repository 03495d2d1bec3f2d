// Proves a delegated wallet's limit order end to end through the HTTP API of the live server, in
// process on one anvil node (Uniswap V2, the demo tokens, the project's contract) with the network's
// executor key: an order placed below the market stays open; once a swap from another account pushes
// the pool, the order fills by the executor's `fillOrder` (the trade confirmed with the order's id,
// at least its minimum, the wallet's own USDC spent), while an order cancelled before the move is
// never filled; and the contract refuses the same signed order a second time. The portfolio reads
// its balances from the chain (USDC before and after) and gives LINK the cost basis its confirmed
// trade paid, gas included (section 7).
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import {
  decodeLiveConfig,
  deploySwapdeskRouter,
  type LiveConfig,
  readDelegatedSigners,
  readExecutorSigners,
  swapdeskRouterAbi,
  swapTransaction
} from "@swapdesk/evm"
import {
  type Anvil,
  type DemoMarket,
  deployDemoMarket,
  devAccount,
  devMnemonic,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil
} from "@swapdesk/evm/devnet"
import { serve } from "@swapdesk/http"
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Address, erc20Abi, getAddress, type Hex, maxUint256, parseUnits, toHex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { liveApp } from "../src/LiveServer.ts"

const KEY = `sd_live_${"z9Y8x7W6v5".repeat(4)}`
const keyOf = (index: number) => toHex(mnemonicToAccount(devMnemonic, { addressIndex: index }).getHdKey().privateKey!)
const walletIndex = 7
const wallet = devAccount(walletIndex).address
const executorIndex = 1

let anvil: Anvil
let deployer: DevnetClient
let market: DemoMarket
let contract: Address
let config: LiveConfig
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, json: await response.json() as any }
}

const until = async <A>(read: () => Promise<A>, done: (a: A) => boolean, timeoutMs = 30_000): Promise<A> => {
  const start = Date.now()
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; last value: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

const place = async () => {
  const created = await call("POST", "/v1/orders", {
    tokenIn: "USDC",
    tokenOut: "LINK",
    amountIn: "100",
    minAmountOut: "7.3",
    network: "ethereum"
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.json))
  return created.json.data
}

const orderOf = async (id: string) => (await call("GET", `/v1/orders/${id}`)).json.data

const usdcOf = (address: Address) =>
  deployer.readContract({
    address: market.tokens["USDC"]!.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address]
  })

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 })
  deployer = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
  market = await deployDemoMarket(deployer, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth: 10_000_000n,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  contract = await deploySwapdeskRouter(deployer, {
    router: market.uniswap.router,
    weth: market.uniswap.weth,
    executor: devAccount(executorIndex).address,
    feeRecipient: devAccount(3).address,
    owner: deployer.account.address
  })
  await mintDemoToken(deployer, market.tokens["USDC"]!.address, wallet, parseUnits("10000", 6))
  config = decodeLiveConfig({
    networks: {
      ethereum: {
        rpcUrl: anvil.rpcUrl,
        chainId: 1,
        confirmations: 1,
        startBlock: 0,
        dex: { kind: "uniswap-v2", ...market.uniswap },
        quoteToken: "USDC",
        feeRecipient: devAccount(3).address,
        executorKeyEnv: "EXECUTOR_KEY",
        tokens: [
          { symbol: "USDC", address: market.tokens["USDC"]!.address, decimals: 6 },
          { symbol: "WETH", address: market.uniswap.weth, decimals: 18 },
          { symbol: "LINK", address: market.tokens["LINK"]!.address, decimals: 18 }
        ],
        contracts: { swapdeskRouter: contract }
      }
    },
    accounts: [{
      id: "acct_orders",
      plan: "pro",
      apiKeys: [{ name: "all", key: KEY, scopes: ["read", "trade"] }],
      wallets: [{ network: "ethereum", address: wallet, signingKeyEnv: "WALLET_KEY" }]
    }]
  })
  await deployer.request({ method: "evm_setIntervalMining", params: [1] } as never)
  const env = { WALLET_KEY: keyOf(walletIndex), EXECUTOR_KEY: keyOf(executorIndex) }
  const server = createServer()
  const app = liveApp(config, {
    signers: Effect.runSync(readDelegatedSigners(config, env)),
    executors: Effect.runSync(readExecutorSigners(config, env)),
    repositories: Layer.orDie(
      SqlStore.layer(
        SqlStore.parseDatabaseUrl(`sqlite:${join(mkdtempSync(join(tmpdir(), "swapdesk-live-orders-")), "live.sqlite")}`)
      )
    ),
    followers: { pollIntervalMs: 200 }
  })
  runtime = ManagedRuntime.make(
    serve(app).pipe(Layer.provideMerge(NodeHttpServer.layer(() => server, { port: 0, host: "127.0.0.1" })))
  ) as never
  await runtime.runPromise(Effect.void)
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await anvil?.stop()
})

describe("a delegated wallet's limit order on the live server", () => {
  it("fills through the executor after the price moves; a cancelled one never does; no fill twice", async () => {
    // The portfolio's opening balances are read now, before any trade.
    const opening = await call("GET", "/v1/portfolio")
    assert.strictEqual(opening.status, 200, JSON.stringify(opening.json))
    assert.strictEqual(opening.json.data.holdings.find((h: any) => h.token === "USDC")?.amount, "10000")
    const filled = await place()
    const cancelled = await place()
    assert.strictEqual(filled.status, "pending")
    assert.match(filled.signature, /^0x[0-9a-f]{130}$/)
    const cancel = await call("DELETE", `/v1/orders/${cancelled.id}`)
    assert.strictEqual(cancel.status, 200, JSON.stringify(cancel.json))
    // A few blocks at the old price: the order's minimum is above the market's output.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    assert.strictEqual((await orderOf(filled.id)).status, "pending")
    const usdcBefore = await usdcOf(wallet)

    // Another account sells LINK into the pool: LINK gets about 20% cheaper.
    const link = market.tokens["LINK"]!.address
    const sold = parseUnits("80000", 18)
    await mintDemoToken(deployer, link, deployer.account.address, sold)
    await deployer.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: link,
        abi: erc20Abi,
        functionName: "approve",
        args: [contract, maxUint256]
      })
    })
    const push = swapTransaction({
      from: deployer.account.address,
      tokenIn: link,
      tokenOut: market.tokens["USDC"]!.address,
      amountIn: sold,
      minAmountOut: 0n,
      path: [link, market.tokens["USDC"]!.address],
      deadline: BigInt(Math.floor(Date.now() / 1000) + 600)
    })
    await deployer.waitForTransactionReceipt({
      hash: await deployer.sendTransaction({ to: contract, data: push.data, value: push.value })
    })

    const done = await until(() => orderOf(filled.id), (order) => order.status !== "pending", 40_000)
    assert.strictEqual(done.status, "confirmed", JSON.stringify(done))
    const trade = (await call("GET", `/v1/trades/${done.tradeId}`)).json.data
    assert.strictEqual(trade.status, "confirmed", JSON.stringify(trade))
    assert.strictEqual(trade.orderId, filled.id)
    assert.isAtLeast(Number(trade.amountOut), 7.3)
    assert.strictEqual(usdcBefore - (await usdcOf(wallet)), parseUnits("100", 6))
    const sent = await deployer.getTransaction({ hash: trade.txHash as Hex })
    assert.strictEqual(getAddress(sent.from), devAccount(executorIndex).address)

    // The cancelled order saw the same prices and stays cancelled, with no trade.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    const stillCancelled = await orderOf(cancelled.id)
    assert.strictEqual(stillCancelled.status, "cancelled")
    assert.isNull(stillCancelled.tradeId)
    const trades = (await call("GET", "/v1/trades")).json.data.trades as Array<{ id: string }>
    assert.strictEqual(trades.length, 1)

    // The portfolio: balances from the chain, LINK's cost basis the 100 USDC its confirmed trade spent.
    const portfolio = (await call("GET", "/v1/portfolio")).json.data
    const holding = (token: string) => portfolio.holdings.find((h: any) => h.token === token)
    assert.strictEqual(holding("USDC").amount, "9900")
    assert.strictEqual(holding("LINK").amount, trade.amountOut)
    // Section 7: what was paid, the trade's gas (at ETH's 3000 USD) included.
    assert.closeTo(holding("LINK").costBasis, 100 + Number(trade.gasFee) * 3000, 0.05)
    assert.closeTo(holding("LINK").value, Number(trade.amountOut) * holding("LINK").price, 0.01)

    // The contract refuses the same signed order again, even from the executor.
    const executor = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(executorIndex))
    let refused = false
    try {
      await executor.simulateContract({
        address: contract,
        abi: swapdeskRouterAbi,
        functionName: "fillOrder",
        args: [
          {
            id: filled.id,
            maker: wallet,
            tokenIn: market.tokens["USDC"]!.address,
            tokenOut: link,
            amountIn: parseUnits("100", 6),
            minAmountOut: parseUnits("7.3", 18),
            expiresAt: 0n
          },
          filled.signature as Hex,
          [market.tokens["USDC"]!.address, link]
        ]
      })
    } catch {
      refused = true
    }
    assert.isTrue(refused, "a second fill of the same order went through")
  }, 90_000)
})
