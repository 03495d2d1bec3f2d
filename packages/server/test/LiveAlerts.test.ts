// Proves volume and portfolio alerts fire on live data through the live server's HTTP API, in process
// on one anvil node (Uniswap V2, USDC and LINK, the project's contract). Automine is off: the test
// mines each block at a chosen time (`evm_setNextBlockTimestamp`, `evm_mine`), none of them on a
// whole minute, as on a real chain. A LINK swap gives the index a day of history; a day later, a
// head with no swap fires nothing (no hour of volume, no price move against the day before); a
// 1 000 000 USD buy then fires the volume alert (the hour's volume over 3x the hourly average of
// the 24 h before) and the portfolio alert on the wallet's on-chain LINK and USDC (its value at
// least 5% over the same holdings at the prices of 24 h earlier; about 15% here), each with its
// `triggeredAt` on head block time and an `alert.triggered` webhook delivered to a local receiver.
import type { LiveConfig } from "@swapdesk/evm"
import { type DevnetClient, mintDemoToken, uniswapV2RouterAbi } from "@swapdesk/evm/devnet"
import type { ManagedRuntime } from "effect"
import { type Address, erc20Abi, type Hash, maxUint256, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import {
  apiClient,
  type LiveChain,
  liveConfigOf,
  sqliteRepositories,
  startLiveChain,
  startLiveServer
} from "./liveFixture.ts"
import { httpReceiver } from "./restartRun.ts"
import { waitUntil } from "./waitUntil.ts"

const KEY = `sd_live_${"Al3rtsV0lm".repeat(4)}`
/** An external wallet holding no ETH: its value is its USDC and LINK only. */
const wallet: Address = "0x00000000000000000000000000000000a1e27500"
const DAY_S = 86_400

let chain: LiveChain
let owner: DevnetClient
let link: Address
let usdc: Address
let config: LiveConfig
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>
/** The local webhook receiver. */
let receiver: Awaited<ReturnType<typeof httpReceiver>>
/** A whole minute after the wall clock's now and the chain's latest block: the first swap's minute. */
let t0: number

const call = apiClient(() => baseUrl, KEY)

const rpc = (method: string, params: ReadonlyArray<unknown> = []) =>
  owner.request({ method: method as never, params: params as never })

const headNumber = async () => Number(BigInt(await rpc("eth_blockNumber") as string))

/** Mines one block at `atSeconds` holding whatever is pending. */
const mineAt = async (atSeconds: number) => {
  await rpc("evm_setNextBlockTimestamp", [atSeconds])
  await rpc("evm_mine")
}

/** Buys LINK with `usdcIn` USDC through the router, alone in a block at `atSeconds`. */
const buyLinkAt = async (usdcIn: string, atSeconds: number) => {
  const hash: Hash = await owner.writeContract({
    address: chain.market.uniswap.router,
    abi: uniswapV2RouterAbi,
    functionName: "swapExactTokensForTokens",
    args: [parseUnits(usdcIn, 6), 0n, [usdc, link], owner.account.address, 2n ** 40n]
  })
  await mineAt(atSeconds)
  const receipt = await owner.getTransactionReceipt({ hash })
  assert.strictEqual(receipt.status, "success")
}

/** Waits until the index holds the head (one confirmation: the head itself), then for the observer's next look. */
const observedToHead = async () => {
  const head = await headNumber()
  await waitUntil("the index to reach the head", async () => {
    const network = (await call("GET", "/v1/health")).json.data.networks.ethereum
    return network.indexedBlock !== null && network.indexedBlock >= head
  }, { withinMs: 20_000, everyMs: 100 })
  // The observer looks at the index once a second.
  await new Promise((resolve) => setTimeout(resolve, 1_500))
}

const alertOf = async (id: string) => (await call("GET", `/v1/alerts/${id}`)).json.data

beforeAll(async () => {
  chain = await startLiveChain({ executorIndex: 1, wallet })
  owner = chain.deployer
  link = chain.market.tokens["LINK"]!.address
  usdc = chain.market.tokens["USDC"]!.address
  // The wallet's LINK: 2 000 at 14.5 USD beside its 10 000 USDC.
  await mintDemoToken(owner, link, wallet, parseUnits("2000", 18))
  await mintDemoToken(owner, usdc, owner.account.address, parseUnits("2000000", 6))
  await owner.waitForTransactionReceipt({
    hash: await owner.writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "approve",
      args: [chain.market.uniswap.router, maxUint256]
    })
  })
  // From here the chain mines only the blocks the test asks for.
  await rpc("evm_setAutomine", [false])
  receiver = await httpReceiver()
  config = liveConfigOf(chain, {
    id: "acct_alerts",
    key: KEY,
    wallet,
    scopes: ["read", "alerts", "account"],
    notifications: { email: "alerts@example.com" }
  })
  ;({ baseUrl, runtime } = await startLiveServer(config, undefined, {
    repositories: sqliteRepositories("swapdesk-live-alerts-")
  }))
  const latest = Number((await owner.getBlock()).timestamp)
  t0 = Math.ceil((Math.max(latest, Math.floor(Date.now() / 1000)) + 120) / 60) * 60
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await receiver?.close()
  await chain?.anvil.stop()
})

describe("volume and portfolio alerts on the live server", () => {
  it("fire on a day of indexed swaps and the wallet's on-chain balances, not before", async () => {
    const webhook = await call("POST", "/v1/webhooks", { url: receiver.url, events: ["alert.triggered"] })
    assert.strictEqual(webhook.status, 201, JSON.stringify(webhook.json))
    const volume = await call("POST", "/v1/alerts", { type: "volume", token: "LINK", channel: "email" })
    assert.strictEqual(volume.status, 201, JSON.stringify(volume.json))
    const portfolio = await call("POST", "/v1/alerts", { type: "portfolio", changePercent: 5, channel: "email" })
    assert.strictEqual(portfolio.status, 201, JSON.stringify(portfolio.json))
    const ids = [volume.json.data.id as string, portfolio.json.data.id as string]
    const statuses = async () => Promise.all(ids.map(async (id) => (await alertOf(id)).status))

    // Day 0: a 1 000 USD buy, then a head in the next minute. An hour of volume but no hourly
    // average before it, and no price a day earlier: nothing fires.
    await buyLinkAt("1000", t0 + 5)
    await mineAt(t0 + 67)
    await observedToHead()
    assert.deepStrictEqual(await statuses(), ["active", "active"])

    // A day later, a head with no swap: no volume in the last hour, the price where it was.
    const day1 = t0 + DAY_S + 120
    await mineAt(day1 + 7)
    await observedToHead()
    assert.deepStrictEqual(await statuses(), ["active", "active"])

    // A 1 000 000 USD buy moves LINK about 21% up; the next minute's head sees it indexed.
    await buyLinkAt("1000000", day1 + 65)
    await mineAt(day1 + 127)
    await waitUntil("both alerts to fire", async () => (await statuses()).every((s) => s === "triggered"), {
      withinMs: 20_000,
      everyMs: 200
    })
    for (const id of ids) {
      const alert = await alertOf(id)
      // Fired on head block time, at the minute's first head after the buy.
      assert.isAtLeast(Date.parse(alert.triggeredAt), (day1 + 65) * 1000, JSON.stringify(alert))
      assert.isAtMost(Date.parse(alert.triggeredAt), (day1 + 127) * 1000, JSON.stringify(alert))
    }
    await waitUntil(
      "both webhooks to be delivered",
      () => ids.every((id) => receiver.received.some(({ body }) => body.includes(id)))
    )
    for (const id of ids) {
      const body = JSON.parse(receiver.received.find(({ body }) => body.includes(id))!.body)
      assert.strictEqual(body.type, "alert.triggered")
      assert.strictEqual(body.data.id, id)
      assert.strictEqual(body.data.status, "triggered")
    }
  }, 60_000)
})
