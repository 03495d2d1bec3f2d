// Proves, by fast-check over random workloads (pinned seed): generated wallets, then submits of random
// sizes, tokens and networks by delegated and non-delegated wallets, approvals and rejections,
// faults, price moves and time advances, that (1) the ledger balances and no balance goes negative
// after every action, (2) each action moves exactly the funds its event says (a failure returns the
// input exactly, less only the gas it burned), (3) every trade follows the trade state machine and
// ends confirmed or failed within the completion bound, (4) at the end every balance equals its
// start plus confirmed outputs minus confirmed inputs minus gas, and (5) replaying the workload
// gives identical events, logs and balances.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import {
  decimalToUnitsFloor,
  MoneyDecimal,
  nativeTokenOf,
  type Network,
  networks,
  simulatorCatalog,
  TradeEvent,
  type TradeStage,
  tradeTransitions
} from "@swapdesk/core"
import { tradeCompletionBoundMs } from "../../src/chain/ChainEngine.ts"
import { defaultNetworkParams } from "../../src/chain/NetworkParams.ts"
import type { LedgerLine, WalletSpec } from "../../src/chain/WalletBook.ts"
import { decideArb, type DecideCall, faultArb, type FaultCall, swapArb, type SwapCall } from "../WorkloadCalls.ts"
import {
  defaultPrices,
  kindOf,
  makeWorld,
  startTrade,
  toJson,
  tokensOn,
  type TradeArgs,
  type World
} from "./harness.ts"

const accounts = ["acct_p", "acct_q"] as const

interface WalletPlan {
  readonly delegatedSigning: boolean
  readonly native: "none" | "tiny" | "rich"
  /** Dollars' worth of each non-native token, in tens. */
  readonly holdings: ReadonlyArray<number>
}

type Command =
  | SwapCall<"submit">
  | DecideCall
  | FaultCall
  | { readonly kind: "price"; readonly symbol: string; readonly permille: number }
  | { readonly kind: "advance"; readonly ms: number }

interface Workload {
  readonly seed: number
  readonly failureRate: number
  readonly wallets: ReadonlyArray<WalletPlan>
  readonly commands: ReadonlyArray<Command>
}

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: swapArb("submit", {
      accounts: accounts.length,
      tokensIn: 4,
      tokensOut: 4,
      // Up to 110% of the free balance: some submits are refused for insufficient balance.
      permille: fc.integer({ min: 1, max: 1100 }),
      slippages: [0.1, 0.5, 1, 5, 50]
    })
  },
  { weight: 3, arbitrary: decideArb(21) },
  { weight: 1, arbitrary: faultArb(["outage", "congestion", "gas_spike"], 300_000) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("price" as const),
      symbol: fc.constantFrom(...Object.keys(defaultPrices)),
      permille: fc.integer({ min: 900, max: 1100 })
    })
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 120_000 }) })
  }
)

const walletPlanArb: fc.Arbitrary<WalletPlan> = fc.record({
  delegatedSigning: fc.boolean(),
  native: fc.constantFrom("none" as const, "tiny" as const, "rich" as const),
  holdings: fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 3, maxLength: 3 })
})

const workloadArb: fc.Arbitrary<Workload> = fc.record({
  seed: fc.integer({ min: 0, max: 1_000_000 }),
  failureRate: fc.constantFrom(0, 0.05, 0.3),
  wallets: fc.array(walletPlanArb, { minLength: 8, maxLength: 8 }),
  commands: fc.array(commandArb, { minLength: 5, maxLength: 40, size: "max" })
})

const planKey = (account: number, network: Network) => account * networks.length + networks.indexOf(network)

const walletSpecs = (workload: Workload): Array<WalletSpec> =>
  accounts.flatMap((accountId, account) =>
    networks.map((network): WalletSpec => {
      const plan = workload.wallets[planKey(account, network)]!
      const native = nativeTokenOf(network)
      const params = defaultNetworkParams[network]
      const gas = BigInt(params.gasUnitsPerSwap) * params.baseGasPrice
      const balances: Record<string, bigint> = {
        // "tiny" pays about two calm swaps: congestion or a spike then runs it dry.
        [native]: plan.native === "none"
          ? 0n
          : plan.native === "tiny"
          ? 2n * gas + 1n
          : 5n * 10n ** BigInt(simulatorCatalog.tokenOf(native).decimals)
      }
      tokensOn[network].filter((t) => t !== native).forEach((symbol, i) => {
        const usd = new MoneyDecimal(plan.holdings[i] ?? 0).mul(10)
        balances[symbol] = decimalToUnitsFloor(
          usd.div(defaultPrices[symbol]!),
          simulatorCatalog.tokenOf(symbol).decimals
        )
      })
      return {
        accountId,
        network,
        address: network === "solana" ? `So1anaWa11et${accountId}` : `0x${accountId.padStart(40, "0")}`,
        delegatedSigning: plan.delegatedSigning,
        balances
      }
    })
  )

/** A started trade (what it was started with, less the slippage) and how far it has come. */
interface TradeTrack extends Omit<TradeArgs, "slippage"> {
  readonly submittedAt: number
  stage: TradeStage
  amountOut: bigint
  gasFee: bigint
}

/** What each outcome was seen, over all runs: the workloads must reach every one. */
const outcomes = new Map<string, number>()

type Snapshot = Map<string, { readonly free: bigint; readonly reserved: bigint }>

const lineKey = (accountId: string, network: Network, token: string) => `${accountId}/${network}/${token}`

const snapshot = (world: World): Snapshot =>
  new Map(
    world.wallets.ledger().map((
      l
    ) => [lineKey(l.accountId, l.network, l.token), { free: l.free, reserved: l.reserved }])
  )

/** Adds an expected change to one line. */
const expectChange = (
  deltas: Map<string, { free: bigint; reserved: bigint }>,
  key: string,
  free: bigint,
  reserved: bigint
) => {
  const current = deltas.get(key) ?? { free: 0n, reserved: 0n }
  deltas.set(key, { free: current.free + free, reserved: current.reserved + reserved })
}

/**
 * Checks that the funds moved between two snapshots are exactly what the trade's event implies,
 * and nothing else moved, except the gas that executed transactions paid without an event.
 */
const checkMovement = (
  before: Snapshot,
  after: Snapshot,
  trade: TradeTrack | undefined,
  event: TradeEvent | undefined
) => {
  const deltas = new Map<string, { free: bigint; reserved: bigint }>()
  if (trade !== undefined && event !== undefined) {
    const input = lineKey(trade.accountId, trade.network, trade.tokenIn)
    const native = lineKey(trade.accountId, trade.network, nativeTokenOf(trade.network))
    if (TradeEvent.$is("Failed")(event)) {
      // The input comes back whole; only the gas it burned (SLIPPAGE_EXCEEDED) is gone.
      expectChange(deltas, input, trade.amountIn, -trade.amountIn)
      expectChange(deltas, native, -event.gasFee, 0n)
    } else if (TradeEvent.$is("Rejected")(event) || TradeEvent.$is("ApprovalTimedOut")(event)) {
      expectChange(deltas, input, trade.amountIn, -trade.amountIn)
    } else if (TradeEvent.$is("Confirmed")(event)) {
      expectChange(deltas, input, 0n, -trade.amountIn)
      expectChange(deltas, lineKey(trade.accountId, trade.network, trade.tokenOut), event.amountOut, 0n)
    }
  }
  for (const [key, now] of after) {
    const was = before.get(key) ?? { free: 0n, reserved: 0n }
    const want = deltas.get(key) ?? { free: 0n, reserved: 0n }
    const free = now.free - was.free, reserved = now.reserved - was.reserved
    if (event === undefined && free < 0n && reserved === 0n && key.match(/\/(SOL|ETH)$/)) continue // gas at inclusion
    assert.deepStrictEqual({ key, free, reserved }, { key, free: want.free, reserved: want.reserved })
  }
}

interface RunResult {
  readonly emitted: string
  readonly logs: string
  readonly ledger: ReadonlyArray<LedgerLine>
}

const run = (workload: Workload): RunResult => {
  const wallets = walletSpecs(workload)
  const world = makeWorld({
    seed: workload.seed,
    wallets,
    networks: Object.fromEntries(networks.map((n) => [n, { failureRate: workload.failureRate }]))
  })
  const trades = new Map<string, TradeTrack>()

  const apply = (tradeId: string, event: TradeEvent) => {
    const trade = trades.get(tradeId)!
    const kind = kindOf(event)
    const row = tradeTransitions[kind]
    assert.strictEqual(trade.stage, row.from, `${tradeId}: ${kind} from ${trade.stage}`)
    trade.stage = row.to
    if (TradeEvent.$is("Confirmed")(event)) {
      trade.amountOut = event.amountOut
      trade.gasFee = event.gasFee
      assert.strictEqual(event.fee, (((event.amountOut + event.fee) * 25n) + 9_999n) / 10_000n, "fee is 0.25% up")
    }
    if (TradeEvent.$is("Failed")(event)) trade.gasFee = event.gasFee
    if (row.to === "confirmed" || row.to === "failed") {
      const key = TradeEvent.$is("Failed")(event) ? event.reason : kind
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
      assert.isAtMost(event.at - trade.submittedAt, tradeCompletionBoundMs(world.params[trade.network]))
    }
  }

  // Every scheduled action: funds move exactly as its event says, and the books balance after it.
  world.loop.around = (action) => {
    const before = snapshot(world)
    const seen = world.emitted.length
    action()
    const fresh = world.emitted.slice(seen)
    assert.isAtMost(fresh.length, 1)
    const emitted = fresh[0]
    if (emitted !== undefined) apply(emitted.tradeId, emitted.event)
    checkMovement(before, snapshot(world), emitted && trades.get(emitted.tradeId), emitted?.event)
  }
  world.loop.afterEach = () => world.wallets.checkInvariants()

  let nextTrade = 0
  for (const command of workload.commands) {
    const before = snapshot(world)
    switch (command.kind) {
      case "submit": {
        const accountId = accounts[command.account]!
        const list = tokensOn[command.network]
        const tokenIn = list[command.tokenIn % list.length]!
        const tokenOut = list[(command.tokenIn + 1 + (command.tokenOut % (list.length - 1))) % list.length]!
        const free = world.wallets.free(accountId, command.network, tokenIn)
        const amountIn = (free * BigInt(command.permille)) / 1000n
        if (amountIn === 0n) break
        const args = { tradeId: `trd_${nextTrade++}`, accountId, network: command.network, tokenIn, tokenOut, amountIn }
        const { tradeId } = args
        const events = startTrade(world, { ...args, slippage: command.slippage })
        if (events === undefined) {
          assert.isTrue(amountIn > free, "refused only for want of free balance")
          checkMovement(before, snapshot(world), undefined, undefined)
          break
        }
        const trade: TradeTrack = {
          ...args,
          submittedAt: world.loop.now,
          stage: "awaiting_approval",
          amountOut: 0n,
          gasFee: 0n
        }
        trades.set(tradeId, trade)
        assert.strictEqual(events.length, world.wallets.wallet(accountId, command.network)!.delegatedSigning ? 1 : 0)
        for (const event of events) apply(tradeId, event)
        const moved = snapshot(world)
        const input = lineKey(accountId, command.network, tokenIn)
        assert.deepStrictEqual(moved.get(input), {
          free: before.get(input)!.free - amountIn,
          reserved: before.get(input)!.reserved + amountIn
        })
        break
      }
      case "decide": {
        const waiting = [...trades.values()].filter((t) => t.stage === "awaiting_approval")
        const trade = waiting[command.pick % Math.max(waiting.length, 1)]
        if (trade === undefined) break
        const event = world.engine.decide(trade.tradeId, command.approve, world.loop.now)
        apply(trade.tradeId, event)
        checkMovement(before, snapshot(world), trade, event)
        break
      }
      case "fault":
        world.engine.injectFault(command.network, command.fault, command.durationMs, world.loop.now)
        break
      case "price":
        world.market.setPrice(command.symbol, world.market.priceUsd(command.symbol) * command.permille / 1000)
        break
      case "advance":
        world.loop.advanceBy(command.ms)
        break
    }
    world.wallets.checkInvariants()
  }
  world.loop.drain()
  world.wallets.checkInvariants()

  // Every trade ended, every hold is gone, and the engine agrees with the state machine.
  assert.deepStrictEqual(world.wallets.openHolds(), [])
  for (const trade of trades.values()) {
    assert.include(["confirmed", "failed"], trade.stage, trade.tradeId)
    assert.strictEqual(world.engine.stageOf(trade.tradeId), trade.stage)
  }

  // start == free + reserved + sent_by_confirmed - received_by_confirmed + gasBurned, from the events alone.
  const ledger = world.wallets.ledger()
  for (const line of ledger) {
    const here = (t: TradeTrack) => t.accountId === line.accountId && t.network === line.network
    const confirmed = [...trades.values()].filter((t) => here(t) && t.stage === "confirmed")
    const sent = confirmed.filter((t) => t.tokenIn === line.token).reduce((s, t) => s + t.amountIn, 0n)
    const received = confirmed.filter((t) => t.tokenOut === line.token).reduce((s, t) => s + t.amountOut, 0n)
    const gas = nativeTokenOf(line.network) === line.token
      ? [...trades.values()].filter(here).reduce((s, t) => s + t.gasFee, 0n)
      : 0n
    const start = wallets.find((w) =>
      w.accountId === line.accountId && w.network === line.network
    )!.balances[line.token]
      ?? 0n
    assert.deepStrictEqual(
      { line: `${line.accountId}/${line.network}/${line.token}`, sent, received, gas, reserved: 0n },
      {
        line: `${line.accountId}/${line.network}/${line.token}`,
        sent: line.sent,
        received: line.received,
        gas: line.gasBurned,
        reserved: line.reserved
      }
    )
    assert.strictEqual(start, line.free + line.reserved + sent - received + gas)
    assert.isTrue(line.free >= 0n)
  }
  return { emitted: toJson(world.emitted), logs: toJson(world.logs), ledger }
}

describe("chain conservation", () => {
  test.prop([workloadArb], { seed: 424242, numRuns: 300 })(
    "funds are conserved, trades end within the bound, and runs replay exactly",
    (workload) => {
      const first = run(workload)
      const second = run(workload)
      assert.strictEqual(second.emitted, first.emitted)
      assert.strictEqual(second.logs, first.logs)
      assert.deepStrictEqual(second.ledger, first.ledger)
    }
  )

  it("the workloads reached every outcome", () => {
    for (const outcome of ["Confirmed", "SLIPPAGE_EXCEEDED", "INSUFFICIENT_GAS", "NETWORK_ERROR", "Rejected"]) {
      assert.isAbove(outcomes.get(outcome) ?? 0, 0, `${outcome} never happened: ${toJson([...outcomes])}`)
    }
    // Timeouts come from trades nobody decided on, which the final drain runs out.
    assert.isAbove(outcomes.get("ApprovalTimedOut") ?? 0, 0)
  })
})
