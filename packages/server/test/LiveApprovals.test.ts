// Proves an external wallet's trade end to end through the HTTP API of the live server, in process on
// one anvil node (Uniswap V2, the demo tokens, the project's contract), its owner signing with viem
// in the test: `POST /trades` answers `pending` without `txHash`; the single read carries the
// prepared swap and the ERC-20 allowance to send first, whose `current` follows the owner's
// `approve`; a swap signed for other call data, or by another account, is `400 VALIDATION_ERROR`
// naming the field; the prepared swap signed (`signedTransaction`) and one the wallet broadcast
// itself (`txHash`) are both confirmed with the output the chain moved; a hash the node learns of
// only after the answer is checked once it shows (another transaction fails the trade); `{ reject: true }` fails it
// `WALLET_REJECTED` and a second answer is `409 TRADE_NOT_AWAITING_APPROVAL`; a trade left
// unanswered past the (shortened) approval timeout fails `APPROVAL_TIMEOUT`. A swap between two
// listed tokens no pool connects is `400 VALIDATION_ERROR` on `tokenOut`, for a quote and a trade.
// A trade awaiting approval when the server restarts still times out, and its hold is released. An
// external wallet's order, created unsigned, holds its funds until it is cancelled.
import type { LiveConfig } from "@swapdesk/evm"
import {
  type Anvil,
  type DemoMarket,
  deployDemoToken,
  devAccount,
  type DevnetClient,
  devnetClient
} from "@swapdesk/evm/devnet"
import type { ManagedRuntime } from "effect"
import { type Address, erc20Abi, formatUnits, getAddress, type Hex, keccak256, maxUint256 } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import {
  apiClient,
  type LiveChain,
  liveConfigOf,
  mineEverySecond,
  sqliteRepositories,
  startLiveChain,
  startLiveServer,
  until
} from "./liveFixture.ts"

const APPROVAL_TIMEOUT_MS = 8_000
const KEY = `sd_live_${"a1B2c3D4e5".repeat(4)}`
const owner = devAccount(5)
const stranger = devAccount(6)

let chain: LiveChain
let anvil: Anvil
let deployer: DevnetClient
let wallet: DevnetClient
let market: DemoMarket
let contract: Address
let orphan: Address
let config: LiveConfig
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>
/** The records (and the chain index) in a SQLite file, kept across a restart of the server. */
let repositories: ReturnType<typeof sqliteRepositories>

const startServer = async () => {
  ;({ baseUrl, runtime } = await startLiveServer(config, undefined, {
    repositories,
    approvalTimeoutMs: APPROVAL_TIMEOUT_MS
  }))
}

const call = apiClient(() => baseUrl, KEY)

const createTrade = async () => {
  const created = await call("POST", "/v1/trades", {
    tokenIn: "USDC",
    tokenOut: "LINK",
    amountIn: "100",
    network: "ethereum",
    slippage: 1
  })
  assert.strictEqual(created.status, 201, JSON.stringify(created.json))
  return created.json.data.id as string
}

const approvalOf = async (id: string) => {
  const read = await call("GET", `/v1/trades/${id}`)
  assert.strictEqual(read.status, 200, JSON.stringify(read.json))
  return read.json.data
}

/** The prepared swap signed by `signer`, with `data` replaced when given. */
const signPrepared = async (
  transaction: { to: Address; data: Hex; value: string; chainId: number; gas: string },
  signer: typeof owner,
  data: Hex = transaction.data
) => {
  const client = devnetClient(anvil.rpcUrl, anvil.chainId, signer)
  const [nonce, fees] = await Promise.all([
    client.getTransactionCount({ address: signer.address, blockTag: "pending" }),
    client.estimateFeesPerGas()
  ])
  return signer.signTransaction!({
    type: "eip1559",
    chainId: transaction.chainId,
    to: transaction.to,
    data,
    value: BigInt(transaction.value),
    gas: BigInt(transaction.gas),
    nonce,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas
  })
}

const confirmedTrade = (id: string) =>
  until(() => approvalOf(id), (trade) => trade.status !== "pending").then((trade) => {
    assert.strictEqual(trade.status, "confirmed", JSON.stringify(trade))
    return trade
  })

beforeAll(async () => {
  chain = await startLiveChain({ executorIndex: 1, wallet: owner.address, usdc: "100000" })
  ;({ anvil, deployer, market, contract } = chain)
  wallet = devnetClient(anvil.rpcUrl, anvil.chainId, owner)
  orphan = await deployDemoToken(deployer, { name: "Orphan", symbol: "ORPH", decimals: 18 })
  config = liveConfigOf(chain, { id: "acct_external", key: KEY, wallet: owner.address }, {
    executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_ETHEREUM",
    extraTokens: [{ symbol: "ORPH", address: orphan, decimals: 18 }]
  })
  await mineEverySecond(chain)
  repositories = sqliteRepositories("swapdesk-live-approvals-")
  await startServer()
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await anvil?.stop()
})

describe("an external wallet's trade on the live server", () => {
  it("is prepared, waits for the allowance, refuses a tampered swap, and confirms the signed one", async () => {
    const id = await createTrade()
    const trade = await approvalOf(id)
    assert.strictEqual(trade.status, "pending")
    assert.notProperty(trade, "txHash")
    const { transaction, allowance, expiresAt } = trade.approval
    assert.strictEqual(transaction.to, getAddress(contract))
    assert.strictEqual(transaction.chainId, 1)
    assert.strictEqual(transaction.value, "0")
    assert.match(transaction.gas, /^[1-9][0-9]*$/)
    assert.match(transaction.data, /^0x[0-9a-f]+$/)
    assert.deepStrictEqual(allowance, {
      token: getAddress(market.tokens["USDC"]!.address),
      spender: getAddress(contract),
      required: "100000000",
      current: "0"
    })
    assert.isAbove(Date.parse(expiresAt), Date.now())

    const approve = await wallet.writeContract({
      address: market.tokens["USDC"]!.address,
      abi: erc20Abi,
      functionName: "approve",
      args: [contract, maxUint256]
    })
    await wallet.waitForTransactionReceipt({ hash: approve })
    assert.strictEqual((await approvalOf(id)).approval.allowance.current, maxUint256.toString())

    const tampered = await call("POST", `/v1/trades/${id}/approval`, {
      signedTransaction: await signPrepared(transaction, owner, `${transaction.data.slice(0, -2)}00` as Hex)
    })
    assert.strictEqual(tampered.status, 400, JSON.stringify(tampered.json))
    assert.strictEqual(tampered.json.error.code, "VALIDATION_ERROR")
    assert.strictEqual(tampered.json.error.details[0].path, "signedTransaction.data")

    const byStranger = await call("POST", `/v1/trades/${id}/approval`, {
      signedTransaction: await signPrepared(transaction, stranger)
    })
    assert.strictEqual(byStranger.status, 400, JSON.stringify(byStranger.json))
    assert.strictEqual(byStranger.json.error.details[0].path, "signedTransaction")

    const approved = await call("POST", `/v1/trades/${id}/approval`, {
      signedTransaction: await signPrepared(transaction, owner)
    })
    assert.strictEqual(approved.status, 200, JSON.stringify(approved.json))
    assert.strictEqual(approved.json.data.status, "pending")
    assert.match(approved.json.data.txHash, /^0x[0-9a-f]{64}$/)
    const confirmed = await confirmedTrade(id)
    assert.strictEqual(confirmed.txHash, approved.json.data.txHash)
    assert.isAbove(Number(confirmed.amountOut), 6)
    assert.notProperty(confirmed, "approval")
  }, 60_000)

  it("follows a swap the wallet broadcast itself, given its hash", async () => {
    const id = await createTrade()
    const { transaction, allowance } = (await approvalOf(id)).approval
    assert.strictEqual(allowance, null)
    const hash = await wallet.sendTransaction({
      to: transaction.to,
      data: transaction.data,
      value: BigInt(transaction.value),
      gas: BigInt(transaction.gas)
    })
    const answered = await call("POST", `/v1/trades/${id}/approval`, { txHash: hash })
    assert.strictEqual(answered.status, 200, JSON.stringify(answered.json))
    assert.strictEqual((await confirmedTrade(id)).txHash, hash)
  }, 60_000)

  it("checks a hash the node learns of only later, once it shows: another transaction fails the trade", async () => {
    const good = await createTrade()
    const prepared = (await approvalOf(good)).approval.transaction
    const signed = await signPrepared(prepared, owner)
    const answered = await call("POST", `/v1/trades/${good}/approval`, { txHash: keccak256(signed) })
    assert.strictEqual(answered.status, 200, JSON.stringify(answered.json))
    await wallet.sendRawTransaction({ serializedTransaction: signed })
    assert.strictEqual((await confirmedTrade(good)).txHash, keccak256(signed))

    const bad = await createTrade()
    const other = (await approvalOf(bad)).approval.transaction
    // A transaction of the wallet's that is not the prepared swap: a plain ETH transfer.
    const transfer = await signPrepared({ ...other, data: "0x", to: stranger.address, gas: "21000" }, owner)
    await call("POST", `/v1/trades/${bad}/approval`, { txHash: keccak256(transfer) })
    await wallet.sendRawTransaction({ serializedTransaction: transfer })
    const failed = await until(() => approvalOf(bad), (t) => t.status !== "pending")
    assert.strictEqual(failed.status, "failed")
    assert.strictEqual(failed.failureReason, "NETWORK_ERROR")
  }, 60_000)

  it("fails rejected, then answers 409 to a second answer", async () => {
    const id = await createTrade()
    const rejected = await call("POST", `/v1/trades/${id}/approval`, { reject: true })
    assert.strictEqual(rejected.status, 200, JSON.stringify(rejected.json))
    assert.strictEqual(rejected.json.data.status, "failed")
    assert.strictEqual(rejected.json.data.failureReason, "WALLET_REJECTED")
    const again = await call("POST", `/v1/trades/${id}/approval`, { reject: true })
    assert.strictEqual(again.status, 409)
    assert.strictEqual(again.json.error.code, "TRADE_NOT_AWAITING_APPROVAL")
    const both = await call("POST", `/v1/trades/${id}/approval`, { reject: true, txHash: "0x00" })
    assert.strictEqual(both.status, 400)
  }, 30_000)

  it("answers 400 on tokenOut for a swap no pool can make", async () => {
    const quote = await call("GET", "/v1/quote?tokenIn=USDC&tokenOut=ORPH&amountIn=10&network=ethereum")
    assert.strictEqual(quote.status, 400, JSON.stringify(quote.json))
    assert.strictEqual(quote.json.error.code, "VALIDATION_ERROR")
    assert.strictEqual(quote.json.error.details[0].path, "tokenOut")
    const trade = await call("POST", "/v1/trades", {
      tokenIn: "USDC",
      tokenOut: "ORPH",
      amountIn: "10",
      network: "ethereum"
    })
    assert.strictEqual(trade.status, 400, JSON.stringify(trade.json))
    assert.strictEqual(trade.json.error.details[0].path, "tokenOut")
  }, 30_000)

  it("holds an unsigned order's funds from its creation until it is cancelled", async () => {
    const balance = await deployer.readContract({
      address: market.tokens["USDC"]!.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner.address]
    })
    const amountIn = formatUnits(balance, 6)
    const order = await call("POST", "/v1/orders", {
      tokenIn: "USDC",
      tokenOut: "LINK",
      amountIn,
      minAmountOut: "1",
      network: "ethereum"
    })
    assert.strictEqual(order.status, 201, JSON.stringify(order.json))
    assert.isNull(order.json.data.signature)
    const held = await call("POST", "/v1/trades", { tokenIn: "USDC", tokenOut: "LINK", amountIn, network: "ethereum" })
    assert.strictEqual(held.json.error?.code, "INSUFFICIENT_BALANCE", JSON.stringify(held.json))
    const cancelled = await call("DELETE", `/v1/orders/${order.json.data.id}`)
    assert.strictEqual(cancelled.status, 200, JSON.stringify(cancelled.json))
    const all = await call("POST", "/v1/trades", { tokenIn: "USDC", tokenOut: "LINK", amountIn, network: "ethereum" })
    assert.strictEqual(all.status, 201, JSON.stringify(all.json))
    await call("POST", `/v1/trades/${all.json.data.id}/approval`, { reject: true })
  }, 30_000)

  it("fails unanswered after the approval timeout", async () => {
    const id = await createTrade()
    const trade = await until(() => approvalOf(id), (t) => t.status !== "pending", APPROVAL_TIMEOUT_MS + 10_000)
    assert.strictEqual(trade.status, "failed")
    assert.strictEqual(trade.failureReason, "APPROVAL_TIMEOUT")
    assert.strictEqual(trade.gasFee, "0")
  }, 30_000)

  it("still fails unanswered after a restart, its funds free again", async () => {
    const id = await createTrade()
    const balance = await deployer.readContract({
      address: market.tokens["USDC"]!.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner.address]
    })
    const all = {
      tokenIn: "USDC",
      tokenOut: "LINK",
      amountIn: formatUnits(balance, 6),
      network: "ethereum",
      slippage: 1
    }
    await runtime.dispose()
    await startServer()
    const restored = await approvalOf(id)
    assert.strictEqual(restored.status, "pending")
    // Its prepared swap did not survive the restart: the wallet can only reject it, or let it time out.
    assert.notProperty(restored, "approval")
    // Its hold was rebuilt: the whole balance is not free.
    const held = await call("POST", "/v1/trades", all)
    assert.strictEqual(held.status, 422, JSON.stringify(held.json))
    const trade = await until(() => approvalOf(id), (t) => t.status !== "pending", APPROVAL_TIMEOUT_MS + 10_000)
    assert.strictEqual(trade.failureReason, "APPROVAL_TIMEOUT")
    const freed = await call("POST", "/v1/trades", all)
    assert.strictEqual(freed.status, 201, JSON.stringify(freed.json))
  }, 30_000)
})
