// Proves that the live server survives what production does to it, on the devnet (anvil nodes
// mining a block every second, 2 confirmations) with the real main.ts in a child process on a SQLite
// file. Killed (`kill -9`) with delegated trades broadcast and not yet confirmed, and restarted on the
// same database, it follows every trade to `confirmed` with the amounts the contract logged, and
// the wallet's nonce on chain equals the transactions the chain holds from it, each swap being one
// trade's (nothing broadcast twice); an `Idempotency-Key` repeat after the restart answers the same
// trade and broadcasts nothing. Killed between a key's claim and the broadcast (the node stopped
// answering meanwhile), nothing reaches the chain, and the key stays claimed after the restart (a
// repeat is 409 IDEMPOTENCY_CONFLICT, nothing is sent) while another key trades. The node of one network behind a local TCP relay that the test switches off (it keeps
// connections open and answers nothing): that network's writes answer 503 NETWORK_UNAVAILABLE with
// Retry-After within seconds while another network still trades, and the trade in flight on it is
// confirmed once the relay answers again. A node of another chain id at start: that network is
// down and takes no trade.
import { swapdeskRouterAbi } from "@swapdesk/evm"
import { startAnvil } from "@swapdesk/evm/devnet"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server as NetServer, type Socket } from "node:net"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type Address, createPublicClient, type Hash, http, parseEventLogs, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type LiveDevnet, runLiveDeploy, startLiveDevnet } from "../src/devnet/LiveDevnet.ts"
import { devnetServerEnv, type MainServer, routeNetworkThrough, startMainServer, stopMainServer } from "./mainServer.ts"
import { waitUntil } from "./waitUntil.ts"

type NetworkName = "ethereum" | "base" | "arbitrum"

type Server = MainServer

const startServer = startMainServer

const stopServer = stopMainServer

/**
 * A TCP relay in front of a node. Switched off, it keeps every connection open and answers
 * nothing (a node that hangs, not one that refuses); switched on again, it drops the connections
 * it swallowed, so clients reconnect through a relay that forwards.
 */
const startRelay = async (target: string) => {
  const url = new URL(target)
  let answering = true
  const swallowed = new Set<Socket>()
  const relayed = new Map<Socket, Socket>()
  const swallow = (client: Socket) => {
    swallowed.add(client)
    client.on("close", () => swallowed.delete(client))
    client.resume()
  }
  const server: NetServer = createServer((client) => {
    client.on("error", () => undefined)
    if (!answering) return swallow(client)
    const upstream = connect(Number(url.port), url.hostname)
    upstream.on("error", () => client.destroy())
    client.on("close", () => {
      relayed.delete(client)
      upstream.destroy()
    })
    upstream.on("close", () => relayed.has(client) && client.destroy())
    relayed.set(client, upstream)
    client.pipe(upstream)
    upstream.pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { readonly port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    off: () => {
      answering = false
      for (const [client, upstream] of relayed) {
        relayed.delete(client)
        client.unpipe(upstream)
        upstream.unpipe(client)
        upstream.destroy()
        swallow(client)
      }
    },
    on: () => {
      answering = true
      for (const client of swallowed) client.destroy()
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of [...swallowed, ...relayed.keys()]) client.destroy()
        server.close(() => resolve())
      })
  }
}

let devnet: LiveDevnet
let relay: Awaited<ReturnType<typeof startRelay>>
let server: Server | undefined
let env: Record<string, string>

const call = async (
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly idempotencyKey?: string; readonly base?: string } = {}
) => {
  const response = await fetch((options.base ?? server!.baseUrl) + path, {
    method,
    headers: {
      // Closed after the answer: a server stopped by a signal waits for idle connections to close.
      connection: "close",
      authorization: `Bearer ${devnet.account.keys.all}`,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.idempotencyKey === undefined ? {} : { "idempotency-key": options.idempotencyKey })
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, json: JSON.parse(text) as any }
}

const chainOf = (network: NetworkName) => createPublicClient({ transport: http(devnet.nodes[network].anvil.rpcUrl) })

const routerOf = (network: NetworkName): Address =>
  JSON.parse(readFileSync(devnet.configPath, "utf8")).networks[network].contracts.swapdeskRouter

/** Every transaction the wallet sent on `network` in blocks `from`..`to`: its hash and recipient. */
const sentBy = async (network: NetworkName, wallet: Address, from: bigint, to: bigint) => {
  const sent: Array<{ readonly hash: Hash; readonly to: Address | null }> = []
  for (let number = from; number <= to; number++) {
    const block = await chainOf(network).getBlock({ blockNumber: number, includeTransactions: true })
    for (const tx of block.transactions) {
      if (tx.from.toLowerCase() === wallet.toLowerCase()) sent.push({ hash: tx.hash, to: tx.to })
    }
  }
  return sent
}

/** The trade's amounts as its `Swapped` event logged them. */
const swappedOf = async (network: NetworkName, txHash: Hash) => {
  const receipt = await chainOf(network).getTransactionReceipt({ hash: txHash })
  const router = routerOf(network).toLowerCase()
  const [swapped] = parseEventLogs({
    abi: swapdeskRouterAbi,
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === router),
    eventName: "Swapped"
  })
  assert.isDefined(swapped, `a Swapped event in ${txHash}`)
  return swapped!.args
}

const waitForEnd = async (id: string) => {
  let trade: any
  await waitUntil(`trade ${id} to end`, async () => {
    trade = (await call("GET", `/v1/trades/${id}`)).json.data
    return trade.status === "confirmed" || trade.status === "failed"
  }, { withinMs: 60_000, everyMs: 250 })
  return trade
}

/** What the database holds of the trades, by id: their stage and transaction. */
const storedTrades = (databaseUrl: string): Map<string, { readonly stage: string; readonly txHash: Hash | null }> => {
  const database = new DatabaseSync(databaseUrl.slice("sqlite:".length), { readOnly: true })
  try {
    const rows = database.prepare("SELECT doc FROM swapdesk_trades").all() as Array<{ readonly doc: string }>
    return new Map(rows.map(({ doc }) => {
      const trade = JSON.parse(doc) as { readonly id: string; readonly stage: string; readonly txHash: Hash | null }
      return [trade.id, { stage: trade.stage, txHash: trade.txHash }]
    }))
  } finally {
    database.close()
  }
}

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-live-failures-"))
  devnet = await startLiveDevnet({ directory, confirmations: 2 })
  await runLiveDeploy(devnet)
  relay = await startRelay(devnet.nodes.base.anvil.rpcUrl)
  routeNetworkThrough(devnet, "base", relay.url)
  env = devnetServerEnv(devnet)
  server = await startServer(env)
}, 180_000)

afterAll(async () => {
  await stopServer(server, "SIGTERM")
  await relay?.close()
  await devnet?.stop()
}, 60_000)

describe("the live server under failure", () => {
  it(
    "killed with trades broadcast and unconfirmed, restarted, confirms each from the chain and sends nothing twice",
    async () => {
      const ethereum = chainOf("ethereum")
      const firstBlock = (await ethereum.getBlockNumber()) + 1n
      const nonceBefore = await ethereum.getTransactionCount({ address: devnet.wallet })
      const bodies = [
        { tokenIn: "USDC", tokenOut: "LINK", amountIn: "100", network: "ethereum" },
        { tokenIn: "USDC", tokenOut: "UNI", amountIn: "120", network: "ethereum" },
        { tokenIn: "USDC", tokenOut: "ETH", amountIn: "140", network: "ethereum" },
        { tokenIn: "LINK", tokenOut: "USDC", amountIn: "3", network: "ethereum" }
      ]
      const created = await Promise.all(
        bodies.map((body, i) => call("POST", "/v1/trades", { body, idempotencyKey: `restart-${i}` }))
      )
      server!.child.kill("SIGKILL")
      await server!.exited
      for (const response of created) assert.strictEqual(response.status, 201, JSON.stringify(response.json))
      const stored = storedTrades(devnet.databaseUrl)
      const trades = created.map((response) => {
        assert.strictEqual(response.json.data.status, "pending")
        const kept = stored.get(response.json.data.id)
        assert.isDefined(kept, "stored before the answer")
        assert.match(kept!.txHash ?? "", /^0x[0-9a-f]{64}$/, "broadcast before the answer")
        return { ...response.json.data, stage: kept!.stage, txHash: kept!.txHash! }
      })
      const unconfirmed = trades.filter((trade) => trade.stage === "broadcast")
      assert.isAtLeast(unconfirmed.length, 2, "several trades in flight at the kill")

      server = await startServer(env)
      for (const trade of trades) {
        const ended = await waitForEnd(trade.id)
        assert.strictEqual(ended.status, "confirmed", JSON.stringify(ended))
        assert.strictEqual(ended.txHash, trade.txHash)
        const swapped = await swappedOf("ethereum", ended.txHash)
        const decimals = ended.tokenOut === "USDC" ? 6 : 18
        assert.strictEqual(parseUnits(ended.amountOut, decimals), swapped.amountOut)
        assert.strictEqual(parseUnits(ended.fee, decimals), swapped.fee)
      }

      const repeat = await call("POST", "/v1/trades", { body: bodies[0], idempotencyKey: "restart-0" })
      assert.strictEqual(repeat.status, 201, JSON.stringify(repeat.json))
      assert.strictEqual(repeat.headers.get("idempotent-replayed"), "true")
      assert.strictEqual(repeat.json.data.id, trades[0].id)
      // Two blocks later, anything the repeat had sent would be mined.
      const afterRepeat = await ethereum.getBlockNumber()
      await waitUntil("two more blocks", async () => (await ethereum.getBlockNumber()) >= afterRepeat + 2n, {
        withinMs: 10_000,
        everyMs: 200
      })

      const lastBlock = await ethereum.getBlockNumber()
      const sent = await sentBy("ethereum", devnet.wallet, firstBlock, lastBlock)
      const nonceAfter = await ethereum.getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      assert.strictEqual(nonceAfter - nonceBefore, sent.length, "every nonce used is a transaction on chain")
      const router = routerOf("ethereum").toLowerCase()
      const swaps = sent.filter((tx) => tx.to?.toLowerCase() === router).map((tx) => tx.hash)
      assert.sameMembers(swaps, trades.map((trade) => trade.txHash), "one swap per trade, none twice")
      const listed = await call("GET", "/v1/trades?network=ethereum&limit=100")
      assert.strictEqual(listed.json.data.total, trades.length)
    },
    150_000
  )

  it(
    "killed between a key's claim and the broadcast, sends nothing and keeps the key claimed across the restart",
    async () => {
      const base = chainOf("base")
      const nonceBefore = await base.getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      await waitUntil(
        "base to be up",
        async () => (await call("GET", "/v1/health")).json.data.networks.base.rpc === "up"
      )
      const body = { tokenIn: "USDC", tokenOut: "AERO", amountIn: "50", network: "base" }
      relay.off()
      const cutShort = call("POST", "/v1/trades", { body, idempotencyKey: "cut-short" }).catch((error) => error)
      // The request holds its claim and waits on the node that stopped answering.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      server!.child.kill("SIGKILL")
      await server!.exited
      assert.instanceOf(await cutShort, Error, "the client got no answer")
      relay.on()
      server = await startServer(env)
      await waitUntil(
        "base to be up",
        async () => (await call("GET", "/v1/health")).json.data.networks.base.rpc === "up"
      )
      const repeat = await call("POST", "/v1/trades", { body, idempotencyKey: "cut-short" })
      // The claim outlives the crash: whether its request reached the chain is not known, so the
      // key is never run a second time (docs/decisions.md, "A claim cut short in live mode").
      assert.strictEqual(repeat.status, 409, JSON.stringify(repeat.json))
      assert.strictEqual(repeat.json.error.code, "IDEMPOTENCY_CONFLICT")
      assert.strictEqual((await call("GET", "/v1/trades?network=base&limit=100")).json.data.total, 0)
      const afterRepeat = await base.getBlockNumber()
      await waitUntil("two more blocks", async () => (await base.getBlockNumber()) >= afterRepeat + 2n, {
        withinMs: 10_000,
        everyMs: 200
      })
      const nonceAfter = await base.getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      assert.strictEqual(nonceAfter, nonceBefore, "nothing was broadcast")
      const other = await call("POST", "/v1/trades", { body, idempotencyKey: "after-cut-short" })
      assert.strictEqual(other.status, 201, JSON.stringify(other.json))
      assert.strictEqual((await waitForEnd(other.json.data.id)).status, "confirmed")
    },
    120_000
  )

  it(
    "answers 503 with Retry-After within seconds on a network whose node stops answering, others trade, and resumes",
    async () => {
      await waitUntil(
        "base to be up",
        async () => (await call("GET", "/v1/health")).json.data.networks.base.rpc === "up"
      )
      const inFlight = await call("POST", "/v1/trades", {
        body: { tokenIn: "USDC", tokenOut: "DEGEN", amountIn: "20", network: "base" }
      })
      assert.strictEqual(inFlight.status, 201, JSON.stringify(inFlight.json))
      const switchedOff = performance.now()
      relay.off()
      await waitUntil("base to be reported down", async () => {
        const { json } = await call("GET", "/v1/health")
        return json.data.networks.base.rpc === "down"
      }, { withinMs: 20_000, everyMs: 250 })
      const refused = await call("POST", "/v1/trades", {
        body: { tokenIn: "USDC", tokenOut: "AERO", amountIn: "10", network: "base" }
      })
      const answeredWithin = performance.now() - switchedOff
      assert.strictEqual(refused.status, 503, JSON.stringify(refused.json))
      assert.strictEqual(refused.json.error.code, "NETWORK_UNAVAILABLE")
      assert.match(refused.headers.get("retry-after") ?? "", /^[1-9][0-9]*$/)
      assert.isBelow(answeredWithin, 20_000)
      const order = await call("POST", "/v1/orders", {
        body: { tokenIn: "USDC", tokenOut: "AERO", amountIn: "10", minAmountOut: "1", network: "base" }
      })
      assert.strictEqual(order.status, 503, JSON.stringify(order.json))
      assert.strictEqual((await call("GET", `/v1/trades/${inFlight.json.data.id}`)).status, 200, "reads still answer")

      const other = await call("POST", "/v1/trades", {
        body: { tokenIn: "USDC", tokenOut: "ARB", amountIn: "10", network: "arbitrum" }
      })
      assert.strictEqual(other.status, 201, JSON.stringify(other.json))
      assert.strictEqual((await waitForEnd(other.json.data.id)).status, "confirmed")
      assert.strictEqual((await call("GET", `/v1/trades/${inFlight.json.data.id}`)).json.data.status, "pending")

      relay.on()
      const ended = await waitForEnd(inFlight.json.data.id)
      assert.strictEqual(ended.status, "confirmed", JSON.stringify(ended))
      const swapped = await swappedOf("base", ended.txHash)
      assert.strictEqual(parseUnits(ended.amountOut, 18), swapped.amountOut)
    },
    120_000
  )

  it("takes a node of another chain id at start as that network down, with no trade on it", async () => {
    const stranger = await startAnvil({ chainId: 31337 })
    const directory = mkdtempSync(join(tmpdir(), "swapdesk-live-chainid-"))
    const file = JSON.parse(readFileSync(devnet.configPath, "utf8"))
    file.networks.arbitrum.rpcUrl = stranger.rpcUrl
    const configPath = join(directory, "live.json")
    writeFileSync(configPath, JSON.stringify(file, null, 2))
    let other: Server | undefined
    try {
      other = await startServer({ ...env, LIVE_CONFIG: configPath, DATABASE_URL: `sqlite:${join(directory, "db")}` })
      const base = other.baseUrl
      await waitUntil("ethereum to be up", async () => {
        const health = await call("GET", "/v1/health", { base })
        return health.json.data.networks.ethereum.rpc === "up"
      }, { withinMs: 20_000, everyMs: 250 })
      const health = await call("GET", "/v1/health", { base })
      assert.strictEqual(health.json.data.networks.arbitrum.rpc, "down")
      assert.strictEqual(health.json.data.networks.arbitrum.chainId, 42161)
      const trade = await call("POST", "/v1/trades", {
        base,
        body: { tokenIn: "USDC", tokenOut: "ARB", amountIn: "10", network: "arbitrum" }
      })
      assert.strictEqual(trade.status, 503, JSON.stringify(trade.json))
      assert.strictEqual(trade.json.error.code, "NETWORK_UNAVAILABLE")
      const quote = await call("GET", "/v1/quote?tokenIn=USDC&tokenOut=LINK&amountIn=10&network=ethereum", { base })
      assert.strictEqual(quote.status, 200, JSON.stringify(quote.json))
      assert.strictEqual((await call("GET", "/v1/trades?network=arbitrum", { base })).json.data.total, 0)
      assert.strictEqual(
        await createPublicClient({ transport: http(stranger.rpcUrl) }).getTransactionCount({
          address: devnet.wallet
        }),
        0
      )
    } finally {
      await stopServer(other, "SIGTERM")
      await stranger.stop()
    }
  }, 60_000)
})
