/**
 * The live benchmark: the live server (`main.ts` with `LIVE_CONFIG`, a SQLite file) on the devnet's
 * ethereum node, which mines a block every second, trades confirmed at 2 confirmations.
 *
 * - Latency: `runs` delegated trades one after another, each timed from `POST /trades` until a read
 *   answers `confirmed`, beside the chain's floor measured in the same run: from a moment as random
 *   as a trade's until the node's head is two blocks further (the block that includes a
 *   transaction sent then, and the one on top of it). Target: median latency ≤ floor + 1 s.
 * - Throughput: 20 accounts, each with its own delegated wallet on ethereum, create trades as fast
 *   as the server answers for `seconds`; the figure is created trades per second, beside one wallet
 *   doing the same in the same run, and every trade is then followed to its end.
 *
 * The server reaches the node through a local relay that holds every chunk `rpcDelayMs` each way,
 * as a node across a network would (a node on the same machine answers in well under a
 * millisecond, which hides any waiting on RPC calls); the floor is read from the node directly.
 *
 * Run alone with `node scripts/bench/live.ts`, or through `pnpm bench live`.
 */
import { devAccount, devnetClient, mintDemoToken } from "@swapdesk/evm/devnet"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runLiveDeploy, startLiveDevnet } from "../../packages/server/src/devnet/LiveDevnet.ts"
import { randomBase62 } from "../../packages/server/src/live/RandomIds.ts"
import { type MainServer, startMainServer } from "./MainServer.ts"
import { atMost, type BenchResult, formatMs, formatRatio, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "live"
const { progress, row } = reporter(BENCHMARK)
const WALLETS = 20
/** The devnet's first development accounts are its own; the bench's wallets come after them. */
const FIRST_WALLET_ACCOUNT = 10

export interface LiveBenchOptions {
  /** Trades timed one after another for the latency. */
  readonly runs: number
  /** How long each throughput phase lasts. */
  readonly seconds: number
  /** How long the relay holds each chunk between the server and the node, each way. */
  readonly rpcDelayMs: number
}

/** A TCP relay in front of the node `target` that delivers every chunk `delayMs` late, in order. */
const startDelayRelay = async (target: string, delayMs: number) => {
  const url = new URL(target)
  const sockets = new Set<Socket>()
  const forward = (from: Socket, to: Socket) => {
    from.on("data", (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs))
    from.on("end", () => setTimeout(() => to.destroyed || to.end(), delayMs))
  }
  const server = createServer((client) => {
    const upstream = connect(Number(url.port), url.hostname)
    const pair = [client, upstream] as const
    for (const socket of pair) {
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
      socket.on("error", () => pair.forEach((s) => s.destroy()))
    }
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { readonly port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

const call = async (baseUrl: string, key: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, json: (await response.json()) as any }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

const rpc = async (url: string, method: string, params: ReadonlyArray<unknown>) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  return ((await response.json()) as { readonly result: unknown }).result
}

/** The private key of a development account (anvil's well-known mnemonic: public knowledge). */
const devKey = (index: number): string => {
  const account = devAccount(index) as unknown as { readonly getHdKey: () => { readonly privateKey: Uint8Array } }
  return `0x${Buffer.from(account.getHdKey().privateKey).toString("hex")}`
}

/** A trade is small enough that every wallet can make hundreds. */
const tradeBody = { tokenIn: "USDC", tokenOut: "LINK", amountIn: "1", network: "ethereum" }

/** Polls the trade until it ends; its end as a read sees it, and when. */
const untilEnded = async (baseUrl: string, key: string, id: string, everyMs: number) => {
  for (;;) {
    const { json } = await call(baseUrl, key, "GET", `/v1/trades/${id}`)
    const status = json.data?.status as string | undefined
    if (status === "confirmed" || status === "failed") return { status, at: performance.now() }
    await sleep(everyMs)
  }
}

/** Creates trades from one account back to back until `until`; the ids created and the refusals. */
const createUntil = async (baseUrl: string, key: string, until: number) => {
  const ids: Array<string> = []
  const refusals = new Map<number, number>()
  while (performance.now() < until) {
    const { status, json } = await call(baseUrl, key, "POST", "/v1/trades", tradeBody)
    if (status === 201) ids.push(json.data.id)
    else {
      refusals.set(status, (refusals.get(status) ?? 0) + 1)
      await sleep(100)
    }
  }
  return { ids, refusals }
}

const throughput = async (baseUrl: string, keys: ReadonlyArray<string>, seconds: number) => {
  const started = performance.now()
  const results = await Promise.all(keys.map((key) => createUntil(baseUrl, key, started + seconds * 1_000)))
  const elapsed = (performance.now() - started) / 1_000
  const created = results.reduce((sum, result) => sum + result.ids.length, 0)
  const refusals = new Map<number, number>()
  for (const result of results) {
    for (const [status, count] of result.refusals) refusals.set(status, (refusals.get(status) ?? 0) + count)
  }
  return { perSecond: created / elapsed, created, refusals, results }
}

export const runLiveBench = async (options: LiveBenchOptions): Promise<BenchResult> => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-bench-live-"))
  progress(`starting the devnet`)
  const devnet = await startLiveDevnet({ directory, confirmations: 2 })
  let server: MainServer | undefined
  const relay = await startDelayRelay(devnet.nodes.ethereum.anvil.rpcUrl, options.rpcDelayMs)
  try {
    await runLiveDeploy(devnet)
    const { anvil, market } = devnet.nodes.ethereum
    progress(`funding ${WALLETS} delegated wallets`)
    const owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
    const wallets = Array.from({ length: WALLETS }, (_, i) => ({
      id: `acct_bench_${i}`,
      key: `sd_live_${randomBase62(40)}`,
      address: devAccount(FIRST_WALLET_ACCOUNT + i).address,
      signingKey: devKey(FIRST_WALLET_ACCOUNT + i),
      env: `SWAPDESK_BENCH_WALLET_${i}`
    }))
    for (const wallet of wallets) {
      await rpc(anvil.rpcUrl, "anvil_setBalance", [wallet.address, "0x3635c9adc5dea00000"])
      await mintDemoToken(owner, market.tokens["USDC"]!.address, wallet.address, 1_000_000n * 10n ** 6n)
    }
    const file = JSON.parse(readFileSync(devnet.configPath, "utf8"))
    file.networks.ethereum.rpcUrl = relay.url
    for (const wallet of wallets) {
      file.accounts.push({
        id: wallet.id,
        plan: "pro",
        apiKeys: [{ name: "bench", key: wallet.key, scopes: ["read", "trade"] }],
        wallets: [{ network: "ethereum", address: wallet.address, signingKeyEnv: wallet.env }]
      })
    }
    writeFileSync(devnet.configPath, JSON.stringify(file, null, 2))
    server = await startMainServer({
      LOG_LEVEL: "warn",
      ...devnet.env,
      ...Object.fromEntries(wallets.map((wallet) => [wallet.env, wallet.signingKey])),
      LIVE_CONFIG: devnet.configPath,
      DATABASE_URL: devnet.databaseUrl
    })
    const baseUrl = server.baseUrl
    const keys = wallets.map((wallet) => wallet.key)

    // The first trade of each wallet also approves the router: out of the timings.
    progress(`first trade of each wallet (its approval)`)
    const firsts = await Promise.all(keys.map((key) => call(baseUrl, key, "POST", "/v1/trades", tradeBody)))
    await Promise.all(firsts.map((first, i) => untilEnded(baseUrl, keys[i]!, first.json.data.id, 250)))

    progress(`latency of ${options.runs} trades, beside the chain's floor`)
    const latencies: Array<number> = []
    const floors: Array<number> = []
    for (let run = 0; run < options.runs; run++) {
      // A moment unrelated to the block boundaries.
      await sleep(137 * run % 1_000)
      const head = BigInt(await rpc(anvil.rpcUrl, "eth_blockNumber", []) as string)
      const floorStarted = performance.now()
      while (BigInt(await rpc(anvil.rpcUrl, "eth_blockNumber", []) as string) < head + 2n) await sleep(10)
      floors.push(performance.now() - floorStarted)

      await sleep(137 * run % 1_000)
      const started = performance.now()
      const created = await call(baseUrl, keys[0]!, "POST", "/v1/trades", tradeBody)
      if (created.status !== 201) throw new Error(`POST /trades: ${created.status} ${JSON.stringify(created.json)}`)
      const ended = await untilEnded(baseUrl, keys[0]!, created.json.data.id, 100)
      if (ended.status !== "confirmed") throw new Error(`trade ${created.json.data.id} ${ended.status}`)
      latencies.push(ended.at - started)
    }

    progress(`one wallet creating trades for ${options.seconds} s`)
    const one = await throughput(baseUrl, keys.slice(0, 1), options.seconds)
    progress(`${WALLETS} wallets creating trades for ${options.seconds} s`)
    const many = await throughput(baseUrl, keys, options.seconds)
    progress(`following the ${one.created + many.created} trades to their end`)
    const ends = new Map<string, number>()
    for (const phase of [one, many]) {
      await Promise.all(phase.results.map(async (result, i) => {
        const key = phase === one ? keys[0]! : keys[i]!
        for (const id of result.ids) {
          const { status } = await untilEnded(baseUrl, key, id, 500)
          ends.set(status, (ends.get(status) ?? 0) + 1)
        }
      }))
    }

    const latencyMedian = median(latencies)
    const floorMedian = median(floors)
    const rows = [
      row("chain floor, 2 blocks (median)", formatMs(floorMedian)),
      row("POST /trades -> confirmed (median)", formatMs(latencyMedian), {
        value: latencyMedian - floorMedian,
        target: atMost(1_000, "<= floor + 1 s")
      }),
      row("POST /trades -> confirmed (p90)", formatMs(percentile(latencies, 90))),
      row("latency / floor (median)", formatRatio(latencyMedian / floorMedian)),
      row("trades/s, 1 delegated wallet", one.perSecond.toFixed(1)),
      row(`trades/s, ${WALLETS} delegated wallets`, many.perSecond.toFixed(1)),
      row(`${WALLETS} wallets / 1 wallet`, formatRatio(many.perSecond / one.perSecond))
    ]
    const refused = [...many.refusals, ...one.refusals].map(([status, count]) => `${count} x ${status}`)
    return {
      rows,
      notes: [
        `${BENCHMARK}: RPC round trip +${
          2 * options.rpcDelayMs
        } ms (relay); ${latencies.length} trades timed, polled every 100 ms; ${one.created} + ${many.created} trades created in the throughput phases, ended ${
          [...ends].map(([status, count]) => `${count} ${status}`).join(", ")
        }${refused.length === 0 ? "" : `; refused ${refused.join(", ")}`}`
      ]
    }
  } finally {
    if (server !== undefined) {
      server.child.kill("SIGTERM")
      await server.exited
    }
    await relay.close()
    await devnet.stop()
    rmSync(directory, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printResult(await runLiveBench({ runs: 15, seconds: 15, rpcDelayMs: 25 }))
}
