// Proves the live server's market routes and alerts answer from the chain index, end to end: the
// devnet (three anvil nodes, `live:deploy` run on its file) and the real main.ts in a child process
// on a SQLite file. The test stops Ethereum's interval mining and makes LINK/USDC swaps itself in
// blocks at chosen times (`evm_setNextBlockTimestamp`, `evm_mine`); `GET /v1/market-data` (`price`,
// `volume24h`, `change24h`, `marketCap`, `extended`) and `GET /v1/market-data/chart` then equal
// what the test computes from the pool's reserves, the token's supply and the chain's Swap logs.
// `/v1/health` shows the indexed block advancing with the head and `lagBlocks = headBlock -
// indexedBlock`. A price alert fires (status, webhook delivered to a local receiver, the
// notification attempted in the log) once a swap moves the price over its target, and not before;
// a whale alert fires on the indexed swap worth at least 100 000 USD, not on a smaller one.
import { MoneyDecimal } from "@swapdesk/core"
import { confirmed, devAccount, devnetClient, mintDemoToken, uniswapV2RouterAbi } from "@swapdesk/evm/devnet"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Address, erc20Abi, type Hash, maxUint256, parseAbi, parseAbiItem, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, expect, it } from "vitest"
import { type LiveDevnet, runLiveDeploy, startLiveDevnet } from "../src/devnet/LiveDevnet.ts"
import { type MainServer, mainServerCall, startMainServer } from "./mainServer.ts"
import { httpReceiver } from "./restartRun.ts"
import { waitUntil } from "./waitUntil.ts"

const D = MoneyDecimal

const swapEvent = parseAbiItem(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
)
const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])
const factoryAbi = parseAbi(["function getPair(address, address) view returns (address)"])

type Server = MainServer

let devnet: LiveDevnet
let server: Server
/** The local webhook receiver. */
let receiver: Awaited<ReturnType<typeof httpReceiver>>
let owner: ReturnType<typeof devnetClient>
let link: Address
let usdc: Address
let pair: Address
/** The first minute of the scripted swaps, in seconds. */
let t0: number

/** `main.ts` logging at debug level, with `env`. */
const startServer = (env: Record<string, string>): Promise<Server> => startMainServer({ LOG_LEVEL: "debug", ...env })

const call = mainServerCall(() => server)

const rpc = (method: string, params: ReadonlyArray<unknown> = []) =>
  owner.request({ method: method as never, params: params as never })

const headNumber = async () => BigInt(await rpc("eth_blockNumber") as string)

/** Mines one block at `atSeconds` holding whatever is pending. */
const mineAt = async (atSeconds: number) => {
  await rpc("evm_setNextBlockTimestamp", [atSeconds])
  await rpc("evm_mine")
}

/** Swaps `amountIn` of `from` into `to` through the router, alone in a block at `atSeconds`. */
const swapAt = async (from: Address, to: Address, amountIn: bigint, atSeconds: number) => {
  const hash: Hash = await owner.writeContract({
    address: devnet.nodes.ethereum.market.uniswap.router,
    abi: uniswapV2RouterAbi,
    functionName: "swapExactTokensForTokens",
    args: [amountIn, 0n, [from, to], owner.account.address, 2n ** 40n]
  })
  await mineAt(atSeconds)
  await confirmed(owner, hash)
}

/** Every LINK/USDC Swap log so far, as LINK trades: time (ms), side, price and value (USD). */
const linkTrades = async () => {
  const token0 = await owner.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  const linkIs0 = token0.toLowerCase() === link.toLowerCase()
  const logs = await owner.getLogs({ address: pair, event: swapEvent, fromBlock: 0n, toBlock: await headNumber() })
  const trades = []
  for (const log of logs) {
    const a = log.args
    const [tIn, tOut, oIn, oOut] = linkIs0
      ? [a.amount0In!, a.amount0Out!, a.amount1In!, a.amount1Out!]
      : [a.amount1In!, a.amount1Out!, a.amount0In!, a.amount0Out!]
    const block = await owner.getBlock({ blockNumber: log.blockNumber })
    const amount = new D((tOut > tIn ? tOut - tIn : tIn - tOut).toString()).div(1e18)
    const value = new D((oOut > oIn ? oOut - oIn : oIn - oOut).toString()).div(1e6)
    trades.push({ at: Number(block.timestamp) * 1000, buy: tOut > tIn, value, price: value.div(amount) })
  }
  return trades
}

/** LINK's mid price now: the pool's USDC reserve per LINK reserve. */
const midPrice = async () => {
  const token0 = await owner.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  const [r0, r1] = await owner.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" })
  const [l, u] = token0.toLowerCase() === link.toLowerCase() ? [r0, r1] : [r1, r0]
  return new D(u.toString()).div(1e6).div(new D(l.toString()).div(1e18))
}

/** Candles of `[fromMs, toMs)` computed from the trades with the spec's rules (section 6). */
const expectedCandles = (
  trades: ReadonlyArray<{ at: number; price: MoneyDecimal; value: MoneyDecimal }>,
  stepMs: number,
  fromMs: number,
  toMs: number
) => {
  const out: Array<{ openTime: number; open: number; high: number; low: number; close: number; volume: number }> = []
  let previous: number | undefined
  for (let t = fromMs; t < toMs; t += stepMs) {
    const inside = trades.filter((x) => x.at >= t && x.at < t + stepMs)
    if (inside.length === 0) {
      if (previous !== undefined) {
        out.push({ openTime: t, open: previous, high: previous, low: previous, close: previous, volume: 0 })
      }
      continue
    }
    const prices = inside.map((x) => x.price.toNumber())
    out.push({
      openTime: t,
      open: prices[0]!,
      high: Math.max(...prices),
      low: Math.min(...prices),
      close: prices.at(-1)!,
      volume: inside.reduce((s, x) => s.add(x.value), new D(0)).toNumber()
    })
    previous = prices.at(-1)!
  }
  return out
}

const closeTo = (actual: number, expected: number, what: string) =>
  assert.isBelow(Math.abs(actual - expected), Math.abs(expected) * 1e-9 + 1e-9, `${what}: ${actual} vs ${expected}`)

const alertOf = async (id: string) =>
  (await call("GET", `/v1/alerts/${id}`, { key: devnet.account.keys.all })).json.data

/** Waits until the index holds the node's head block less the confirmations (2). */
const indexedToHead = async () => {
  const safe = Number(await headNumber()) - 1
  await waitUntil("the index to reach the head", async () => {
    const network = (await call("GET", "/v1/health")).json.data.networks.ethereum
    return network.indexedBlock !== null && network.indexedBlock >= safe
  }, { withinMs: 30_000 })
}

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-live-market-"))
  devnet = await startLiveDevnet({ directory, confirmations: 2 })
  await runLiveDeploy(devnet)
  const node = devnet.nodes.ethereum
  owner = devnetClient(node.anvil.rpcUrl, 1, devAccount(0))
  link = node.market.tokens["LINK"]!.address
  usdc = node.market.tokens["USDC"]!.address
  pair = await owner.readContract({
    address: node.market.uniswap.factory,
    abi: factoryAbi,
    functionName: "getPair",
    args: [link, usdc]
  })
  await mintDemoToken(owner, usdc, owner.account.address, parseUnits("1000000", 6))
  await mintDemoToken(owner, link, owner.account.address, parseUnits("10000", 18))
  for (const token of [usdc, link]) {
    await confirmed(
      owner,
      await owner.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [node.market.uniswap.router, maxUint256]
      })
    )
  }
  // From here Ethereum mines only the blocks the test asks for.
  await rpc("evm_setIntervalMining", [0])
  await rpc("evm_setAutomine", [false])
  receiver = await httpReceiver()
  server = await startServer({
    ...devnet.env,
    LIVE_CONFIG: devnet.configPath,
    DATABASE_URL: devnet.databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true"
  })
  const latest = Number((await owner.getBlock()).timestamp)
  t0 = Math.ceil((Math.max(latest, Math.floor(Date.now() / 1000)) + 90) / 60) * 60
}, 240_000)

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill("SIGTERM")
    await server.exited
  }
  await receiver?.close()
  await devnet?.stop()
}, 60_000)

describe("the live server's market data and alerts on the chain index", () => {
  it("reports the indexed block advancing with the head, and the lag", async () => {
    await mineAt(Number((await owner.getBlock()).timestamp) + 1)
    await indexedToHead()
    const before = (await call("GET", "/v1/health")).json.data.networks.ethereum
    const last = Number((await owner.getBlock()).timestamp)
    for (let i = 1; i <= 4; i++) await mineAt(last + i)
    await indexedToHead()
    await waitUntil("health to read the new head", async () => {
      const network = (await call("GET", "/v1/health")).json.data.networks.ethereum
      return network.headBlock === Number(await headNumber())
    }, { withinMs: 15_000 })
    const after = (await call("GET", "/v1/health")).json.data.networks.ethereum
    assert.isAbove(after.indexedBlock, before.indexedBlock)
    assert.strictEqual(after.indexedBlock, Number(await headNumber()) - 1)
    assert.strictEqual(after.lagBlocks, after.headBlock - after.indexedBlock)
    assert.strictEqual(after.lagBlocks, 1)
    assert.strictEqual(after.lagging, false)
  })

  it(
    "fires a price alert when a swap moves the price over its target, a whale alert on an indexed whale swap",
    async () => {
      const key = devnet.account.keys.all
      const webhook = await call("POST", "/v1/webhooks", {
        key,
        body: { url: receiver.url, events: ["alert.triggered"] }
      })
      assert.strictEqual(webhook.status, 201, JSON.stringify(webhook.json))
      const start = await midPrice()
      const target = start.mul(1.01).toNumber()
      const price = await call("POST", "/v1/alerts", {
        key,
        body: { type: "price", token: "LINK", condition: "above", targetPrice: target, channel: "email" }
      })
      assert.strictEqual(price.status, 201, JSON.stringify(price.json))
      const whale = await call("POST", "/v1/alerts", { key, body: { type: "whale", token: "LINK", channel: "email" } })
      assert.strictEqual(whale.status, 201, JSON.stringify(whale.json))

      // A head without a swap: the price has not moved, nothing fires.
      await mineAt(t0 - 30)
      await indexedToHead()
      assert.strictEqual((await alertOf(price.json.data.id)).status, "active")

      // Minute 0: a 20 000 USD buy (over the price target, under the whale threshold) and a sell.
      await swapAt(usdc, link, parseUnits("20000", 6), t0 + 5)
      await swapAt(link, usdc, parseUnits("300", 18), t0 + 30)
      assert.isAbove((await midPrice()).toNumber(), target)
      await mineAt(t0 + 40)
      await mineAt(t0 + 41)
      await indexedToHead()
      await waitUntil("the price alert to fire", async () => (await alertOf(price.json.data.id)).status === "triggered")
      await waitUntil(
        "the webhook to be delivered",
        () => receiver.received.some(({ body }) => body.includes(price.json.data.id))
      )
      assert.include(server.output(), price.json.data.id)
      assert.strictEqual((await alertOf(whale.json.data.id)).status, "active")

      // Minute 1: a 150 000 USD buy; minute 2 has none; minute 3: a small buy.
      await swapAt(usdc, link, parseUnits("150000", 6), t0 + 70)
      await swapAt(usdc, link, parseUnits("1000", 6), t0 + 190)
      await mineAt(t0 + 200)
      await mineAt(t0 + 201)
      await indexedToHead()
      await waitUntil("the whale alert to fire", async () => (await alertOf(whale.json.data.id)).status === "triggered")
      await waitUntil(
        "its webhook to be delivered",
        () => receiver.received.some(({ body }) => body.includes(whale.json.data.id))
      )
    },
    120_000
  )

  it("answers the market data and the candles the chain's Swap logs and reserves give", async () => {
    const trades = await linkTrades()
    assert.strictEqual(trades.length, 4)
    const total = trades.reduce((s, x) => s.add(x.value), new D(0))
    const buys = trades.filter((x) => x.buy).reduce((s, x) => s.add(x.value), new D(0))
    const price = await midPrice()
    const supply = await owner.readContract({ address: link, abi: erc20Abi, functionName: "totalSupply" })

    const publicView = await call("GET", "/v1/market-data?token=LINK")
    assert.strictEqual(publicView.status, 200, JSON.stringify(publicView.json))
    const data = publicView.json.data
    assert.strictEqual(data.currency, "USD")
    assert.notProperty(data, "extended")
    closeTo(data.price, price.toNumber(), "price")
    closeTo(data.volume24h, total.toNumber(), "volume24h")
    // History shorter than 24 h: the change is against the first indexed swap.
    closeTo(data.change24h, price.div(trades[0]!.price).sub(1).mul(100).toNumber(), "change24h")
    closeTo(data.marketCap, price.mul(new D(supply.toString()).div(1e18)).toNumber(), "marketCap")

    const extended = (await call("GET", "/v1/market-data?token=LINK", { key: devnet.account.keys.read })).json.data
      .extended
    closeTo(extended.buyVolume24h, buys.toNumber(), "buyVolume24h")
    closeTo(extended.sellVolume24h, total.sub(buys).toNumber(), "sellVolume24h")
    closeTo(extended.volumeByNetwork.ethereum, total.toNumber(), "volumeByNetwork")
    expect(extended.whaleActivity.transactions24h).toBe(1)
    closeTo(extended.whaleActivity.netFlow24h, 150_000, "netFlow24h")

    const from = t0 * 1000 - 3 * 60_000
    const to = t0 * 1000 + 5 * 60_000
    const chart = await call(
      "GET",
      `/v1/market-data/chart?token=LINK&timeframe=1m&from=${new Date(from).toISOString()}&to=${
        new Date(to).toISOString()
      }`,
      { key: devnet.account.keys.read }
    )
    assert.strictEqual(chart.status, 200, JSON.stringify(chart.json))
    const candles = chart.json.data.candles as Array<any>
    const expected = expectedCandles(trades, 60_000, t0 * 1000, to)
    assert.strictEqual(candles.length, expected.length, JSON.stringify(candles))
    assert.strictEqual(Date.parse(candles[0].timestamp), t0 * 1000) // nothing before the first swap
    candles.forEach((candle, i) => {
      const want = expected[i]!
      assert.strictEqual(Date.parse(candle.timestamp), want.openTime)
      for (const field of ["open", "high", "low", "close", "volume"] as const) {
        closeTo(candle[field], want[field], `candle ${i} ${field}`)
      }
    })
    assert.strictEqual(candles[2].volume, 0) // minute 2: the gap repeats the close
    assert.strictEqual(candles[2].open, candles[1].close)
  })

  it("ranks LINK in trending from the indexed volume", async () => {
    const trending = await call("GET", "/v1/market-data/trending?network=ethereum")
    assert.strictEqual(trending.status, 200, JSON.stringify(trending.json))
    assert.include(trending.json.data.tokens.map((e: any) => e.token), "LINK")
  })
})
