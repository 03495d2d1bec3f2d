// Proves a delegated wallet's limit order end to end through the HTTP API of the live server, in
// process on one anvil node (Uniswap V2, the demo tokens, the project's contract) with the network's
// executor key: an order placed below the market stays open; once a swap from another account pushes
// the pool, the order fills by the executor's `fillOrder` (the trade confirmed with the order's id,
// at least its minimum, the wallet's own USDC spent), while an order cancelled before the move is
// never filled; and the contract refuses the same signed order a second time. The portfolio reads
// its balances from the chain (USDC before and after) and gives LINK the cost basis its confirmed
// trade paid, gas included (section 7).
import { type LiveConfig, swapdeskRouterAbi } from "@swapdesk/evm"
import { type Anvil, type DemoMarket, devAccount, type DevnetClient, devnetClient } from "@swapdesk/evm/devnet"
import type { ManagedRuntime } from "effect"
import { type Address, getAddress, type Hex, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import {
  apiClient,
  keyOf,
  limitOrders,
  type LiveChain,
  liveConfigOf,
  mineEverySecond,
  sellLinkIntoPool,
  sqliteRepositories,
  startLiveChain,
  startLiveServer,
  until,
  usdcBalanceOf
} from "./liveFixture.ts"

const KEY = `sd_live_${"z9Y8x7W6v5".repeat(4)}`
const walletIndex = 7
const wallet = devAccount(walletIndex).address
const executorIndex = 1

let chain: LiveChain
let anvil: Anvil
let deployer: DevnetClient
let market: DemoMarket
let contract: Address
let config: LiveConfig
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>

const call = apiClient(() => baseUrl, KEY)

const { orderOf, place } = limitOrders(call)

const usdcOf = (address: Address) => usdcBalanceOf(chain, address)

beforeAll(async () => {
  chain = await startLiveChain({ executorIndex, wallet })
  ;({ anvil, deployer, market, contract } = chain)
  config = liveConfigOf(chain, { id: "acct_orders", key: KEY, wallet, signingKeyEnv: "WALLET_KEY" })
  await mineEverySecond(chain)
  ;({ baseUrl, runtime } = await startLiveServer(
    config,
    { WALLET_KEY: keyOf(walletIndex), EXECUTOR_KEY: keyOf(executorIndex) },
    { repositories: sqliteRepositories("swapdesk-live-orders-") }
  ))
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
    await sellLinkIntoPool(chain)
    const link = market.tokens["LINK"]!.address

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
