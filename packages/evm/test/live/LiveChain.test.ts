// Proves the live ports and followers against a real node (anvil with Uniswap V2 and the project's
// contract), through the core's own Trades use case over the memory repositories: a quote is the
// exchange's getAmountsOut; a delegated wallet's trade approves the contract, swaps, and is
// confirmed at depth with the Swapped log's amounts and the gas of both transactions; 20 concurrent
// swaps of one wallet take distinct nonces and all confirm while a refused one in their middle
// fails alone; a reverted swap fails SLIPPAGE_EXCEEDED; a dropped one NETWORK_ERROR (its nonce taken
// again), and so does one not mined in time; a mined swap is taken from the free balance once before its confirmation; a trade
// stored as broadcast is followed again after a restart; a reorganisation under a confirmed trade
// puts it back to pending. Realistic runs mine a block every second; edge cases mine by hand.
import {
  type DomainEvent,
  DomainEvents,
  IdGenerator,
  layerMemoryOrderRepository,
  layerMemoryTradeRepository,
  MarketClock,
  MarketReactor,
  OrderRepository,
  type TradeRecord,
  TradeRepository,
  Trades,
  Wallets
} from "@swapdesk/core"
import { Chain } from "@swapdesk/core"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { type Address, type Hash, maxUint256, parseUnits, toHex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Anvil,
  type DemoMarket,
  devAccount,
  devMnemonic,
  type DevnetClient,
  mintDemoToken
} from "../../src/devnet/index.ts"
import { decodeLiveConfig, type LiveConfig, readDelegatedSigners, swapOutcome } from "../../src/index.ts"
import {
  layerLiveFollowers,
  layerLivePorts,
  layerLiveTokenRegistry,
  type LiveFollowerOptions,
  LiveState
} from "../../src/live/index.ts"
import { demoNetwork, deployDemoRouter, startDemoChain } from "./demoNetwork.ts"
import { polling } from "./polling.ts"

const walletIndex = 2
const walletKey = toHex(mnemonicToAccount(devMnemonic, { addressIndex: walletIndex }).getHdKey().privateKey!)

let anvil: Anvil
let owner: DevnetClient
let market: DemoMarket
let contract: Address
let config: LiveConfig
const wallet = devAccount(walletIndex).address

const rpc = (method: string, params: ReadonlyArray<unknown> = []) =>
  owner.request({ method, params } as never) as Promise<unknown>

/** Stops interval mining and automining: blocks come from `mine` only. */
const mineByHand = async () => {
  await rpc("evm_setIntervalMining", [0])
  await rpc("evm_setAutomine", [false])
}
const mine = (blocks = 1) => rpc("anvil_mine", [toHex(blocks)])

let counter = 0
const ids = Layer.succeed(IdGenerator, {
  next: (kind) => Effect.sync(() => `${kind}_${++counter}`),
  token: (length) => Effect.sync(() => "x".repeat(length))
})
const published: Array<DomainEvent> = []
const events = Layer.succeed(DomainEvents, { publish: (event) => Effect.sync(() => void published.push(event)) })

/** The core's reactor does this for a trade without an order: the use case records the event. */
const reactor = Layer.effect(
  MarketReactor,
  Effect.gen(function*() {
    const trades = yield* Trades
    return {
      onTradeEvent: (tradeId, event) => Effect.asVoid(trades.apply(tradeId, event)),
      onMarket: () => Effect.void
    }
  })
)

const repositories = Layer.merge(layerMemoryTradeRepository, layerMemoryOrderRepository)

const makeRuntime = (
  repos: Layer.Layer<TradeRepository | OrderRepository>,
  followerOptions: LiveFollowerOptions = {}
) => {
  const signers = Effect.runSync(readDelegatedSigners(config, { WALLET_KEY: walletKey }))
  const ports = layerLivePorts({ config, signers, rpcTimeoutMs: 5_000, statusPollIntervalMs: 500 })
  const domain = Trades.layer.pipe(
    Layer.provideMerge(ports),
    Layer.provideMerge(Layer.mergeAll(ids, events, MarketClock.layer, layerLiveTokenRegistry(config))),
    Layer.provideMerge(repos)
  )
  const followers = layerLiveFollowers({ pollIntervalMs: 100, dropGraceMs: 0, ...followerOptions }).pipe(
    Layer.provide(reactor),
    Layer.provideMerge(domain)
  )
  return ManagedRuntime.make(followers)
}

beforeAll(async () => {
  ;({ anvil, owner, market } = await startDemoChain(10_000_000n))
  contract = await deployDemoRouter(owner, market)
  await mintDemoToken(owner, market.tokens["USDC"]!.address, wallet, parseUnits("1000000", 6))
  config = decodeLiveConfig({
    networks: {
      ethereum: demoNetwork(market, contract, {
        rpcUrl: anvil.rpcUrl,
        chainId: 1,
        confirmations: 2,
        executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_ETHEREUM"
      })
    },
    accounts: [{ id: "acct_live", wallets: [{ network: "ethereum", address: wallet, signingKeyEnv: "WALLET_KEY" }] }]
  })
  // The realistic path: a block every second.
  await rpc("evm_setIntervalMining", [1])
}, 120_000)

afterAll(async () => {
  await anvil?.stop()
})

const until = polling({ everyMs: 100, timeoutMs: 30_000 })

const tradeOf = (runtime: ReturnType<typeof makeRuntime>, id: string) =>
  runtime.runPromise(TradeRepository.use((r) => r.getById(id))).then((t) => t._tag === "Some" ? t.value : undefined)

/** A trade as the use case stores it after its broadcast. */
const recordOf = (
  id: string,
  swap: {
    readonly tokenIn: string
    readonly tokenOut: string
    readonly amountIn: bigint
    readonly minAmountOut: bigint
  },
  broadcast: { readonly at: number; readonly txHash: string }
): TradeRecord => ({
  id,
  accountId: "acct_live",
  stage: "broadcast",
  network: "ethereum",
  ...swap,
  estimatedAmountOut: swap.minAmountOut,
  fee: 0n,
  slippage: 1,
  walletAddress: wallet,
  createdAt: broadcast.at,
  txHash: broadcast.txHash,
  submittedAt: broadcast.at,
  confirmedAt: null,
  amountOut: null,
  gasFee: null,
  estimatedGasFee: 0n,
  failureReason: null,
  orderId: null
})

/** Submits `swap` from the delegated wallet and stores its trade, as the use case would; fails unless broadcast. */
const submitAndStore = (id: string, swap: Parameters<typeof recordOf>[1]) =>
  Effect.gen(function*() {
    const [broadcast] = yield* Chain.use((chain) =>
      chain.submit({
        tradeId: id,
        accountId: "acct_live",
        walletAddress: wallet,
        delegatedSigning: true,
        network: "ethereum",
        ...swap
      })
    )
    if (broadcast?._tag !== "Broadcast") throw new Error("not broadcast")
    const trade = recordOf(id, swap, broadcast)
    yield* TradeRepository.use((r) => r.insert(trade))
    return { trade, broadcast }
  })

/** Submits a swap of 10 USDC with `minAmountOut` and stores its trade, as the use case would. */
const started = (runtime: ReturnType<typeof makeRuntime>, id: string, minAmountOut: bigint) =>
  runtime.runPromise(
    submitAndStore(id, { tokenIn: "USDC", tokenOut: "LINK", amountIn: parseUnits("10", 6), minAmountOut }).pipe(
      Effect.map(({ trade }) => trade)
    )
  )

describe("live ports on a node mining a block every second", () => {
  it("a delegated wallet's trade approves, swaps and confirms with what the chain moved", async () => {
    const runtime = makeRuntime(repositories)
    try {
      const quote = await runtime.runPromise(
        Trades.use((t) =>
          t.quote("acct_live", { tokenIn: "USDC", tokenOut: "LINK", amountIn: "1000", network: "ethereum" })
        )
      )
      const amounts = await owner.readContract({
        address: market.uniswap.router,
        abi: [{
          type: "function",
          name: "getAmountsOut",
          stateMutability: "view",
          inputs: [{ name: "amountIn", type: "uint256" }, { name: "path", type: "address[]" }],
          outputs: [{ name: "amounts", type: "uint256[]" }]
        }],
        functionName: "getAmountsOut",
        args: [parseUnits("1000", 6), [market.tokens["USDC"]!.address, market.tokens["LINK"]!.address]]
      })
      expect(quote.chainQuote.grossOut).toBe(amounts[1])
      expect(quote.chainQuote.gasFee).toBeGreaterThan(0n)

      const created = await runtime.runPromise(
        Trades.use((t) =>
          t.create("acct_live", { tokenIn: "USDC", tokenOut: "LINK", amountIn: "1000", network: "ethereum" })
        )
      )
      expect(created.stage).toBe("broadcast")
      expect(created.txHash).toMatch(/^0x[0-9a-f]{64}$/)
      const held = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))
      expect(held.get("USDC")?.reserved).toBe(parseUnits("1000", 6))

      const confirmed = await until(() => tradeOf(runtime, created.id), (t) => t?.stage !== "broadcast")
      expect(confirmed?.stage).toBe("confirmed")
      const receipt = await owner.getTransactionReceipt({ hash: created.txHash as Hash })
      const outcome = Option.getOrUndefined(swapOutcome(receipt, contract))
      expect(confirmed?.amountOut).toBe(outcome?.amountOut)
      expect(confirmed?.fee).toBe(outcome?.fee)
      // The approval went first (nonce 0), the swap second: the gas of both is the trade's.
      const swapTx = await owner.getTransaction({ hash: created.txHash as Hash })
      expect(swapTx.nonce).toBe(1)
      const state = await runtime.runPromise(LiveState.use(Effect.succeed))
      const [approval] = state.followed.get(created.id)?.transactions ?? []
      expect((await owner.getTransaction({ hash: approval! })).nonce).toBe(0)
      const approvalReceipt = await owner.getTransactionReceipt({ hash: approval! })
      expect(confirmed?.gasFee).toBe(
        receipt.gasUsed * receipt.effectiveGasPrice + approvalReceipt.gasUsed * approvalReceipt.effectiveGasPrice
      )
      expect(confirmed?.confirmedAt).toBe(
        Number((await owner.getBlock({ blockNumber: receipt.blockNumber })).timestamp) * 1000
      )
      const after = await runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum")))
      expect(after.get("USDC")?.reserved).toBe(0n)
      expect(after.get("LINK")?.free).toBe(outcome?.amountOut)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it(
    "20 concurrent swaps of one wallet take distinct nonces and confirm; a refused one in the middle fails alone",
    async () => {
      const runtime = makeRuntime(repositories)
      try {
        const submit = (i: number, tokenIn: string, amountIn: bigint) =>
          submitAndStore(`trade_concurrent_${i}`, {
            tokenIn,
            tokenOut: tokenIn === "ETH" ? "USDC" : "LINK",
            amountIn,
            minAmountOut: 0n
          }).pipe(Effect.map(({ broadcast }) => broadcast.txHash as Hash))
        const hashes = await runtime.runPromise(Effect.forEach(
          Array.from({ length: 21 }, (_, i) => i),
          // The 11th spends far more ETH than the wallet has: the node refuses it at broadcast.
          (i) => i === 10 ? submit(i, "ETH", parseUnits("1000000", 18)) : submit(i, "USDC", parseUnits("10", 6)),
          { concurrency: "unbounded" }
        ))
        const accepted = hashes.filter((_, i) => i !== 10)
        const receipts = await Promise.all(
          accepted.map((hash) => owner.waitForTransactionReceipt({ hash, pollingInterval: 100 }))
        )
        expect(receipts.every((r) => r.status === "success")).toBe(true)
        const nonces = await Promise.all(accepted.map((hash) => owner.getTransaction({ hash }).then((tx) => tx.nonce)))
        expect(new Set(nonces).size).toBe(20)
        // No gap: the wallet's next nonce is right after the last accepted one.
        expect(Math.max(...nonces) + 1).toBe(await owner.getTransactionCount({ address: wallet, blockTag: "pending" }))
        // The followers end every one of them: 20 confirmed, the refused one failed.
        const ended = await Promise.all(
          hashes.map((_, i) => until(() => tradeOf(runtime, `trade_concurrent_${i}`), (t) => t?.stage !== "broadcast"))
        )
        expect(ended.filter((t) => t?.stage === "confirmed")).toHaveLength(20)
        // The refused one: never mined, nothing paid.
        expect(ended[10]).toMatchObject({ stage: "failed", failureReason: "NETWORK_ERROR", gasFee: 0n })
        expect(await owner.getTransactionReceipt({ hash: hashes[10]! }).catch(() => null)).toBeNull()
      } finally {
        await runtime.dispose()
      }
    },
    90_000
  )
})

/** Stores a trade as the use case would after the broadcast, and submits it with `minAmountOut`. */
describe("live followers on a node mined by hand", () => {
  beforeAll(async () => {
    await mineByHand()
  })

  it("a swap reverted below its minimum fails SLIPPAGE_EXCEEDED with the gas it burnt", async () => {
    const runtime = makeRuntime(repositories)
    try {
      const trade = await started(runtime, "trade_slippage", maxUint256 / 2n)
      await mine(2)
      const failed = await until(() => tradeOf(runtime, trade.id), (t) => t?.stage !== "broadcast")
      expect(failed?.stage).toBe("failed")
      expect(failed?.failureReason).toBe("SLIPPAGE_EXCEEDED")
      const receipt = await owner.getTransactionReceipt({ hash: trade.txHash as Hash })
      expect(receipt.status).toBe("reverted")
      expect(failed?.gasFee).toBe(receipt.gasUsed * receipt.effectiveGasPrice)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("a dropped swap fails NETWORK_ERROR, and the wallet's next swap is not held back", async () => {
    const runtime = makeRuntime(repositories)
    try {
      const trade = await started(runtime, "trade_dropped", 0n)
      await rpc("anvil_dropTransaction", [trade.txHash])
      await mine()
      const failed = await until(() => tradeOf(runtime, trade.id), (t) => t?.stage !== "broadcast")
      expect(failed?.failureReason).toBe("NETWORK_ERROR")
      const next = await started(runtime, "trade_after_drop", 0n)
      // The dropped swap's nonce is taken again: nothing of the wallet is mined yet, so it is the node's count.
      expect((await owner.getTransaction({ hash: next.txHash as Hash })).nonce).toBe(
        await owner.getTransactionCount({ address: wallet })
      )
      await mine(2)
      const confirmed = await until(() => tradeOf(runtime, next.id), (t) => t?.stage !== "broadcast")
      expect(confirmed?.stage).toBe("confirmed")
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("a swap not mined in time fails NETWORK_ERROR", async () => {
    // The time allowed is 0 here (10 minutes in production): the first block without the swap ends it.
    const runtime = makeRuntime(repositories, { notMinedTimeoutMs: 0 })
    try {
      const trade = await started(runtime, "trade_late", 0n)
      // A block whose base fee is above what the swap offers leaves it pending.
      await rpc("anvil_setNextBlockBaseFeePerGas", [toHex(10n ** 15n)])
      await mine()
      const failed = await until(() => tradeOf(runtime, trade.id), (t) => t?.stage !== "broadcast")
      expect(failed).toMatchObject({ stage: "failed", failureReason: "NETWORK_ERROR", gasFee: 0n })
      expect(await owner.getTransactionReceipt({ hash: trade.txHash as Hash }).catch(() => null)).toBeNull()
      await rpc("anvil_dropTransaction", [trade.txHash])
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it("between a swap's inclusion and its confirmation, the free balance counts it once", async () => {
    const runtime = makeRuntime(repositories)
    try {
      const usdc = () =>
        runtime.runPromise(Wallets.use((w) => w.balances("acct_live", "ethereum"))).then((b) => b.get("USDC")!)
      const before = await usdc()
      const created = await runtime.runPromise(
        Trades.use((t) =>
          t.create("acct_live", { tokenIn: "USDC", tokenOut: "LINK", amountIn: "40", network: "ethereum" })
        )
      )
      const amount = parseUnits("40", 6)
      expect(await usdc()).toEqual({ free: before.free - amount, reserved: before.reserved + amount })
      await mine()
      const state = await runtime.runPromise(LiveState.use(Effect.succeed))
      await until(async () => state.followed.get(created.id)?.minedIn, (minedIn) => minedIn !== undefined)
      // The chain already shows the swap; its hold is still reserved, but not taken from free twice.
      expect(await usdc()).toEqual({ free: before.free - amount, reserved: before.reserved + amount })
      await mine()
      await until(() => tradeOf(runtime, created.id), (t) => t?.stage === "confirmed")
      expect(await usdc()).toEqual({ free: before.free - amount, reserved: before.reserved })
    } finally {
      await runtime.dispose()
    }
  }, 60_000)

  it(
    "a trade stored as broadcast is followed again after a restart, and a reorganisation puts it back to pending",
    async () => {
      const repos = Layer.merge(layerMemoryTradeRepository, layerMemoryOrderRepository)
      // One memory store for both runs: what a database would keep across the restart.
      const store = await Effect.runPromise(Layer.build(repos).pipe(Effect.scoped))
      const kept = Layer.succeedContext(store)
      const first = makeRuntime(kept)
      const trade = await started(first, "trade_restart", 0n)
      await first.dispose()

      const second = makeRuntime(kept)
      try {
        await mine(2)
        const confirmed = await until(() => tradeOf(second, trade.id), (t) => t?.stage !== "broadcast")
        expect(confirmed?.stage).toBe("confirmed")
        // Nothing was sent again: the wallet's count moved by this trade's swap only.
        const receipt = await owner.getTransactionReceipt({ hash: trade.txHash as Hash })
        expect(receipt.status).toBe("success")

        await rpc("anvil_reorg", [2, []])
        const reorganised = await until(() => tradeOf(second, trade.id), (t) => t?.stage !== "confirmed")
        expect(reorganised?.stage).toBe("broadcast")
        expect(reorganised?.amountOut).toBeNull()
        // Then the trade ends again from the chain: its swap mined anew, or gone from the node.
        await mine(2)
        const ended = await until(() => tradeOf(second, trade.id), (t) => t?.stage !== "broadcast")
        expect(["confirmed", "failed"]).toContain(ended?.stage)
      } finally {
        await second.dispose()
      }
    },
    60_000
  )
})
