/**
 * The chain index benchmark: an anvil node with Uniswap V2 and a LINK/USDC pool, `swaps` router
 * swaps (100 000 by default; `SWAPDESK_BENCH_INDEXER_SWAPS` changes it) sent in JSON-RPC batches
 * with automine off and mined `perBlock` to a block, the blocks spread over a year of block time
 * (the last ten over its last day). The index is built from scratch into a SQLite file, timed from
 * start to the last confirmed block, beside the same node's raw `eth_getLogs` throughput for the
 * same filter (the pool's and the tokens' logs) over the same blocks, in the same run. Then the
 * chart read (1 500 one-hour and 1 500 one-minute candles ending at the head) on that year-old index
 * against the same read on an index of the last day only (`startBlock` at the day's first block),
 * printed with their ratio.
 *
 * Run alone with `node scripts/bench/indexer.ts`, or through `pnpm bench indexer`.
 */
import { MoneyDecimal, PriceFeed } from "@swapdesk/core"
import { decodeLiveConfig, type LiveConfig } from "@swapdesk/evm"
import {
  deployDemoMarket,
  devAccount,
  devnetClient,
  mintDemoToken,
  startAnvil,
  uniswapV2RouterAbi
} from "@swapdesk/evm/devnet"
import { ChainIndex, layerChainIndex, makeIndexedPriceFeed } from "@swapdesk/evm/indexer"
import { liveTokensOf, makeLivePriceFeed, makeLiveState } from "@swapdesk/evm/live"
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { encodeFunctionData, erc20Abi, maxUint256, numberToHex, parseUnits, toEventSelector } from "viem"
import { atLeast, type BenchResult, formatCount, formatMs, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "indexer"
const { progress, row } = reporter(BENCHMARK)
const YEAR_S = 365 * 86_400
const DAY_S = 86_400
const readMs = (ms: number) => `${ms.toFixed(2)} ms`

export interface IndexerBenchOptions {
  readonly swaps: number
  readonly perBlock: number
}

export const defaultIndexerOptions: IndexerBenchOptions = {
  swaps: Number(process.env["SWAPDESK_BENCH_INDEXER_SWAPS"] ?? 100_000),
  perBlock: 1_000
}

const rpc = async (url: string, body: unknown) => {
  const answer = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json = await answer.json() as any
  const failed = (Array.isArray(json) ? json : [json]).find((r: any) => r.error !== undefined)
  if (failed !== undefined) throw new Error(`${JSON.stringify(failed.error)}`)
  return Array.isArray(json) ? json.map((r: any) => r.result) : json.result
}

export const runIndexerBench = async (options: IndexerBenchOptions = defaultIndexerOptions): Promise<BenchResult> => {
  const dir = mkdtempSync(join(tmpdir(), "swapdesk-bench-indexer-"))
  const anvil = await startAnvil({ chainId: 1 })
  try {
    const owner = devnetClient(anvil.rpcUrl, 1, devAccount(0))
    const market = await deployDemoMarket(owner, {
      quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
      ethPrice: "3000",
      depth: 10_000_000n,
      tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
    })
    const usdc = market.tokens["USDC"]!.address
    const link = market.tokens["LINK"]!.address
    const from = owner.account.address
    await mintDemoToken(owner, usdc, from, parseUnits("1000000000", 6))
    await mintDemoToken(owner, link, from, parseUnits("100000000", 18))
    for (const token of [usdc, link]) {
      await owner.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [market.uniswap.router, maxUint256]
      })
    }
    await rpc(anvil.rpcUrl, {
      jsonrpc: "2.0",
      id: 1,
      method: "evm_setBlockGasLimit",
      params: [numberToHex(2_000_000_000n)]
    })
    await rpc(anvil.rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [false] })

    // Alternate buys and sells of about 10 USD, so the price stays near 14.5 over the whole run.
    const buy = encodeFunctionData({
      abi: uniswapV2RouterAbi,
      functionName: "swapExactTokensForTokens",
      args: [parseUnits("10", 6), 0n, [usdc, link], from, 2n ** 48n]
    })
    const sell = encodeFunctionData({
      abi: uniswapV2RouterAbi,
      functionName: "swapExactTokensForTokens",
      args: [parseUnits("0.69", 18), 0n, [link, usdc], from, 2n ** 48n]
    })
    let nonce = await owner.getTransactionCount({ address: from, blockTag: "pending" })
    const blocks = Math.ceil(options.swaps / options.perBlock)
    const latest = Number((await owner.getBlock()).timestamp)
    const yearBlocks = Math.max(1, blocks - 10)
    const firstBlock = Number(await owner.getBlockNumber()) + 1
    let dayStartBlock = firstBlock
    const started = performance.now()
    for (let b = 0; b < blocks; b++) {
      const count = Math.min(options.perBlock, options.swaps - b * options.perBlock)
      const calls = Array.from({ length: count }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "eth_sendTransaction",
        params: [{
          from,
          to: market.uniswap.router,
          data: (nonce + i) % 2 === 0 ? buy : sell,
          gas: numberToHex(200_000),
          nonce: numberToHex(nonce + i)
        }]
      }))
      nonce += count
      for (let i = 0; i < calls.length; i += 500) await rpc(anvil.rpcUrl, calls.slice(i, i + 500))
      // A year of block time, the last ten blocks over its last day.
      const at = b < yearBlocks
        ? latest + Math.round(((b + 1) * (YEAR_S - DAY_S)) / yearBlocks)
        : latest + YEAR_S - DAY_S + Math.round(((b - yearBlocks + 1) * DAY_S) / 10)
      if (b === yearBlocks) dayStartBlock = firstBlock + b
      await rpc(anvil.rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [at] })
      progress(`${formatCount((b + 1) * options.perBlock)} swaps mined`)
    }
    await rpc(anvil.rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_setAutomine", params: [true] })
    await rpc(anvil.rpcUrl, { jsonrpc: "2.0", id: 1, method: "evm_mine", params: [] })
    const mineMs = performance.now() - started
    const head = await owner.getBlockNumber()

    const configFrom = (startBlock: number): LiveConfig =>
      decodeLiveConfig({
        networks: {
          ethereum: {
            rpcUrl: anvil.rpcUrl,
            chainId: 1,
            confirmations: 1,
            startBlock,
            dex: { kind: "uniswap-v2", ...market.uniswap },
            quoteToken: "USDC",
            feeRecipient: devAccount(3).address,
            executorKeyEnv: "SWAPDESK_EXECUTOR_KEY",
            tokens: [
              { symbol: "USDC", address: usdc, decimals: 6 },
              { symbol: "WETH", address: market.uniswap.weth, decimals: 18 },
              { symbol: "LINK", address: link, decimals: 18 }
            ]
          }
        },
        accounts: [{ id: "acct_bench", wallets: [] }]
      })

    // The raw throughput: the indexer's filter over the same blocks, 2 blocks a call, nothing stored.
    const pairs = [market.pairs["LINK"]!, market.pairs["WETH"]!]
    const topics = [[
      toEventSelector(
        "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
      ),
      toEventSelector("event Sync(uint112 reserve0, uint112 reserve1)"),
      toEventSelector("event Transfer(address indexed from, address indexed to, uint256 value)")
    ]]
    const swapTopic = topics[0]![0]!
    const rawStarted = performance.now()
    let rawSwaps = 0
    for (let b = BigInt(firstBlock); b <= head; b += 2n) {
      const logs = await rpc(anvil.rpcUrl, {
        jsonrpc: "2.0",
        id: 1,
        method: "eth_getLogs",
        params: [{
          fromBlock: numberToHex(b),
          toBlock: numberToHex(b + 1n),
          address: [...pairs, usdc, link, market.uniswap.weth],
          topics
        }]
      }) as Array<{ topics: Array<string> }>
      rawSwaps += logs.filter((l) => l.topics[0] === swapTopic).length
    }
    const rawMs = performance.now() - rawStarted

    const indexRun = async (config: LiveConfig, name: string) => {
      const url = `sqlite:${join(dir, `${name}.db`)}`
      const runtime = ManagedRuntime.make(
        Layer.effect(
          PriceFeed,
          Effect.gen(function*() {
            const index = yield* ChainIndex
            const spot = makeLivePriceFeed(makeLiveState(config, []), liveTokensOf(config))
            return yield* makeIndexedPriceFeed(config, index, spot, { trendingIntervalMs: 3_600_000 })
          })
        ).pipe(
          Layer.provideMerge(layerChainIndex(config, { pollIntervalMs: 10 })),
          Layer.provideMerge(Layer.orDie(SqlStore.layerClient(SqlStore.parseDatabaseUrl(url))))
        )
      )
      const t = performance.now()
      const index = await runtime.runPromise(Effect.gen(function*() {
        return yield* ChainIndex
      }))
      while (true) {
        const [status] = await runtime.runPromise(index.networks)
        if (status!.indexedBlock !== null && BigInt(status!.indexedBlock) >= head) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const ms = performance.now() - t
      const swaps = await runtime.runPromise(Effect.orDie(index.store.swapCount("ethereum")))
      const headMs = index.stateOf("ethereum")!.headTime!
      const reads = async (timeframe: "1h" | "1m", stepMs: number) => {
        const times: Array<number> = []
        const to = Math.floor(headMs / stepMs) * stepMs + stepMs
        for (let i = 0; i < 30; i++) {
          const s = performance.now()
          await runtime.runPromise(PriceFeed.use((feed) => feed.candles("LINK", timeframe, to - 1500 * stepMs, to)))
          times.push(performance.now() - s)
        }
        return median(times)
      }
      const chart1h = await reads("1h", 3_600_000)
      const chart1m = await reads("1m", 60_000)
      const stats = await runtime.runPromise(PriceFeed.use((feed) => feed.stats("LINK")))
      await runtime.dispose()
      return { ms, swaps, chart1h, chart1m, volume24h: new MoneyDecimal(stats.volume24hUsd) }
    }

    progress("indexing a year of swaps")
    const year = await indexRun(configFrom(firstBlock), "year")
    progress("indexing the last day")
    const day = await indexRun(configFrom(dayStartBlock), "day")
    if (year.swaps !== options.swaps || rawSwaps !== options.swaps) {
      throw new Error(`indexed ${year.swaps} and read ${rawSwaps} swaps of ${options.swaps}`)
    }
    const indexRate = year.swaps / (year.ms / 1_000)
    const rawRate = rawSwaps / (rawMs / 1_000)
    const ratio = indexRate / rawRate
    console.log(
      `indexer: ${formatCount(year.swaps)} swaps indexed at ${formatCount(indexRate)}/s, raw getLogs ${
        formatCount(rawRate)
      }/s, ratio ${ratio.toFixed(2)}`
    )
    // The chart read's cost against the index's age: the same reads on an index of the last day only.
    const chartRatio1h = year.chart1h / day.chart1h
    const chartRatio1m = year.chart1m / day.chart1m
    console.log(
      `indexer: chart read on the ${formatCount(year.swaps)}-swap index against a 1-day one: 1 500 1h candles ${
        readMs(year.chart1h)
      } vs ${readMs(day.chart1h)} (ratio ${chartRatio1h.toFixed(2)}), 1 500 1m candles ${readMs(year.chart1m)} vs ${
        readMs(day.chart1m)
      } (ratio ${chartRatio1m.toFixed(2)})`
    )
    const rows = [
      row(
        `${formatCount(year.swaps)} swaps indexed from scratch`,
        `${formatCount(indexRate)}/s (${formatMs(year.ms)})`
      ),
      row("raw eth_getLogs, same filter and blocks", `${formatCount(rawRate)}/s (${formatMs(rawMs)})`),
      row("index / raw getLogs", ratio.toFixed(2), { value: ratio, target: atLeast(0.5, ">= 0.5") }),
      row("chart read, 1 500 1h candles, year-old index", readMs(year.chart1h)),
      row("chart read, 1 500 1h candles, day-old index", readMs(day.chart1h)),
      row("chart read, 1 500 1m candles, year-old index", readMs(year.chart1m)),
      row("chart read, 1 500 1m candles, day-old index", readMs(day.chart1m)),
      row("chart read 1h, year-old / day-old index", chartRatio1h.toFixed(2), { value: chartRatio1h }),
      row("chart read 1m, year-old / day-old index", chartRatio1m.toFixed(2), { value: chartRatio1m })
    ]
    return {
      rows,
      notes: [
        `indexer: ${
          formatCount(options.swaps)
        } router swaps, ${options.perBlock} a block, ${blocks} blocks over a year of block time ` +
        `(mined in ${
          formatMs(mineMs)
        }); each swap is 4 logs (Swap, Sync, 2 Transfers); SQLite file; chart reads are medians of 30; ` +
        `the last day's volume is ${year.volume24h.toFixed(0)} USD on both indexes (${day.volume24h.toFixed(0)})`
      ]
    }
  } finally {
    await anvil.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) printResult(await runIndexerBench())
