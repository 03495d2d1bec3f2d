// Proves an external wallet's limit order end to end through the HTTP API of the live server, in
// process on one anvil node (Uniswap V2, the demo tokens, the project's contract) with the network's
// executor key and no key for the wallet: the order is created unsigned with the exact
// `eth_signTypedData_v4` payload (domain with the contract as `verifyingContract`), the contract as
// `verifyingContract` and the USDC allowance the contract lacks; a signature by another key over that
// payload is refused `400 VALIDATION_ERROR` naming `signature`; the owner's viem `signTypedData` over
// exactly the served payload opens it (a second signature is `409 ORDER_NOT_AWAITING_SIGNATURE`);
// the owner approves the contract, a swap pushes the pool, and the executor's `fillOrder` fills it
// with the wallet's own USDC; an order left unsigned expires after the (shortened) signing window.
// After a restart on the same records, an unsigned order still takes its owner's signature over the
// stored payload and fills (its hold rebuilt), and another still expires, its hold freed.
import type { LiveConfig } from "@swapdesk/evm"
import { type Anvil, type DemoMarket, devAccount, type DevnetClient, devnetClient } from "@swapdesk/evm/devnet"
import type { ManagedRuntime } from "effect"
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, maxUint256, parseUnits } from "viem"
import { privateKeyToAccount } from "viem/accounts"
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

const KEY = `sd_live_${"e1X2t3E4r5".repeat(4)}`
const walletIndex = 8
const strangerIndex = 9
const wallet = devAccount(walletIndex).address
const executorIndex = 1

/** The signing window, shortened from 10 minutes so that an unsigned order expires within the test. */
const UNSIGNED_TIMEOUT_MS = 15_000

let chain: LiveChain
let anvil: Anvil
let deployer: DevnetClient
let market: DemoMarket
let contract: Address
let config: LiveConfig
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>
/** The records (and the chain index) in a SQLite file, kept across a restart of the server. */
let repositories: ReturnType<typeof sqliteRepositories>

const startServer = async () => {
  ;({ baseUrl, runtime } = await startLiveServer(config, { EXECUTOR_KEY: keyOf(executorIndex) }, {
    repositories,
    unsignedOrderTimeoutMs: UNSIGNED_TIMEOUT_MS
  }))
}

const call = apiClient(() => baseUrl, KEY)

const { orderOf, place } = limitOrders(call)

const usdcOf = (address: Address) => usdcBalanceOf(chain, address)

beforeAll(async () => {
  chain = await startLiveChain({ executorIndex, wallet })
  ;({ anvil, deployer, market, contract } = chain)
  config = liveConfigOf(chain, { id: "acct_external_orders", key: KEY, wallet })
  await mineEverySecond(chain)
  repositories = sqliteRepositories("swapdesk-live-external-orders-")
  await startServer()
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await anvil?.stop()
})

const sign = (index: number, typedData: any) => privateKeyToAccount(keyOf(index)).signTypedData(typedData)

describe("an external wallet's limit order on the live server", () => {
  it("is created unsigned with its typed data, opens with the owner's signature, and fills", async () => {
    const order = await place()
    const unsigned = await place()
    assert.strictEqual(order.status, "pending")
    assert.isNull(order.signature)
    assert.strictEqual(order.signer, wallet)
    assert.strictEqual(order.verifyingContract, contract)
    assert.deepStrictEqual(order.allowance, {
      token: market.tokens["USDC"]!.address,
      spender: contract,
      required: "100000000",
      current: "0"
    })
    assert.deepStrictEqual(order.typedData.domain, {
      name: "swapdesk",
      version: "1",
      chainId: 1,
      verifyingContract: contract
    })
    assert.strictEqual(order.typedData.primaryType, "Order")
    assert.deepStrictEqual(order.typedData.types.EIP712Domain.map((f: any) => f.name), [
      "name",
      "version",
      "chainId",
      "verifyingContract"
    ])
    assert.deepStrictEqual(order.typedData.message, {
      id: order.id,
      maker: wallet,
      tokenIn: market.tokens["USDC"]!.address,
      tokenOut: market.tokens["LINK"]!.address,
      amountIn: "100000000",
      minAmountOut: "7300000000000000000",
      expiresAt: "0"
    })
    // The read answers the same payload.
    assert.deepStrictEqual((await orderOf(order.id)).typedData, order.typedData)

    // Another key's signature over the same payload does not open it.
    const forged = await call("POST", `/v1/orders/${order.id}/signature`, {
      signature: await sign(strangerIndex, order.typedData)
    })
    assert.strictEqual(forged.status, 400, JSON.stringify(forged.json))
    assert.strictEqual(forged.json.error.code, "VALIDATION_ERROR")
    assert.strictEqual(forged.json.error.details[0].path, "signature")
    assert.isNull((await orderOf(order.id)).signature)

    const signature = await sign(walletIndex, order.typedData)
    const opened = await call("POST", `/v1/orders/${order.id}/signature`, { signature })
    assert.strictEqual(opened.status, 200, JSON.stringify(opened.json))
    assert.strictEqual(opened.json.data.signature, signature)
    assert.strictEqual(opened.json.data.status, "pending")
    const again = await call("POST", `/v1/orders/${order.id}/signature`, { signature })
    assert.strictEqual(again.status, 409, JSON.stringify(again.json))
    assert.strictEqual(again.json.error.code, "ORDER_NOT_AWAITING_SIGNATURE")

    // The owner approves the contract for USDC, as the order's `allowance` asks.
    const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(walletIndex))
    await owner.waitForTransactionReceipt({
      hash: await owner.writeContract({
        address: order.allowance.token,
        abi: erc20Abi,
        functionName: "approve",
        args: [order.allowance.spender, maxUint256]
      })
    })
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    assert.strictEqual((await orderOf(order.id)).status, "pending")
    const usdcBefore = await usdcOf(wallet)

    // Another account sells LINK into the pool: LINK gets about 20% cheaper.
    await sellLinkIntoPool(chain)

    const done = await until(() => orderOf(order.id), (o) => o.status !== "pending", 40_000)
    assert.strictEqual(done.status, "confirmed", JSON.stringify(done))
    const trade = (await call("GET", `/v1/trades/${done.tradeId}`)).json.data
    assert.strictEqual(trade.status, "confirmed", JSON.stringify(trade))
    assert.strictEqual(trade.orderId, order.id)
    assert.isAtLeast(Number(trade.amountOut), 7.3)
    assert.strictEqual(usdcBefore - (await usdcOf(wallet)), parseUnits("100", 6))
    const sent = await deployer.getTransaction({ hash: trade.txHash as Hex })
    assert.strictEqual(getAddress(sent.from), devAccount(executorIndex).address)
    const receipt = await deployer.getTransactionReceipt({ hash: trade.txHash as Hex })
    assert.strictEqual(receipt.status, "success")

    // The order left unsigned saw the same prices, never filled, and expired with its signing window.
    const expired = await until(() => orderOf(unsigned.id), (o) => o.status !== "pending", 30_000)
    assert.strictEqual(expired.status, "expired", JSON.stringify(expired))
    assert.isNull(expired.tradeId)
    assert.isNull(expired.signature)
    const late = await call("POST", `/v1/orders/${unsigned.id}/signature`, {
      signature: await sign(walletIndex, unsigned.typedData)
    })
    assert.strictEqual(late.status, 409, JSON.stringify(late.json))
    // Its hold went back: only the filled order's 100 USDC left the wallet.
    const portfolio = (await call("GET", "/v1/portfolio")).json.data
    assert.strictEqual(portfolio.holdings.find((h: any) => h.token === "USDC").amount, "9900")
  }, 120_000)
})

describe("an external wallet's unsigned order across a restart", () => {
  it("still takes its owner's signature and fills, and one left unsigned still expires, its hold freed", async () => {
    const signedLater = await place()
    const left = await place()
    await runtime.dispose()
    await startServer()
    const restored = await orderOf(signedLater.id)
    assert.deepStrictEqual(restored.typedData, signedLater.typedData)
    const opened = await call("POST", `/v1/orders/${signedLater.id}/signature`, {
      signature: await sign(walletIndex, restored.typedData)
    })
    assert.strictEqual(opened.status, 200, JSON.stringify(opened.json))
    // The market is already below its limit (the first test's push): once signed it fills, its hold
    // rebuilt at the restart moving to the filling trade.
    const filled = await until(() => orderOf(signedLater.id), (o) => o.status !== "pending", 40_000)
    assert.strictEqual(filled.status, "confirmed", JSON.stringify(filled))
    const expired = await until(() => orderOf(left.id), (o) => o.status !== "pending", UNSIGNED_TIMEOUT_MS + 15_000)
    assert.strictEqual(expired.status, "expired", JSON.stringify(expired))
    assert.isNull(expired.tradeId)
    // Its hold was freed: the rest of the wallet's USDC can be ordered again.
    const rest = await call("POST", "/v1/orders", {
      tokenIn: "USDC",
      tokenOut: "LINK",
      amountIn: formatUnits(await usdcOf(wallet), 6),
      minAmountOut: "1000000",
      network: "ethereum"
    })
    assert.strictEqual(rest.status, 201, JSON.stringify(rest.json))
  }, 90_000)
})
