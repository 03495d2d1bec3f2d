// Proves each rule of a trade's on-chain life by driving a ChainEngine over a scripted fake market
// and a tiny event loop: broadcast at once with delegated signing, confirmation after block time ×
// confirmations, every failure reason reachable with its exact refund, faults slowing inclusion and
// raising gas, price impact growing with size and executed swaps moving the market.
import { assert, describe, it } from "@effect/vitest"
import { APPROVAL_TIMEOUT_MS, MoneyDecimal, type Network, networks, type TradeEvent } from "@swapdesk/core"
import {
  CONGESTION_EXTRA_BLOCKS_MAX,
  CONGESTION_EXTRA_BLOCKS_MIN,
  MEMPOOL_EXTRA_BLOCKS_MAX,
  tradeCompletionBoundMs
} from "../../src/chain/ChainEngine.ts"
import { defaultNetworkParams } from "../../src/chain/NetworkParams.ts"
import type { WalletSpec } from "../../src/chain/WalletBook.ts"
import {
  expectEvent,
  kindOf,
  logTypes,
  makeWorld,
  ONE_ETH,
  ONE_SOL,
  ONE_USDC,
  START,
  startTrade,
  type World
} from "./harness.ts"

const SOLANA_ADDRESS = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
const evmAddress = (n: number) => "0x" + n.toString(16).padStart(40, "0")

const wallet = (
  accountId: string,
  network: Network,
  balances: Record<string, bigint>,
  delegatedSigning = true
): WalletSpec => ({
  accountId,
  network,
  address: network === "solana" ? `${SOLANA_ADDRESS.slice(0, 40)}${accountId.slice(-4)}` : evmAddress(accountId.length),
  delegatedSigning,
  balances
})

const alice: ReadonlyArray<WalletSpec> = [
  wallet("acct_alice", "solana", { SOL: 10n * ONE_SOL, USDC: 1000n * ONE_USDC }),
  wallet("acct_alice", "ethereum", { ETH: 2n * ONE_ETH, USDC: 5000n * ONE_USDC }),
  wallet("acct_alice", "base", { ETH: ONE_ETH, USDC: 1000n * ONE_USDC }),
  wallet("acct_alice", "arbitrum", { ETH: ONE_ETH, USDC: 1000n * ONE_USDC })
]

const fixtures: ReadonlyArray<WalletSpec> = [
  ...alice,
  wallet("acct_bob", "solana", { SOL: 5n * ONE_SOL, USDC: 500n * ONE_USDC }, false),
  wallet("acct_carol", "solana", { USDC: 100n * ONE_USDC }),
  wallet("acct_dave", "solana", { SOL: ONE_SOL, USDC: 0n }),
  wallet("acct_whale", "solana", { SOL: 100_000n * ONE_SOL, USDC: 0n })
]

const world = (options: Partial<Parameters<typeof makeWorld>[0]> = {}): World =>
  makeWorld({ wallets: fixtures, ...options })

const balance = (w: World, accountId: string, network: Network, token: string) =>
  w.wallets.balances(accountId, network).get(token) ?? { free: 0n, reserved: 0n }

const eventsOf = (w: World, tradeId: string): Array<TradeEvent> =>
  w.emitted.filter((e) => e.tradeId === tradeId).map((e) => e.event)

const only = (w: World, tradeId: string): TradeEvent => {
  const events = eventsOf(w, tradeId)
  assert.strictEqual(events.length, 1, `one event for ${tradeId}, got ${events.map(kindOf).join(", ")}`)
  return events[0]!
}

const failure = (event: TradeEvent) => expectEvent(event, "Failed")

const aliceUsdcToSol = (w: World, tradeId: string, usdc: bigint, slippage = 0.5) =>
  startTrade(w, {
    tradeId,
    accountId: "acct_alice",
    network: "solana",
    tokenIn: "USDC",
    tokenOut: "SOL",
    amountIn: usdc * ONE_USDC,
    slippage
  })

const hashOf = (seed: number) => expectEvent(aliceUsdcToSol(world({ seed }), "trd_1", 10n)?.[0], "Broadcast").txHash

describe("broadcast", () => {
  it("broadcasts at once with delegated signing, with a hash shaped like the network's", () => {
    for (const network of networks) {
      const w = world()
      w.loop.advanceTo(START + 1)
      const events = startTrade(w, {
        tradeId: `trd_${network}`,
        accountId: "acct_alice",
        network,
        tokenIn: "USDC",
        tokenOut: network === "solana" ? "SOL" : "ETH",
        amountIn: 10n * ONE_USDC
      })!
      assert.strictEqual(events.length, 1)
      const broadcast = expectEvent(events[0], "Broadcast")
      assert.strictEqual(broadcast.at, START + 1)
      const shape = network === "solana" ? /^[1-9A-HJ-NP-Za-km-z]{88}$/ : /^0x[0-9a-f]{64}$/
      assert.match(broadcast.txHash, shape)
      // Nothing is emitted during the call: the broadcast is answered, later events are scheduled.
      assert.strictEqual(w.emitted.length, 0)
      assert.strictEqual(w.engine.stageOf(`trd_${network}`), "broadcast")
    }
  })

  it("draws the same hash from the same seed and another from another seed", () => {
    assert.strictEqual(hashOf(7), hashOf(7))
    assert.notStrictEqual(hashOf(7), hashOf(8))
  })
})

describe("confirmation", () => {
  it("confirms block time × confirmations after inclusion, which is within three blocks of broadcast", () => {
    for (const network of networks) {
      const params = defaultNetworkParams[network]
      const w = world()
      const submittedAt = START + 1
      w.loop.advanceTo(submittedAt)
      const tokenOut = network === "solana" ? "SOL" : "ETH"
      const amountIn = 100n * ONE_USDC
      const quote = w.engine.quote({ network, tokenIn: "USDC", tokenOut, amountIn }, submittedAt)
      startTrade(w, { tradeId: "trd_1", accountId: "acct_alice", network, tokenIn: "USDC", tokenOut, amountIn })
      w.loop.drain()
      const included = w.logs.find((l) => l.type === "trade.included")!
      assert.strictEqual(included.at % params.blockTimeMs, 0, "included on a block boundary")
      assert.isAbove(included.at, submittedAt)
      assert.isAtMost(included.at, submittedAt + (1 + MEMPOOL_EXTRA_BLOCKS_MAX) * params.blockTimeMs)
      const confirmed = expectEvent(only(w, "trd_1"), "Confirmed")
      assert.strictEqual(confirmed.at, included.at + params.confirmations * params.blockTimeMs)
      // Nothing moved between quote and execution: the execution pays exactly the quoted gross.
      assert.strictEqual(confirmed.amountOut + confirmed.fee, quote.grossOut)
      assert.strictEqual(confirmed.gasFee, BigInt(params.gasUnitsPerSwap) * params.baseGasPrice)
      const usdc = balance(w, "acct_alice", network, "USDC")
      const native = balance(w, "acct_alice", network, tokenOut)
      const startUsdc = network === "ethereum" ? 5000n * ONE_USDC : 1000n * ONE_USDC
      const startNative = network === "solana" ? 10n * ONE_SOL : network === "ethereum" ? 2n * ONE_ETH : ONE_ETH
      assert.deepStrictEqual(usdc, { free: startUsdc - amountIn, reserved: 0n })
      assert.deepStrictEqual(native, { free: startNative + confirmed.amountOut - confirmed.gasFee, reserved: 0n })
      assert.deepStrictEqual(logTypes(w, "trd_1"), [
        "trade.broadcast",
        "gas.burned",
        "trade.included",
        "trade.confirmed"
      ])
      w.wallets.checkInvariants()
    }
  })

  it("holds the input reserved and credits nothing until confirmation", () => {
    const w = world()
    aliceUsdcToSol(w, "trd_1", 100n)
    const included = () => w.logs.some((l) => l.type === "trade.included")
    while (!included()) w.loop.advanceBy(400)
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "USDC"), {
      free: 900n * ONE_USDC,
      reserved: 100n * ONE_USDC
    })
    // Gas is paid at inclusion; the output arrives at confirmation.
    assert.strictEqual(balance(w, "acct_alice", "solana", "SOL").free, 10n * ONE_SOL - 10_000n)
    assert.strictEqual(w.emitted.length, 0)
    w.loop.drain()
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "USDC"), { free: 900n * ONE_USDC, reserved: 0n })
    assert.isTrue(balance(w, "acct_alice", "solana", "SOL").free > 10n * ONE_SOL)
  })

  it("states the completion bound per network", () => {
    assert.strictEqual(tradeCompletionBoundMs(defaultNetworkParams.solana), 624_000)
    assert.strictEqual(tradeCompletionBoundMs(defaultNetworkParams.ethereum), 960_000)
    assert.strictEqual(tradeCompletionBoundMs(defaultNetworkParams.base), 666_000)
    assert.strictEqual(tradeCompletionBoundMs(defaultNetworkParams.arbitrum), 612_000)
  })
})

describe("failures", () => {
  it("SLIPPAGE_EXCEEDED when the price moves before inclusion; gas is burned, the input returned", () => {
    const w = world()
    aliceUsdcToSol(w, "trd_1", 100n)
    w.market.setPrice("SOL", 160)
    w.loop.drain()
    const failed = failure(only(w, "trd_1"))
    assert.strictEqual(failed.reason, "SLIPPAGE_EXCEEDED")
    assert.strictEqual(failed.gasFee, 10_000n)
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "USDC"), { free: 1000n * ONE_USDC, reserved: 0n })
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "SOL"), { free: 10n * ONE_SOL - 10_000n, reserved: 0n })
    assert.strictEqual(w.market.swaps.length, 0, "a reverted swap does not move the market")
  })

  it("a price move within the tolerance still confirms, at the new price", () => {
    const w = world()
    const quote = w.engine.quote(
      { network: "solana", tokenIn: "USDC", tokenOut: "SOL", amountIn: 100n * ONE_USDC },
      START
    )
    aliceUsdcToSol(w, "trd_1", 100n, 5)
    w.market.setPrice("SOL", 153)
    w.loop.drain()
    const confirmed = expectEvent(only(w, "trd_1"), "Confirmed")
    assert.isTrue(confirmed.amountOut + confirmed.fee < quote.grossOut)
  })

  it("INSUFFICIENT_GAS when the wallet has no native token; no gas burned, the input returned", () => {
    const w = world()
    startTrade(w, {
      tradeId: "trd_1",
      accountId: "acct_carol",
      network: "solana",
      tokenIn: "USDC",
      tokenOut: "SOL",
      amountIn: 50n * ONE_USDC
    })
    w.loop.drain()
    const failed = failure(only(w, "trd_1"))
    assert.strictEqual(failed.reason, "INSUFFICIENT_GAS")
    assert.strictEqual(failed.gasFee, 0n)
    assert.deepStrictEqual(balance(w, "acct_carol", "solana", "USDC"), { free: 100n * ONE_USDC, reserved: 0n })
    assert.isFalse(logTypes(w).includes("gas.burned"))
  })

  it("INSUFFICIENT_GAS when the native input is held: gas never comes from the hold", () => {
    const w = world()
    const trade = { accountId: "acct_dave", network: "solana", tokenIn: "SOL", tokenOut: "USDC" } as const
    startTrade(w, { ...trade, tradeId: "trd_all", amountIn: ONE_SOL })
    w.loop.drain()
    assert.strictEqual(failure(only(w, "trd_all")).reason, "INSUFFICIENT_GAS")
    assert.deepStrictEqual(balance(w, "acct_dave", "solana", "SOL"), { free: ONE_SOL, reserved: 0n })
    startTrade(w, { ...trade, tradeId: "trd_half", amountIn: ONE_SOL / 2n })
    w.loop.drain()
    expectEvent(only(w, "trd_half"), "Confirmed")
    assert.deepStrictEqual(balance(w, "acct_dave", "solana", "SOL"), { free: ONE_SOL / 2n - 10_000n, reserved: 0n })
  })

  it("NETWORK_ERROR with failureRate 1; no gas burned, the input returned", () => {
    const w = world({ networks: { solana: { failureRate: 1 } } })
    aliceUsdcToSol(w, "trd_1", 100n)
    w.loop.drain()
    const failed = failure(only(w, "trd_1"))
    assert.strictEqual(failed.reason, "NETWORK_ERROR")
    assert.strictEqual(failed.gasFee, 0n)
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "USDC"), { free: 1000n * ONE_USDC, reserved: 0n })
    assert.deepStrictEqual(balance(w, "acct_alice", "solana", "SOL"), { free: 10n * ONE_SOL, reserved: 0n })
  })

  it("NETWORK_ERROR when an outage covers the broadcast or the inclusion, and not after it ends", () => {
    const w = world()
    const ethTrade = (tradeId: string) =>
      startTrade(w, {
        tradeId,
        accountId: "acct_alice",
        network: "ethereum",
        tokenIn: "USDC",
        tokenOut: "ETH",
        amountIn: 10n * ONE_USDC
      })
    w.engine.injectFault("ethereum", "outage", 60_000, START)
    ethTrade("trd_during")
    w.loop.advanceTo(START + 70_000)
    ethTrade("trd_before")
    w.loop.advanceBy(1)
    w.engine.injectFault("ethereum", "outage", 60_000, w.loop.now)
    w.loop.advanceTo(START + 200_000)
    ethTrade("trd_after")
    w.loop.drain()
    assert.strictEqual(failure(only(w, "trd_during")).reason, "NETWORK_ERROR")
    assert.strictEqual(failure(only(w, "trd_before")).reason, "NETWORK_ERROR")
    expectEvent(only(w, "trd_after"), "Confirmed")
    assert.deepStrictEqual(
      w.logs.filter((l) => l.type.startsWith("fault.")).map((l) => [l.type, l.at - START]),
      [["fault.started", 0], ["fault.ended", 60_000], ["fault.started", 70_001], ["fault.ended", 130_001]]
    )
  })

  it("WALLET_REJECTED: the wallet rejects; the hold is released and the timeout does nothing", () => {
    const w = world()
    const events = startTrade(w, {
      tradeId: "trd_1",
      accountId: "acct_bob",
      network: "solana",
      tokenIn: "USDC",
      tokenOut: "SOL",
      amountIn: 200n * ONE_USDC
    })
    assert.deepStrictEqual(events, [])
    assert.strictEqual(w.engine.stageOf("trd_1"), "awaiting_approval")
    assert.deepStrictEqual(balance(w, "acct_bob", "solana", "USDC"), {
      free: 300n * ONE_USDC,
      reserved: 200n * ONE_USDC
    })
    w.loop.advanceBy(60_000)
    const rejected = expectEvent(w.engine.decide("trd_1", false, w.loop.now), "Rejected")
    assert.strictEqual(rejected.at, START + 60_000)
    assert.deepStrictEqual(balance(w, "acct_bob", "solana", "USDC"), { free: 500n * ONE_USDC, reserved: 0n })
    w.loop.drain()
    assert.strictEqual(w.emitted.length, 0)
    assert.throws(() => w.engine.decide("trd_1", true, w.loop.now))
  })

  it("APPROVAL_TIMEOUT exactly 10 minutes after submit, releasing the hold", () => {
    const w = world()
    const trade = {
      accountId: "acct_bob",
      network: "solana",
      tokenIn: "USDC",
      tokenOut: "SOL",
      amountIn: 200n * ONE_USDC
    } as const
    startTrade(w, { ...trade, tradeId: "trd_1" })
    w.loop.advanceTo(START + APPROVAL_TIMEOUT_MS - 1)
    assert.strictEqual(w.emitted.length, 0)
    w.loop.advanceBy(1)
    const timedOut = expectEvent(only(w, "trd_1"), "ApprovalTimedOut")
    assert.strictEqual(timedOut.at, START + APPROVAL_TIMEOUT_MS)
    assert.deepStrictEqual(balance(w, "acct_bob", "solana", "USDC"), { free: 500n * ONE_USDC, reserved: 0n })
    assert.throws(() => w.engine.decide("trd_1", true, w.loop.now))

    // A decision that arrives at the deadline, before the timeout ran, is answered as the timeout.
    startTrade(w, { ...trade, tradeId: "trd_2" })
    expectEvent(w.engine.decide("trd_2", true, w.loop.now + APPROVAL_TIMEOUT_MS), "ApprovalTimedOut")
    w.loop.drain()
    assert.deepStrictEqual(eventsOf(w, "trd_2"), [])
    assert.deepStrictEqual(balance(w, "acct_bob", "solana", "USDC"), { free: 500n * ONE_USDC, reserved: 0n })
  })

  it("an approved trade broadcasts at the approval and then confirms", () => {
    const w = world()
    startTrade(w, {
      tradeId: "trd_1",
      accountId: "acct_bob",
      network: "solana",
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: ONE_SOL
    })
    w.loop.advanceBy(5 * 60_000)
    const broadcast = expectEvent(w.engine.decide("trd_1", true, w.loop.now), "Broadcast")
    assert.strictEqual(broadcast.at, START + 5 * 60_000)
    w.loop.drain()
    expectEvent(only(w, "trd_1"), "Confirmed")
  })
})

/** One solana trade from the same seed, with or without congestion from its start. */
const solanaTrade = (congested: boolean) => {
  const w = world({ seed: 3 })
  if (congested) w.engine.injectFault("solana", "congestion", 60_000, START)
  aliceUsdcToSol(w, "trd_1", 100n)
  w.loop.drain()
  return { w, includedAt: w.logs.find((l) => l.type === "trade.included")!.at, event: only(w, "trd_1") }
}

describe("faults", () => {
  it("congestion delays inclusion by 5 to 25 blocks and triples gas while it lasts", () => {
    const calm = solanaTrade(false)
    const congested = solanaTrade(true)
    const extraBlocks = (congested.includedAt - calm.includedAt) / 400
    assert.isAtLeast(extraBlocks, CONGESTION_EXTRA_BLOCKS_MIN)
    assert.isAtMost(extraBlocks, CONGESTION_EXTRA_BLOCKS_MAX)
    assert.strictEqual(expectEvent(calm.event, "Confirmed").gasFee, 10_000n)
    assert.strictEqual(expectEvent(congested.event, "Confirmed").gasFee, 30_000n)
    assert.strictEqual(congested.w.engine.gasPrice("solana", START + 59_999), 30_000n)
    assert.strictEqual(congested.w.engine.gasPrice("solana", START + 60_000), 10_000n)
  })

  it("a gas spike multiplies gas by 10, and by 30 with congestion, in quotes too", () => {
    const w = world()
    const request = { network: "ethereum", tokenIn: "USDC", tokenOut: "ETH", amountIn: 10n * ONE_USDC } as const
    const base = w.engine.quote(request, START).gasFee
    assert.strictEqual(base, 150_000n * 10_000_000_000n)
    w.engine.injectFault("ethereum", "gas_spike", 120_000, START)
    assert.strictEqual(w.engine.quote(request, START).gasFee, base * 10n)
    w.engine.injectFault("ethereum", "congestion", 60_000, START)
    assert.strictEqual(w.engine.quote(request, START).gasFee, base * 30n)
    assert.deepStrictEqual(w.engine.status("ethereum", START), {
      gasPrice: 300_000_000_000n,
      outage: false,
      congestion: true,
      gasSpike: true
    })
    assert.strictEqual(w.engine.quote(request, START + 60_000).gasFee, base * 10n)
    assert.strictEqual(w.engine.quote(request, START + 120_000).gasFee, base)
    assert.strictEqual(w.engine.gasPrice("solana", START), 10_000n, "faults stay on their network")
  })
})

describe("pricing", () => {
  it("quotes the two-pool constant-product output, floored to base units", () => {
    const w = world()
    const { grossOut } = w.engine.quote(
      { network: "solana", tokenIn: "SOL", tokenOut: "USDC", amountIn: ONE_SOL },
      START
    )
    const value = new MoneyDecimal(150)
    const afterSol = value.mul(5_000_000).div(value.add(5_000_000))
    const afterUsdc = afterSol.mul(500_000_000).div(afterSol.add(500_000_000))
    assert.strictEqual(grossOut, BigInt(afterUsdc.mul(1_000_000).floor().toFixed(0)))
  })

  it("price impact grows with size and the rate falls", () => {
    const w = world()
    const quotes = [1n, 10n, 100n, 1_000n, 10_000n, 100_000n].map((sol) => ({
      sol,
      quote: w.engine.quote({ network: "solana", tokenIn: "SOL", tokenOut: "USDC", amountIn: sol * ONE_SOL }, START)
    }))
    for (let i = 1; i < quotes.length; i++) {
      const smaller = quotes[i - 1]!, larger = quotes[i]!
      assert.isAbove(larger.quote.priceImpactPercent, smaller.quote.priceImpactPercent)
      // Rate comparison without division: out_l / sol_l < out_s / sol_s.
      assert.isTrue(larger.quote.grossOut * smaller.sol < smaller.quote.grossOut * larger.sol)
    }
    assert.isBelow(quotes[0]!.quote.priceImpactPercent, 0.01)
    assert.isAbove(quotes.at(-1)!.quote.priceImpactPercent, 50)
  })

  it("an executed swap moves the market: a sell of tokenIn and a buy of tokenOut at inclusion", () => {
    const w = world()
    startTrade(w, {
      tradeId: "trd_whale",
      accountId: "acct_whale",
      network: "solana",
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: 10_000n * ONE_SOL,
      slippage: 50
    })
    w.loop.drain()
    expectEvent(only(w, "trd_whale"), "Confirmed")
    const included = w.logs.find((l) => l.type === "trade.included")!
    const [sell, buy] = w.market.swaps
    assert.strictEqual(w.market.swaps.length, 2)
    assert.deepStrictEqual(sell, {
      at: included.at,
      symbol: "SOL",
      network: "solana",
      side: "sell",
      valueUsd: 1_500_000
    })
    assert.strictEqual(buy!.side, "buy")
    assert.strictEqual(buy!.symbol, "USDC")
    assert.isBelow(buy!.valueUsd, 1_500_000)
    assert.isAbove(buy!.valueUsd, 1_000_000)
    assert.isBelow(w.market.priceUsd("SOL"), 150, "the sell pushed SOL down")
  })
})
