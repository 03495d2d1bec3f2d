// Proves that a live server killed (`kill -9`) while a delegated trade's transactions are on their
// way to the node leaves nothing on chain that its store does not know, on the devnet (anvil nodes
// mining a block every second, 2 confirmations) with the real main.ts in a child process on a SQLite
// file. Ethereum's node sits behind a JSON-RPC relay of the test that holds `eth_sendRawTransaction`
// calls: forwarded to the node and never answered (the swap reached the chain, the server never
// heard back), or never forwarded (it did not). Killed then and restarted on the same database, the
// trade stored as broadcast before the send is followed by its hash: the swap that reached the chain
// confirms with the gas of the ERC-20 approval sent with it in `gasFee`; the one that did not fails
// `NETWORK_ERROR` after the drop grace (`LIVE_DROP_GRACE_SECONDS`, 3 s here), and the next trade
// reuses its nonce. Each time the wallet's nonce on chain equals the transactions the chain holds
// from it.
import { mkdtempSync } from "node:fs"
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type Address, createPublicClient, type Hash, http, parseUnits } from "viem"
import { afterAll, assert, beforeAll, describe, it } from "vitest"
import { type LiveDevnet, runLiveDeploy, startLiveDevnet } from "../src/devnet/LiveDevnet.ts"
import { devnetServerEnv, type MainServer, routeNetworkThrough, startMainServer, stopMainServer } from "./mainServer.ts"
import { waitUntil } from "./waitUntil.ts"

type Server = MainServer

const startServer = startMainServer

const kill = async (server: Server) => {
  server.child.kill("SIGKILL")
  await server.exited
}

/** A request's body. */
const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => resolve(body))
  })

/** What happens to `eth_sendRawTransaction` calls past the first `answered` ones. */
type HeldSends = "forward" | "swallow"

/**
 * A JSON-RPC relay in front of a node: it forwards every call and its answer, except the sends
 * it is told to hold, which it forwards unanswered (`forward`) or drops (`swallow`).
 */
const startRpcRelay = async (target: string) => {
  let answered = Number.POSITIVE_INFINITY
  let held: HeldSends = "forward"
  let sends = 0
  const forward = (body: string) =>
    fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body })
  const server: HttpServer = createServer((request: IncomingMessage, response: ServerResponse) => {
    void read(request).then(async (body) => {
      if (body.includes("eth_sendRawTransaction")) {
        sends += 1
        if (sends > answered) {
          if (held === "forward") await forward(body).then((r) => r.text())
          return
        }
      }
      const answer = await forward(body)
      response.writeHead(answer.status, { "content-type": "application/json" })
      response.end(await answer.text())
    }).catch(() => response.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { readonly port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    sends: () => sends,
    /** Answers `more` further sends, then holds the next ones as `how` says. */
    hold: (more: number, how: HeldSends) => {
      answered = sends + more
      held = how
    },
    answerAll: () => {
      answered = Number.POSITIVE_INFINITY
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

let devnet: LiveDevnet
let relay: Awaited<ReturnType<typeof startRpcRelay>>
let server: Server | undefined
let env: Record<string, string>

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(server!.baseUrl + path, {
    method,
    headers: {
      // Closed after the answer: a server stopped by a signal waits for idle connections to close.
      connection: "close",
      authorization: `Bearer ${devnet.account.keys.all}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, json: JSON.parse(await response.text()) as any }
}

const ethereum = () => createPublicClient({ transport: http(devnet.nodes.ethereum.anvil.rpcUrl) })

/** Every transaction the wallet sent in blocks `from`..`to`. */
const sentBy = async (wallet: Address, from: bigint, to: bigint) => {
  const sent: Array<Hash> = []
  for (let number = from; number <= to; number++) {
    const block = await ethereum().getBlock({ blockNumber: number, includeTransactions: true })
    for (const tx of block.transactions) if (tx.from.toLowerCase() === wallet.toLowerCase()) sent.push(tx.hash)
  }
  return sent
}

/** The one trade the database holds besides `known`, as stored. */
const storedTrade = (known: ReadonlySet<string>) => {
  const database = new DatabaseSync(devnet.databaseUrl.slice("sqlite:".length), { readOnly: true })
  try {
    const rows = database.prepare("SELECT doc FROM swapdesk_trades").all() as Array<{ readonly doc: string }>
    const trades = rows.map(({ doc }) =>
      JSON.parse(doc) as {
        readonly id: string
        readonly stage: string
        readonly txHash: Hash | null
        readonly approvalTxHash?: Hash
      }
    ).filter((trade) => !known.has(trade.id))
    assert.lengthOf(trades, 1, "the trade in flight is stored")
    return trades[0]!
  } finally {
    database.close()
  }
}

const waitForEnd = async (id: string) => {
  let trade: any
  await waitUntil(`trade ${id} to end`, async () => {
    trade = (await call("GET", `/v1/trades/${id}`)).json.data
    return trade.status === "confirmed" || trade.status === "failed"
  }, { withinMs: 90_000, everyMs: 250 })
  return trade
}

const gasOf = async (hash: Hash) => {
  const receipt = await ethereum().getTransactionReceipt({ hash })
  return receipt.gasUsed * receipt.effectiveGasPrice
}

const seen = new Set<string>()

beforeAll(async () => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-live-midsend-"))
  devnet = await startLiveDevnet({ directory, confirmations: 2 })
  await runLiveDeploy(devnet)
  relay = await startRpcRelay(devnet.nodes.ethereum.anvil.rpcUrl)
  routeNetworkThrough(devnet, "ethereum", relay.url)
  // A swap the node never saw fails after the drop grace: 3 s rather than 30, the node here being
  // the one the server sends to (no load balancer between them).
  env = { ...devnetServerEnv(devnet), LIVE_DROP_GRACE_SECONDS: "3" }
  server = await startServer(env)
}, 180_000)

afterAll(async () => {
  await stopMainServer(server, "SIGTERM")
  await relay?.close()
  await devnet?.stop()
}, 60_000)

describe("the live server killed while sending", () => {
  it(
    "killed with its swap sent and unanswered, restarted, confirms the stored trade with the approval's gas in gasFee",
    async () => {
      const firstBlock = (await ethereum().getBlockNumber()) + 1n
      const nonceBefore = await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      // The wallet has never approved USDC: the approval is answered, the swap after it is not.
      relay.hold(1, "forward")
      const before = relay.sends()
      const cutShort = call("POST", "/v1/trades", {
        tokenIn: "USDC",
        tokenOut: "LINK",
        amountIn: "100",
        network: "ethereum"
      }).catch((error) => error)
      await waitUntil("the swap to be sent", () => relay.sends() >= before + 2, { withinMs: 30_000 })
      await waitUntil(
        "the swap to reach the node",
        async () =>
          (await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" })) >= nonceBefore + 2
      )
      await kill(server!)
      assert.instanceOf(await cutShort, Error, "the client got no answer")
      const stored = storedTrade(seen)
      seen.add(stored.id)
      assert.strictEqual(stored.stage, "broadcast", "stored as broadcast before the send")
      assert.match(stored.txHash ?? "", /^0x[0-9a-f]{64}$/)
      assert.match(stored.approvalTxHash ?? "", /^0x[0-9a-f]{64}$/, "the approval kept with the trade")

      relay.answerAll()
      server = await startServer(env)
      const ended = await waitForEnd(stored.id)
      assert.strictEqual(ended.status, "confirmed", JSON.stringify(ended))
      assert.strictEqual(ended.txHash, stored.txHash)
      const paid = (await gasOf(stored.approvalTxHash!)) + (await gasOf(stored.txHash!))
      assert.strictEqual(parseUnits(ended.gasFee, 18), paid, "the approval's gas and the swap's")

      const sent = await sentBy(devnet.wallet, firstBlock, await ethereum().getBlockNumber())
      const nonceAfter = await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      assert.strictEqual(nonceAfter - nonceBefore, sent.length, "every nonce used is a transaction on chain")
      assert.sameMembers(sent, [stored.approvalTxHash!, stored.txHash!], "the approval and the swap, once each")
    },
    180_000
  )

  it(
    "killed with its swap never delivered, restarted, fails the stored trade NETWORK_ERROR and reuses its nonce",
    async () => {
      const firstBlock = (await ethereum().getBlockNumber()) + 1n
      const nonceBefore = await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      relay.hold(0, "swallow")
      const before = relay.sends()
      const cutShort = call("POST", "/v1/trades", {
        tokenIn: "USDC",
        tokenOut: "UNI",
        amountIn: "50",
        network: "ethereum"
      }).catch((error) => error)
      await waitUntil("the swap to be sent", () => relay.sends() >= before + 1, { withinMs: 30_000 })
      await kill(server!)
      assert.instanceOf(await cutShort, Error, "the client got no answer")
      const stored = storedTrade(seen)
      seen.add(stored.id)
      assert.strictEqual(stored.stage, "broadcast")
      assert.isUndefined(stored.approvalTxHash, "USDC is approved already")

      relay.answerAll()
      server = await startServer(env)
      const ended = await waitForEnd(stored.id)
      assert.strictEqual(ended.status, "failed", JSON.stringify(ended))
      assert.strictEqual(ended.failureReason, "NETWORK_ERROR")
      assert.strictEqual(ended.txHash, stored.txHash)
      assert.strictEqual(
        await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" }),
        nonceBefore,
        "nothing reached the chain"
      )

      const next = await call("POST", "/v1/trades", {
        tokenIn: "USDC",
        tokenOut: "UNI",
        amountIn: "50",
        network: "ethereum"
      })
      assert.strictEqual(next.status, 201, JSON.stringify(next.json))
      seen.add(next.json.data.id)
      const confirmed = await waitForEnd(next.json.data.id)
      assert.strictEqual(confirmed.status, "confirmed", "the wallet trades on after the dropped swap")
      const sent = await sentBy(devnet.wallet, firstBlock, await ethereum().getBlockNumber())
      assert.deepStrictEqual(sent, [confirmed.txHash], "only the next trade's swap is on chain")
      const nonceAfter = await ethereum().getTransactionCount({ address: devnet.wallet, blockTag: "pending" })
      assert.strictEqual(nonceAfter - nonceBefore, 1)
    },
    180_000
  )
})
