// Proves `GET /v1/health` shows an index that really falls behind its chain, and that it catches up:
// the live server runs in process on one anvil node reached through a local JSON-RPC proxy that can
// hold the index's `eth_getLogs` calls (every other call passes). While they are held, a whale swap
// and 60 more blocks (`anvil_mine`) are mined: health reports the head moving on, `indexedBlock`
// staying, `lagBlocks = headBlock - indexedBlock` over 50 and `lagging: true`, and the whale alert
// stays active (its swap is not indexed yet). Once the calls go through, the index reaches the head,
// `lagging` clears, and the whale alert fires, late but on the swap's indexing.
import { mintDemoToken, uniswapV2RouterAbi } from "@swapdesk/evm/devnet"
import type { ManagedRuntime } from "effect"
import { createServer, type Server as HttpServer, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { type Address, erc20Abi, maxUint256, numberToHex, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import {
  apiClient,
  type LiveChain,
  liveConfigOf,
  sqliteRepositories,
  startLiveChain,
  startLiveServer
} from "./liveFixture.ts"
import { waitUntil } from "./waitUntil.ts"

const KEY = `sd_live_${"LagL4gLaG0".repeat(4)}`
const wallet: Address = "0x00000000000000000000000000000000001a6000"

let chain: LiveChain
let proxy: HttpServer
/** While set, `eth_getLogs` calls wait here instead of reaching the node. */
let held: Array<() => void> | undefined
let baseUrl: string
let runtime: ManagedRuntime.ManagedRuntime<never, unknown>

const call = apiClient(() => baseUrl, KEY)

const health = async () => (await call("GET", "/v1/health")).json.data.networks.ethereum

const headNumber = async () => Number(await chain.deployer.getBlockNumber({ cacheTime: 0 }))

/** Forwards one JSON-RPC body to anvil and its answer to `response`. */
const forward = async (body: string, response: ServerResponse) => {
  try {
    const answer = await fetch(chain.anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body
    })
    response.setHeader("content-type", "application/json")
    response.end(await answer.text())
  } catch {
    response.destroy()
  }
}

beforeAll(async () => {
  chain = await startLiveChain({ executorIndex: 1, wallet })
  const { deployer, market } = chain
  await mintDemoToken(deployer, market.tokens["USDC"]!.address, deployer.account.address, parseUnits("200000", 6))
  await deployer.waitForTransactionReceipt({
    hash: await deployer.writeContract({
      address: market.tokens["USDC"]!.address,
      abi: erc20Abi,
      functionName: "approve",
      args: [market.uniswap.router, maxUint256]
    })
  })
  proxy = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => {
      const methods = ([] as Array<{ method: string }>).concat(JSON.parse(body)).map((c) => c.method)
      if (held !== undefined && methods.includes("eth_getLogs")) held.push(() => void forward(body, response))
      else void forward(body, response)
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  const config = liveConfigOf(chain, {
    id: "acct_lag",
    key: KEY,
    wallet,
    scopes: ["read", "alerts"],
    notifications: { email: "lag@example.com" }
  }, { rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` })
  ;({ baseUrl, runtime } = await startLiveServer(config, undefined, {
    repositories: sqliteRepositories("swapdesk-live-lag-")
  }))
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  for (const release of held ?? []) release()
  await new Promise<void>((resolve) => (proxy === undefined ? resolve() : proxy.close(() => resolve())))
  await chain?.anvil.stop()
})

describe("the index's lag in the live server's health", () => {
  it("shows lagging while the index is held 61 blocks behind, and clears once it catches up", async () => {
    const head = await headNumber()
    await waitUntil("the index to reach the head", async () => {
      const network = await health()
      return network.indexedBlock === head && network.headBlock === head
    }, { withinMs: 20_000, everyMs: 100 })
    assert.strictEqual((await health()).lagging, false)
    const whale = await call("POST", "/v1/alerts", { type: "whale", token: "LINK", channel: "email" })
    assert.strictEqual(whale.status, 201, JSON.stringify(whale.json))

    held = []
    // A 150 000 USD buy of LINK (automine: a block of its own), then 60 empty blocks at once.
    const { deployer, market } = chain
    await deployer.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: market.uniswap.router,
        abi: uniswapV2RouterAbi,
        functionName: "swapExactTokensForTokens",
        args: [
          parseUnits("150000", 6),
          0n,
          [market.tokens["USDC"]!.address, market.tokens["LINK"]!.address],
          deployer.account.address,
          2n ** 40n
        ]
      })
    })
    await deployer.request({ method: "anvil_mine", params: [numberToHex(60), numberToHex(1)] } as never)
    const newHead = await headNumber()
    assert.strictEqual(newHead, head + 61)

    await waitUntil("health to report the lag", async () => (await health()).headBlock === newHead, {
      withinMs: 15_000,
      everyMs: 200
    })
    const behind = await health()
    assert.strictEqual(behind.indexedBlock, head)
    assert.strictEqual(behind.lagBlocks, 61)
    assert.strictEqual(behind.lagging, true)
    assert.isAbove(held.length, 0, "the index asked for logs while held")
    assert.strictEqual((await call("GET", `/v1/alerts/${whale.json.data.id}`)).json.data.status, "active")

    const waiting = held
    held = undefined
    for (const release of waiting) release()
    await waitUntil("the index to catch up", async () => (await health()).indexedBlock === newHead, {
      withinMs: 20_000,
      everyMs: 100
    })
    const caughtUp = await health()
    assert.strictEqual(caughtUp.lagBlocks, 0)
    assert.strictEqual(caughtUp.lagging, false)
    await waitUntil(
      "the whale alert to fire on the swap indexed late",
      async () => (await call("GET", `/v1/alerts/${whale.json.data.id}`)).json.data.status === "triggered",
      { withinMs: 10_000, everyMs: 200 }
    )
  }, 60_000)
})
