/**
 * The index of one network, followed by one fiber: the pools' `Swap` events and the listed tokens'
 * `Transfer` events from `startBlock`, read with `eth_getLogs` over block ranges that grow while the
 * node's answers are small and shrink when it refuses a range (too many results, a range limit, a
 * timeout), only up to the last block with `confirmations` blocks on top. Each range is written in
 * one transaction with its last block as the cursor, so a restart resumes after it without a gap or
 * a duplicate. Before each range the cursor block's hash is compared with the chain's: a
 * reorganisation rolls the index back to the newest stored block the chain still has. A failure is
 * logged and the step retried with back-off; it never ends the fiber (docs/live.md).
 */
import { MoneyDecimal } from "@swapdesk/core"
import { Clock, Effect, Fiber } from "effect"
import { createPublicClient, type Hex, http, numberToHex, parseAbi, type PublicClient, toEventSelector } from "viem"
import { type IndexedNetwork, type IndexedPools, IndexRpcError, resolvePools } from "./IndexedNetwork.ts"
import {
  type IndexBatch,
  type IndexedSwap,
  type IndexedTransfer,
  type IndexStore,
  whaleThresholdUsd
} from "./IndexStore.ts"

const swapTopic = toEventSelector(
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)"
)
const syncTopic = toEventSelector("event Sync(uint112 reserve0, uint112 reserve1)")
const transferTopic = toEventSelector("event Transfer(address indexed from, address indexed to, uint256 value)")
const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])

/** What the indexer of a network shows of itself (health, tests, the bench). */
export interface NetworkIndexState {
  /** The last indexed block; null before the first range is written. */
  indexedBlock: bigint | null
  /** That block's timestamp (ms): "now" for the market figures until the node's head is read. */
  indexedTime: number | null
  /** The node's head block and its timestamp (ms), as last read. */
  headBlock: bigint | null
  headTime: number | null
  /**
   * The lowest block a reorganisation rolled the index back to (`startBlock − 1` when to nothing)
   * since whoever reads the index's new swaps last cleared it: swaps it was told above that block
   * may be gone or replaced, even when the index is back at the same height by the next look.
   */
  rolledBackTo: bigint | null
  /** The block range the next `eth_getLogs` asks for. */
  rangeBlocks: number
  /** The last failure, cleared by the next successful step. */
  lastError: string | null
}

/** Settings that tests and the bench change. */
export interface ChainIndexerOptions {
  /** How long to wait when caught up with the chain: 1 s when absent. */
  readonly pollIntervalMs?: number
  /** The first range, in blocks: 1 when absent (it doubles while answers are small). */
  readonly initialRangeBlocks?: number
  /** The largest range: 10 000 blocks when absent. */
  readonly maxRangeBlocks?: number
  /** A range is doubled while its answer has fewer than half this many logs, halved when more: 2 000 when absent. */
  readonly targetLogs?: number
  /** Per RPC call: 10 s when absent. */
  readonly rpcTimeoutMs?: number
  /** The first back-off after a failure (doubling up to 30 s): 500 ms when absent. */
  readonly retryBaseMs?: number
}

interface RawLog {
  readonly address: Hex
  readonly topics: ReadonlyArray<Hex>
  readonly data: Hex
  readonly blockNumber: Hex
  readonly blockHash: Hex
  readonly logIndex: Hex
  readonly blockTimestamp?: Hex
}

interface RawBlock {
  readonly number: Hex
  readonly hash: Hex
  readonly timestamp: Hex
}

const word = (data: Hex, i: number): bigint => BigInt(`0x${data.slice(2 + 64 * i, 2 + 64 * (i + 1))}`)
const topicAddress = (topic: Hex): string => `0x${topic.slice(26)}`.toLowerCase()
const abs = (x: bigint) => (x < 0n ? -x : x)
const scale = (units: bigint, decimals: number) =>
  new MoneyDecimal(units.toString()).div(new MoneyDecimal(10).pow(decimals))
// Prices and values are quotients: 40 significant digits keep every figure exact to far below a unit.
const exact = (x: MoneyDecimal) => x.toSignificantDigits(40).toFixed()

/** A viem client on the network's node, with the timeout and no retry of its own. */
export const indexClient = (network: IndexedNetwork, timeoutMs: number): PublicClient =>
  createPublicClient({ transport: http(network.rpcUrl, { timeout: timeoutMs, retryCount: 0 }) })

/** Runs the network's index forever; `state` shows where it is. */
export const runChainIndexer = (
  network: IndexedNetwork,
  store: IndexStore,
  state: NetworkIndexState,
  options: ChainIndexerOptions = {}
): Effect.Effect<never> => {
  const client = indexClient(network, options.rpcTimeoutMs ?? 10_000)
  const maxRange = options.maxRangeBlocks ?? 10_000
  const targetLogs = options.targetLogs ?? 2_000
  const name = network.network

  const rpc = <A>(what: string, run: () => Promise<A>) =>
    Effect.tryPromise({
      try: run,
      catch: (error) => new IndexRpcError({ message: `${name}: ${what}: ${String(error)}` })
    })
  const request = <A>(method: string, params: ReadonlyArray<unknown>) =>
    rpc(method, () => client.request({ method: method as never, params: params as never }) as Promise<A>)
  const blockAt = (number: bigint) =>
    Effect.map(
      request<RawBlock | null>("eth_getBlockByNumber", [numberToHex(number), false]),
      (b) =>
        b === null ? undefined : { number: BigInt(b.number), hash: b.hash, time: Number(BigInt(b.timestamp)) * 1000 }
    )

  let pools: IndexedPools | undefined
  // WETH's USD price as of the last read log; unknown after a start or a roll-back until read again.
  let wethUsd: MoneyDecimal | undefined | null = null

  // A node that fails here fails the step: a swap through WETH is never indexed without its price.
  const wethUsdAt = (pools: IndexedPools, block: bigint) =>
    Effect.gen(function*() {
      const pair = pools.wethPool?.pair
      if (pair === undefined || block < 0n) return undefined
      // The pool did not exist yet at that block: its first `Sync` will give the price.
      if ((yield* request<Hex>("eth_getCode", [pair, numberToHex(block)])) === "0x") return undefined
      const [r0, r1] = yield* rpc("getReserves", () =>
        client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves", blockNumber: block }))
      return reservesPrice(pools, r0, r1)
    })

  const reservesPrice = (pools: IndexedPools, r0: bigint, r1: bigint) => {
    const [wethReserve, quoteReserve] = pools.wethPool!.wethIsToken0 ? [r0, r1] : [r1, r0]
    return wethReserve === 0n ? undefined : scale(quoteReserve, network.quote.decimals).div(scale(wethReserve, 18))
  }

  /** The logs of `[from, to]`, the range halved while the node refuses it; answers the range used. */
  const logsFrom = (
    pools: IndexedPools,
    from: bigint,
    safe: bigint
  ): Effect.Effect<{ logs: ReadonlyArray<RawLog>; to: bigint }, IndexRpcError> =>
    Effect.gen(function*() {
      const address = [
        ...pools.pools.keys(),
        ...(pools.wethPool === undefined ? [] : [pools.wethPool.pair]),
        ...pools.tokens.keys()
      ]
      while (true) {
        const to = from + BigInt(state.rangeBlocks) - 1n
        const end = to < safe ? to : safe
        const answer = yield* Effect.result(request<ReadonlyArray<RawLog>>("eth_getLogs", [{
          fromBlock: numberToHex(from),
          toBlock: numberToHex(end),
          address,
          topics: [[swapTopic, syncTopic, transferTopic]]
        }]))
        if (answer._tag === "Success") {
          const n = answer.success.length
          if (n < targetLogs / 2) state.rangeBlocks = Math.min(maxRange, state.rangeBlocks * 2)
          else if (n > targetLogs) state.rangeBlocks = Math.max(1, Math.floor(state.rangeBlocks / 2))
          return { logs: answer.success, to: end }
        }
        if (state.rangeBlocks === 1) return yield* answer.failure
        state.rangeBlocks = Math.max(1, Math.floor(state.rangeBlocks / 2))
        yield* Effect.logDebug(
          `${name}: eth_getLogs refused, range now ${state.rangeBlocks} blocks: ${answer.failure.message}`
        )
      }
    })

  const decode = (pools: IndexedPools, logs: ReadonlyArray<RawLog>, times: ReadonlyMap<bigint, number>) => {
    // Looked up by lower-case address: checksumming every log's address would hash it each time.
    const poolOf = new Map([...pools.pools].map(([address, pool]) => [address.toLowerCase(), pool]))
    const tokenOf = new Map([...pools.tokens].map(([address, token]) => [address.toLowerCase(), token]))
    const wethPair = pools.wethPool?.pair.toLowerCase()
    const swaps: Array<IndexedSwap> = []
    const transfers: Array<IndexedTransfer> = []
    for (const log of logs) {
      const topic = log.topics[0]
      const address = log.address.toLowerCase()
      const blockNumber = BigInt(log.blockNumber)
      if (topic === syncTopic && wethPair === address) {
        wethUsd = reservesPrice(pools, word(log.data, 0), word(log.data, 1))
      }
      if (topic === swapTopic) {
        const pool = poolOf.get(address)
        if (pool === undefined) continue
        const [in0, in1, out0, out1] = [word(log.data, 0), word(log.data, 1), word(log.data, 2), word(log.data, 3)]
        const [tIn, tOut, oIn, oOut] = pool.tokenIsToken0 ? [in0, out0, in1, out1] : [in1, out1, in0, out0]
        const tokenUnits = abs(tOut - tIn)
        if (tokenUnits === 0n) continue
        const amount = scale(tokenUnits, pool.token.decimals)
        const other = scale(abs(oIn - oOut), pool.otherDecimals)
        const usdPerOther = pool.against === "quote" ? new MoneyDecimal(1) : wethUsd
        if (usdPerOther === undefined || usdPerOther === null) continue
        const valueUsd = other.mul(usdPerOther)
        swaps.push({
          blockHash: log.blockHash,
          logIndex: Number(BigInt(log.logIndex)),
          blockNumber,
          at: times.get(blockNumber)!,
          token: pool.token.symbol,
          side: tOut > tIn ? "buy" : "sell",
          amount: amount.toFixed(),
          priceUsd: exact(valueUsd.div(amount)),
          valueUsd: exact(valueUsd),
          whale: valueUsd.gte(whaleThresholdUsd)
        })
      }
      if (topic === transferTopic && log.topics.length === 3) {
        const token = tokenOf.get(address)
        if (token === undefined) continue
        transfers.push({
          blockHash: log.blockHash,
          logIndex: Number(BigInt(log.logIndex)),
          blockNumber,
          token: token.symbol,
          from: topicAddress(log.topics[1]!),
          to: topicAddress(log.topics[2]!),
          amount: BigInt(log.data)
        })
      }
    }
    return { swaps, transfers }
  }

  /** The newest stored block the chain still has (undefined: none, start over). */
  const commonAncestor = (below: bigint) =>
    Effect.gen(function*() {
      let under = below
      while (true) {
        const stored = yield* store.blocksBelow(name, under, 32)
        for (const block of stored) {
          const onChain = yield* blockAt(block.number)
          if (onChain !== undefined && onChain.hash === block.hash) return onChain
        }
        if (stored.length < 32) return undefined
        under = stored[stored.length - 1]!.number
      }
    })

  /** The logs of the range starting at `from` and what is needed to store them: block times and the last block. */
  const fetchRange = (pools: IndexedPools, from: bigint, safe: bigint) =>
    Effect.gen(function*() {
      const { logs, to } = yield* logsFrom(pools, from, safe)
      const times = new Map<bigint, number>()
      const hashes = new Map<bigint, string>()
      for (const log of logs) {
        const number = BigInt(log.blockNumber)
        hashes.set(number, log.blockHash)
        if (log.blockTimestamp !== undefined) times.set(number, Number(BigInt(log.blockTimestamp)) * 1000)
      }
      const missing = [...hashes.keys()].filter((n) => !times.has(n))
      const read = yield* Effect.forEach(missing, blockAt, { concurrency: 8 })
      for (const block of read) if (block !== undefined) times.set(block.number, block.time)
      const last = yield* blockAt(to)
      return { from, logs, to, times, hashes, last }
    })

  // The next range, read while the current one is written: reading and writing overlap.
  let prefetched: {
    readonly from: bigint
    readonly fiber: Fiber.Fiber<Effect.Success<ReturnType<typeof fetchRange>>, IndexRpcError>
  } | undefined
  const dropPrefetched = Effect.suspend(() => {
    const fiber = prefetched?.fiber
    prefetched = undefined
    return fiber === undefined ? Effect.void : Fiber.interrupt(fiber)
  })
  // The head as last read, and when (ms): read again once the index reaches it, or after a second.
  let headReadAt = 0
  let knownSafe = -1n

  /** One step: answers whether the index has caught up with the confirmed chain. */
  const step = Effect.gen(function*() {
    if (pools === undefined) pools = yield* resolvePools(network, client)
    const cursor = yield* store.cursor(name)
    const from = cursor === undefined ? BigInt(network.startBlock) : cursor.number + 1n
    const now = yield* Clock.currentTimeMillis
    if (from > knownSafe || now - headReadAt >= 1_000) {
      const head = yield* blockAt(BigInt(yield* request<Hex>("eth_blockNumber", [])))
      if (head === undefined) return true
      state.headBlock = head.number
      state.headTime = head.time
      headReadAt = now
      knownSafe = head.number - BigInt(network.confirmations) + 1n
    }
    if (cursor !== undefined) {
      const onChain = yield* blockAt(cursor.number)
      if (onChain === undefined || onChain.hash !== cursor.hash) {
        yield* dropPrefetched
        const ancestor = yield* commonAncestor(cursor.number + 1n)
        yield* Effect.logWarning(
          `${name}: reorganisation below block ${cursor.number}: index rolled back to ${
            ancestor?.number ?? "the start"
          }`
        )
        yield* store.rollBack(name, ancestor)
        state.indexedBlock = ancestor?.number ?? null
        state.indexedTime = ancestor?.time ?? null
        const floor = ancestor?.number ?? BigInt(network.startBlock) - 1n
        if (state.rolledBackTo === null || floor < state.rolledBackTo) state.rolledBackTo = floor
        wethUsd = null
        return false
      }
    }
    state.indexedBlock = cursor?.number ?? null
    state.indexedTime = cursor?.time ?? null
    const safe = knownSafe
    if (from > safe) return true
    if (wethUsd === null) wethUsd = yield* wethUsdAt(pools, from - 1n)
    const range = prefetched !== undefined && prefetched.from === from
      ? yield* Fiber.join(prefetched.fiber)
      : yield* Effect.andThen(dropPrefetched, fetchRange(pools, from, safe))
    prefetched = undefined
    const { logs, to, times, hashes, last } = range
    if (last === undefined) return false
    const decoded = decode(pools, logs, times)
    const batch: IndexBatch = {
      ...decoded,
      blocks: [...hashes].map(([number, hash]) => ({ number, hash, time: times.get(number)! })),
      cursor: last
    }
    if (to < safe) {
      const next = to + 1n
      prefetched = { from: next, fiber: yield* Effect.forkChild(fetchRange(pools, next, safe)) }
    }
    yield* store.write(name, batch).pipe(Effect.orDie)
    state.indexedBlock = to
    state.indexedTime = last.time
    return to >= safe
  })

  const retryBase = options.retryBaseMs ?? 500
  const pollInterval = options.pollIntervalMs ?? 1_000
  return Effect.gen(function*() {
    let failures = 0
    while (true) {
      const exit = yield* Effect.exit(step)
      if (exit._tag === "Success") {
        failures = 0
        state.lastError = null
        if (exit.value) yield* Effect.sleep(pollInterval)
      } else {
        failures++
        yield* dropPrefetched
        // A failed step leaves the stored index as it was; what was read in memory is read again.
        pools = undefined
        wethUsd = null
        state.lastError = String(exit.cause)
        yield* Effect.logWarning(`${name}: index step failed (attempt ${failures})`, exit.cause)
        yield* Effect.sleep(Math.min(30_000, retryBase * 2 ** Math.min(failures - 1, 16)))
      }
    }
  })
}

/** A fresh state for a network's indexer. */
export const initialIndexState = (options: ChainIndexerOptions = {}): NetworkIndexState => ({
  indexedBlock: null,
  indexedTime: null,
  headBlock: null,
  headTime: null,
  rolledBackTo: null,
  rangeBlocks: options.initialRangeBlocks ?? 1,
  lastError: null
})
