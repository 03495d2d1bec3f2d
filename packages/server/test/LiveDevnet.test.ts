// Proves the live server end to end on real local nodes: the devnet (three anvil nodes with Uniswap
// V2, the demo tokens and a funded delegated wallet, `live:deploy` run on its file) and the real
// main.ts with LIVE_CONFIG in a child process on a SQLite file. `/v1/health` reports `live` and each
// network up with its head block; the quote is the exchange's own math; a delegated `POST /trades`
// reaches `confirmed` with the `amountOut` and `fee` the contract's `Swapped` event logged, and the
// wallet's balances moved on chain by exactly `amountIn` and `amountOut`. The simulator's routes are
// 404, a `sd_test_` key is 401, a key created through the API is `sd_live_`. The delegated wallet's
// key appears in no response body, no log line (debug level) and no database row, with or without
// 0x, in either case. Restarted on the same database, it keeps the trade and takes the file's keys
// again (a key given by its hash, a scope changed in the file). A node stopped: health says `down`, and quote, trade and order on it answer
// `503 NETWORK_UNAVAILABLE` with `Retry-After`, while another network still quotes.
import { swapdeskRouterAbi } from "@swapdesk/evm"
import { createHash } from "node:crypto"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type Address, createPublicClient, erc20Abi, type Hash, http, parseEventLogs, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { devnetVariables, type LiveDevnet, runLiveDeploy, startLiveDevnet } from "../src/devnet/LiveDevnet.ts"
import { devnetServerEnv, type MainServer, mainServerCall, startMainServer } from "./mainServer.ts"
import { waitUntil } from "./waitUntil.ts"

type Server = MainServer

let devnet: LiveDevnet
let server: Server
/** Every response body the tests received, for the leak check. */
const bodies: Array<string> = []

/** `main.ts` logging at debug level, with `env`. */
const startServer = (env: Record<string, string>): Promise<Server> => startMainServer({ LOG_LEVEL: "debug", ...env })

const call = mainServerCall(() => server, (body) => bodies.push(body))

const chainOf = (network: "ethereum" | "base" | "arbitrum") =>
  createPublicClient({ transport: http(devnet.nodes[network].anvil.rpcUrl) })

const tokenBalance = (network: "ethereum" | "base" | "arbitrum", symbol: string) =>
  chainOf(network).readContract({
    address: devnet.nodes[network].market.tokens[symbol]!.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [devnet.wallet]
  })

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-live-devnet-"))
  devnet = await startLiveDevnet({ directory, confirmations: 2 })
  await runLiveDeploy(devnet)
  server = await startServer(devnetServerEnv(devnet))
}, 180_000)

afterAll(async () => {
  if (server !== undefined && server.child.exitCode === null) {
    server.child.kill("SIGTERM")
    await server.exited
  }
  await devnet?.stop()
}, 60_000)

describe("the live server on the devnet", () => {
  it("reports live health with every network up", async () => {
    const { status, json } = await call("GET", "/v1/health")
    assert.strictEqual(status, 200)
    assert.strictEqual(json.data.backend, "live")
    for (const [name, chainId] of [["ethereum", 1], ["base", 8453], ["arbitrum", 42161]] as const) {
      const network = json.data.networks[name]
      assert.strictEqual(network.chainId, chainId)
      assert.strictEqual(network.rpc, "up")
      assert.isAbove(network.headBlock, 0)
      assert.strictEqual(
        network.lagBlocks,
        network.indexedBlock === null ? null : Math.max(0, network.headBlock - network.indexedBlock)
      )
      assert.strictEqual(network.lagging, network.lagBlocks === null || network.lagBlocks > 50)
    }
  })

  it("serves no simulator route, refuses test keys and creates live keys", async () => {
    assert.strictEqual((await call("GET", "/v1/sim/clock")).json.error.code, "NOT_FOUND")
    const testKey = await call("GET", "/v1/trades", { key: `sd_test_${"a".repeat(40)}` })
    assert.strictEqual(testKey.status, 401)
    const created = await call("POST", "/v1/auth/api-keys", {
      key: devnet.account.keys.all,
      body: { name: "created live", scopes: ["read"] }
    })
    assert.strictEqual(created.status, 201, JSON.stringify(created.json))
    assert.match(created.json.data.key, /^sd_live_[0-9A-Za-z]{40}$/)
    assert.strictEqual((await call("GET", "/v1/portfolio", { key: created.json.data.key })).status, 200)
  })

  it("confirms a delegated trade with what the chain logged, the balances moved on chain", async () => {
    const key = devnet.account.keys.all
    const quote = await call("GET", "/v1/quote?tokenIn=USDC&tokenOut=LINK&amountIn=250&network=ethereum", { key })
    assert.strictEqual(quote.status, 200, JSON.stringify(quote.json))
    const usdcBefore = await tokenBalance("ethereum", "USDC")
    const linkBefore = await tokenBalance("ethereum", "LINK")
    const created = await call("POST", "/v1/trades", {
      key,
      body: { tokenIn: "USDC", tokenOut: "LINK", amountIn: "250", network: "ethereum" }
    })
    assert.strictEqual(created.status, 201, JSON.stringify(created.json))
    assert.strictEqual(created.json.data.estimatedAmountOut, quote.json.data.estimatedAmountOut)
    const id = created.json.data.id as string
    let trade: any
    await waitUntil("the trade to be confirmed", async () => {
      trade = (await call("GET", `/v1/trades/${id}`, { key })).json.data
      return trade.status === "confirmed" || trade.status === "failed"
    }, { withinMs: 60_000, everyMs: 250 })
    assert.strictEqual(trade.status, "confirmed", JSON.stringify(trade))
    const receipt = await chainOf("ethereum").getTransactionReceipt({ hash: trade.txHash as Hash })
    const config = JSON.parse(readFileSync(devnet.configPath, "utf8"))
    const router = config.networks.ethereum.contracts.swapdeskRouter as Address
    const [swapped] = parseEventLogs({
      abi: swapdeskRouterAbi,
      logs: receipt.logs.filter((log) => log.address.toLowerCase() === router.toLowerCase()),
      eventName: "Swapped"
    })
    assert.isDefined(swapped)
    const decimals = 18
    assert.strictEqual(parseUnits(trade.amountOut, decimals), swapped!.args.amountOut)
    assert.strictEqual(parseUnits(trade.fee, decimals), swapped!.args.fee)
    assert.strictEqual(swapped!.args.amountIn, parseUnits("250", 6))
    assert.strictEqual(usdcBefore - (await tokenBalance("ethereum", "USDC")), parseUnits("250", 6))
    assert.strictEqual((await tokenBalance("ethereum", "LINK")) - linkBefore, swapped!.args.amountOut)
  }, 90_000)

  it("never writes the delegated wallet's key: no response body, log line or database row holds it", async () => {
    const key = devnet.env[devnetVariables.wallet]!.toLowerCase()
    const forms = [key, key.slice(2)]
    const rows: Array<string> = []
    const database = new DatabaseSync(devnet.databaseUrl.slice("sqlite:".length), { readOnly: true })
    try {
      const tables = database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<
        { readonly name: string }
      >
      assert.isAbove(tables.length, 3)
      for (const { name } of tables) {
        for (const row of database.prepare(`SELECT * FROM "${name}"`).all()) rows.push(JSON.stringify(row))
      }
    } finally {
      database.close()
    }
    assert.isTrue(rows.some((row) => row.includes("trd_")), "the trade's row is among those searched")
    assert.isAbove(bodies.length, 5)
    assert.include(server.output(), "\"level\":\"DEBUG\"")
    for (const [where, texts] of [["responses", bodies], ["logs", [server.output()]], ["rows", rows]] as const) {
      for (const text of texts) {
        for (const form of forms) assert.notInclude(text.toLowerCase(), form, `the key leaked into ${where}`)
      }
    }
    assert.notInclude(readFileSync(devnet.configPath, "utf8").toLowerCase(), key.slice(2))
  })

  it(
    "restarted on its database, keeps its trades and takes the file's keys again, a hashed one and new scopes included",
    async () => {
      const key = devnet.account.keys.all
      const before = await call("GET", "/v1/trades", { key })
      assert.strictEqual(before.json.data.total, 1)
      const hashed = `sd_live_${"H4sh".repeat(10)}`
      const file = JSON.parse(readFileSync(devnet.configPath, "utf8"))
      file.accounts[0].apiKeys.push({
        name: "by hash",
        keyHash: createHash("sha256").update(hashed).digest("hex"),
        scopes: ["read"]
      })
      file.accounts[0].apiKeys[1].scopes = ["read", "alerts"]
      writeFileSync(devnet.configPath, JSON.stringify(file, null, 2))
      server.child.kill("SIGTERM")
      assert.strictEqual(await server.exited, 0)
      server = await startServer(devnetServerEnv(devnet))
      const after = await call("GET", "/v1/trades", { key })
      assert.strictEqual(after.json.data.total, 1)
      assert.deepStrictEqual(after.json.data.trades[0], before.json.data.trades[0])
      assert.strictEqual((await call("GET", "/v1/portfolio", { key: hashed })).status, 200)
      assert.strictEqual((await call("GET", "/v1/alerts", { key: devnet.account.keys.read })).status, 200)
      const keys = await call("GET", "/v1/auth/api-keys", { key })
      const names = keys.json.data.keys.map((k: { readonly name: string }) => k.name)
      assert.sameMembers(names, ["devnet: all scopes", "devnet: read only", "created live", "by hash"])
    },
    60_000
  )

  it(
    "answers 503 NETWORK_UNAVAILABLE with Retry-After on a network whose node stopped, others still quote",
    async () => {
      const key = devnet.account.keys.all
      await devnet.nodes.base.anvil.stop()
      await waitUntil("base to be reported down", async () => {
        const { json } = await call("GET", "/v1/health")
        return json.data.networks.base.rpc === "down"
      }, { withinMs: 30_000, everyMs: 250 })
      const quote = await call("GET", "/v1/quote?tokenIn=USDC&tokenOut=ETH&amountIn=10&network=base", { key })
      assert.strictEqual(quote.status, 503, JSON.stringify(quote.json))
      assert.strictEqual(quote.json.error.code, "NETWORK_UNAVAILABLE")
      assert.match(quote.headers.get("retry-after") ?? "", /^[1-9][0-9]*$/)
      const trade = await call("POST", "/v1/trades", {
        key,
        body: { tokenIn: "USDC", tokenOut: "ETH", amountIn: "10", network: "base" }
      })
      assert.strictEqual(trade.status, 503, JSON.stringify(trade.json))
      assert.strictEqual(trade.json.error.code, "NETWORK_UNAVAILABLE")
      const order = await call("POST", "/v1/orders", {
        key,
        body: { tokenIn: "USDC", tokenOut: "ETH", amountIn: "10", minAmountOut: "0.01", network: "base" }
      })
      assert.strictEqual(order.status, 503, JSON.stringify(order.json))
      assert.strictEqual(order.json.error.code, "NETWORK_UNAVAILABLE")
      const other = await call("GET", "/v1/quote?tokenIn=USDC&tokenOut=ETH&amountIn=10&network=arbitrum", { key })
      assert.strictEqual(other.status, 200, JSON.stringify(other.json))
    },
    60_000
  )
})
