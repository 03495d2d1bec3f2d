/**
 * Random workloads for the full-stack simulator properties: a generated scenario (seed, start,
 * network overrides, two accounts with random wallets) and a sequence of the calls a client makes
 * (trades through `Trades.create` and `Trades.decide`, alerts through `Alerts.create`, and the
 * control operations `setPrice`, `injectFault`, `whale` and `advance`), run through
 * `layerSimulator` on a manual clock. The driver checks every call's answer against what the
 * contract says it must be, records it, and lets a test look at the world after each call.
 */
import { assert } from "@effect/vitest"
import { fc } from "@fast-check/vitest"
import {
  Alerts,
  type CreateAlertBody,
  decimalToUnitsFloor,
  formatAmount,
  MoneyDecimal,
  nativeTokenOf,
  type Network,
  networks,
  PriceFeed,
  simulatorCatalog,
  type TradeRecord,
  TradeRepository,
  Trades
} from "@swapdesk/core"
import { Effect, Layer, Option } from "effect"
import { defaultNetworkParams } from "../src/chain/NetworkParams.ts"
import { defaultMarketParams } from "../src/market/MarketParams.ts"
import { decodeScenario, type ScenarioFile } from "../src/Scenario.ts"
import type { Simulation } from "../src/Simulation.ts"
import { SimulationState } from "../src/SimulationState.ts"
import { layerSimulator } from "../src/Simulator.ts"
import { SimulatorControl } from "../src/SimulatorControl.ts"
import { decideArb, faultArb, priceArb, swapArb, whaleArb } from "./WorkloadCalls.ts"
import type { DecideCall, FaultCall, PriceCall, SwapCall, WhaleCall } from "./WorkloadCalls.ts"

/** The two accounts every workload has: a Free one notified by email, a Pro one on telegram. */
export const workloadAccounts = [
  { id: "acct_free", plan: "free", channel: "email", notifications: { email: "free@example.com" } },
  { id: "acct_pro", plan: "pro", channel: "telegram", notifications: { telegram: { chatId: "4242" } } }
] as const

/** Tokens traded on each network, native first. */
export const tokensOn: Readonly<Record<Network, ReadonlyArray<string>>> = {
  solana: ["SOL", "USDC", "BONK", "JUP", "WIF"],
  ethereum: ["ETH", "USDC", "WBTC", "LINK", "WETH"],
  base: ["ETH", "USDC", "AERO", "DEGEN"],
  arbitrum: ["ETH", "USDC", "ARB", "GMX"]
}

export const workloadTokens: ReadonlyArray<string> = [...new Set(Object.values(tokensOn).flat())]

const startPrice = (symbol: string): number => defaultMarketParams.find((p) => p.symbol === symbol)!.priceUsd

export interface WalletPlan {
  readonly present: boolean
  readonly delegatedSigning: boolean
  /** `tiny` pays about two calm swaps, so congestion or a gas spike runs it dry. */
  readonly native: "none" | "tiny" | "rich"
  /** Dollars' worth of each non-native token of the network. */
  readonly holdingsUsd: ReadonlyArray<number>
}

export interface NetworkOverride {
  readonly failureRate?: number
  readonly confirmations?: number
  readonly blockTimeMs?: number
}

export type Command =
  | SwapCall<"create">
  | DecideCall
  | PriceCall
  | FaultCall
  | WhaleCall
  | {
    readonly kind: "alert"
    readonly account: number
    readonly token: number
    readonly rule: "above" | "below" | "whale" | "volume" | "portfolio"
    readonly permille: number
  }
  | { readonly kind: "advance"; readonly ms: number }

export interface Workload {
  readonly seed: number
  readonly start: string
  readonly networks: Readonly<Partial<Record<Network, NetworkOverride>>>
  /** One plan per (account, network), accounts-major. */
  readonly wallets: ReadonlyArray<WalletPlan>
  readonly commands: ReadonlyArray<Command>
}

const overrideArb: fc.Arbitrary<NetworkOverride> = fc
  .record({
    failureRate: fc.option(fc.constantFrom(0, 0.05, 0.3), { nil: undefined }),
    confirmations: fc.option(fc.constantFrom(0, 1, 4), { nil: undefined }),
    blockTimeMs: fc.option(fc.constantFrom(250, 1_000, 3_000), { nil: undefined })
  })
  .map((o) => ({
    ...(o.failureRate === undefined ? {} : { failureRate: o.failureRate }),
    ...(o.confirmations === undefined ? {} : { confirmations: o.confirmations }),
    ...(o.blockTimeMs === undefined ? {} : { blockTimeMs: o.blockTimeMs })
  }))

const walletPlanArb: fc.Arbitrary<WalletPlan> = fc.record({
  present: fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  delegatedSigning: fc.boolean(),
  native: fc.constantFrom("none" as const, "tiny" as const, "rich" as const),
  holdingsUsd: fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 4, maxLength: 4 })
})

export const commandArb: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 6,
    arbitrary: swapArb("create", {
      accounts: workloadAccounts.length,
      tokensIn: 5,
      tokensOut: 4,
      permille: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 1_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1_001, max: 1_500 }) },
        { weight: 1, arbitrary: fc.constantFrom(1_000, 1_001) }
      ),
      slippages: [0.01, 0.1, 0.5, 3, 50]
    })
  },
  { weight: 3, arbitrary: decideArb(13) },
  { weight: 2, arbitrary: priceArb(workloadTokens.length, { min: 700, max: 1_300 }) },
  { weight: 1, arbitrary: faultArb(["outage", "congestion", "gas_spike"], 240_000) },
  { weight: 1, arbitrary: whaleArb },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("alert" as const),
      account: fc.nat(workloadAccounts.length - 1),
      token: fc.nat(workloadTokens.length - 1),
      rule: fc.constantFrom(
        "above" as const,
        "below" as const,
        "whale" as const,
        "volume" as const,
        "portfolio" as const
      ),
      permille: fc.integer({ min: 980, max: 1_020 })
    })
  },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 60_000 }) })
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.integer({ min: 60_000, max: 660_000 }) })
  }
)

/** Starts at a UTC midnight, mid-minute, and a second before a new year. */
export const workloadStarts = ["2026-01-01T00:00:00Z", "2026-03-15T10:17:23Z", "2025-12-31T23:59:59Z"] as const

export const workloadArb = (commands: { readonly minLength: number; readonly maxLength: number }) =>
  fc.record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    start: fc.constantFrom(...workloadStarts),
    networks: fc.record(
      { solana: overrideArb, ethereum: overrideArb, base: overrideArb, arbitrum: overrideArb },
      { requiredKeys: [] }
    ),
    wallets: fc.array(walletPlanArb, {
      minLength: workloadAccounts.length * networks.length,
      maxLength: workloadAccounts.length * networks.length
    }),
    commands: fc.array(commandArb, { ...commands, size: "max" })
  }) satisfies fc.Arbitrary<Workload>

const walletAddress = (accountId: string, network: Network) =>
  network === "solana" ? `So1anaWa11et${accountId}` : `0x${Buffer.from(accountId).toString("hex").padStart(40, "0")}`

/** Balances as a scenario file writes them: decimal strings in the token's units. */
const balancesOf = (plan: WalletPlan, network: Network): Record<string, string> => {
  const native = nativeTokenOf(network)
  const { decimals } = simulatorCatalog.tokenOf(native)
  const params = defaultNetworkParams[network]
  const calmGas = BigInt(params.gasUnitsPerSwap) * params.baseGasPrice
  const balances: Record<string, string> = {}
  if (plan.native === "tiny") balances[native] = formatAmount(2n * calmGas + 1n, decimals)
  if (plan.native === "rich") balances[native] = "5"
  tokensOn[network].filter((t) => t !== native).forEach((symbol, i) => {
    const usd = plan.holdingsUsd[i] ?? 0
    const units = decimalToUnitsFloor(
      new MoneyDecimal(usd).div(startPrice(symbol)),
      simulatorCatalog.tokenOf(symbol).decimals
    )
    // Some lines start at "0" (the scenario allows it), most at a real amount.
    if (usd % 7 !== 3) balances[symbol] = formatAmount(units, simulatorCatalog.tokenOf(symbol).decimals)
  })
  return balances
}

/** The workload's scenario, decoded as a file would be: a generator bug shows as `InvalidScenario`. */
export const scenarioOf = (workload: Workload): ScenarioFile =>
  decodeScenario(JSON.parse(JSON.stringify({
    seed: workload.seed,
    clock: { mode: "manual", start: workload.start },
    historyDays: 1,
    networks: workload.networks,
    accounts: workloadAccounts.map((account, a) => ({
      id: account.id,
      plan: account.plan,
      notifications: account.notifications,
      wallets: networks.flatMap((network, n) => {
        const plan = workload.wallets[a * networks.length + n]!
        return plan.present
          ? [{
            network,
            address: walletAddress(account.id, network),
            delegatedSigning: plan.delegatedSigning,
            balances: balancesOf(plan, network)
          }]
          : []
      })
    }))
  })))

/** What a test sees after each call (and once more at the end, after every trade has ended). */
export interface Probe {
  readonly sim: Simulation
  readonly scenario: ScenarioFile
  readonly command: Command | undefined
  /** What the call answered, as recorded for the replay comparison. */
  readonly outcome: string
  /** Every trade created so far, in creation order, as the repository holds it now. */
  readonly records: ReadonlyArray<TradeRecord>
  readonly feed: PriceFeed["Service"]
}

export interface Observer {
  readonly afterCommand?: (probe: Probe) => Effect.Effect<void>
  readonly atEnd?: (probe: Probe) => Effect.Effect<void>
}

/** A run's observable results, serialised for byte-for-byte comparison. */
export interface RunResult {
  readonly events: string
  readonly outbox: string
  readonly records: string
  readonly outcomes: ReadonlyArray<string>
  readonly ledger: string
  readonly eventCount: number
  readonly tradeCount: number
}

/** JSON with bigints as strings, so records compare as text. */
export const toJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `${v}n` : v))

/** The longest any trade of this simulation can take, over every network. */
export const longestBoundMs = (sim: Simulation): number =>
  Math.max(...networks.map((network) => sim.chain.completionBoundMs(network)))

const drive = (workload: Workload, scenario: ScenarioFile, observer: Observer) =>
  Effect.gen(function*() {
    const sim = yield* SimulationState
    const control = yield* SimulatorControl
    const trades = yield* Trades
    const alerts = yield* Alerts
    const repository = yield* TradeRepository
    const feed = yield* PriceFeed
    const tradeIds: Array<string> = []
    const outcomes: Array<string> = []

    const records = Effect.forEach(tradeIds, (id) =>
      Effect.map(repository.getById(id), (found) => {
        assert.isTrue(Option.isSome(found), `trade ${id} vanished from the repository`)
        return Option.getOrThrow(found)
      }))

    const run = Effect.fn("workload.command")(function*(command: Command) {
      switch (command.kind) {
        case "create": {
          const account = workloadAccounts[command.account]!
          const list = tokensOn[command.network]
          const tokenIn = list[command.tokenIn % list.length]!
          const tokenOut = list[(command.tokenIn + 1 + (command.tokenOut % (list.length - 1))) % list.length]!
          const { decimals } = simulatorCatalog.tokenOf(tokenIn)
          const free = sim.wallets.free(account.id, command.network, tokenIn)
          const units = free === 0n ? BigInt(command.permille) : (free * BigInt(command.permille)) / 1000n
          const wallet = sim.wallets.wallet(account.id, command.network)
          const ledgerBefore = toJson(sim.wallets.ledger())
          const result = yield* Effect.result(trades.create(account.id, {
            tokenIn,
            tokenOut,
            amountIn: formatAmount(units, decimals),
            network: command.network,
            slippage: command.slippage
          }))
          if (result._tag === "Success") {
            const trade = result.success
            assert.isTrue(wallet !== undefined && units > 0n && units <= free, "created only when funded")
            assert.strictEqual(trade.amountIn, units)
            assert.strictEqual(trade.stage, wallet!.delegatedSigning ? "broadcast" : "awaiting_approval")
            assert.strictEqual(trade.createdAt, sim.now)
            tradeIds.push(trade.id)
            return `create ${trade.id} ${trade.stage}`
          }
          const error = result.failure
          // A refused trade changes nothing.
          assert.strictEqual(toJson(sim.wallets.ledger()), ledgerBefore, `${error._tag} moved funds`)
          switch (error._tag) {
            case "ValidationFailed":
              // Zero, or too small to buy any output after the fee.
              assert.deepStrictEqual(error.details.map((d) => d.path), ["amountIn"])
              assert.isTrue(units === 0n || wallet !== undefined, "a dust check needs a wallet to price against")
              break
            case "WalletNotConnected":
              assert.isTrue(wallet === undefined && units > 0n, "WalletNotConnected with a wallet")
              break
            case "InsufficientBalance":
              assert.isTrue(wallet !== undefined && units > free, `InsufficientBalance for ${units} of ${free}`)
              break
            default:
              assert.fail(`unexpected ${error._tag}`)
          }
          return `create refused ${error._tag}`
        }
        case "decide": {
          const all = yield* records
          const waiting = all.filter((t) => t.stage === "awaiting_approval")
          const settled = all.filter((t) => t.stage !== "awaiting_approval")
          // Now and then a decision on a trade that is not waiting, or on no trade at all.
          const target = command.pick === 11
            ? "trd_doesNotExist"
            : command.pick === 10 && settled.length > 0
            ? settled[command.approve ? 0 : settled.length - 1]!.id
            : waiting[command.pick % Math.max(waiting.length, 1)]?.id
          if (target === undefined) return "decide nothing waiting"
          const wasWaiting = waiting.some((t) => t.id === target)
          const result = yield* Effect.result(trades.decide(target, { _tag: command.approve ? "Approve" : "Reject" }))
          if (result._tag === "Failure") {
            const expected = target === "trd_doesNotExist" ? "TradeNotFound" : "TradeNotAwaitingApproval"
            assert.isFalse(wasWaiting, `${target} was waiting but decide failed`)
            assert.strictEqual(result.failure._tag, expected)
            return `decide ${target} ${result.failure._tag}`
          }
          assert.isTrue(wasWaiting, `decided ${target}, which was not waiting`)
          const trade = result.success
          if (command.approve) assert.strictEqual(trade.stage, "broadcast")
          else assert.deepStrictEqual([trade.stage, trade.failureReason], ["failed", "WALLET_REJECTED"])
          return `decide ${target} ${trade.stage}`
        }
        case "price": {
          const token = workloadTokens[command.token]!
          const price = sim.market.priceUsd(token) * command.permille / 1000
          yield* control.setPrice(token, price)
          return `price ${token} ${price}`
        }
        case "fault":
          yield* control.injectFault(command.network, command.fault, command.durationMs)
          return `fault ${command.network} ${command.fault} ${command.durationMs}`
        case "whale": {
          const list = tokensOn[command.network]
          const token = list[command.token % list.length]!
          yield* control.whale(token, command.network, command.valueUsd)
          return `whale ${token} ${command.network} ${command.valueUsd}`
        }
        case "alert": {
          const account = workloadAccounts[command.account]!
          const token = workloadTokens[command.token]!
          const { channel } = account
          const scale = command.permille / 1000
          const body: CreateAlertBody = command.rule === "whale"
            ? { type: "whale", token, minValueUsd: 50_000 * scale, channel }
            : command.rule === "volume"
            ? { type: "volume", token, multiplier: 1.2 * scale, channel }
            : command.rule === "portfolio"
            ? { type: "portfolio", changePercent: 2 * scale, channel }
            : {
              type: "price",
              token,
              condition: command.rule,
              targetPrice: sim.market.priceUsd(token) * scale,
              channel
            }
          const result = yield* Effect.result(alerts.create(account.id, body))
          if (result._tag === "Success") return `alert ${result.success.id}`
          // The Free plan's limit is the only refusal a well-formed alert on a configured channel can meet.
          assert.strictEqual(result.failure._tag, "AlertLimitExceeded")
          assert.strictEqual(account.plan, "free")
          return `alert refused ${result.failure._tag}`
        }
        case "advance":
          return `advance ${yield* control.advance(command.ms)}`
      }
    })

    for (const command of workload.commands) {
      const outcome = yield* run(command)
      outcomes.push(outcome)
      if (observer.afterCommand !== undefined) {
        yield* observer.afterCommand({ sim, scenario, command, outcome, records: yield* records, feed })
      }
    }
    // Past every bound: from here on no trade may still be pending.
    const end = yield* control.advance(longestBoundMs(sim) + 1_000)
    outcomes.push(`end ${end}`)
    const final = yield* records
    if (observer.atEnd !== undefined) {
      yield* observer.atEnd({ sim, scenario, command: undefined, outcome: `end ${end}`, records: final, feed })
    }
    const events = sim.log.all
    return {
      events: JSON.stringify(events),
      outbox: JSON.stringify(sim.outbox.all),
      records: toJson(final),
      outcomes,
      ledger: toJson(sim.wallets.ledger()),
      eventCount: events.length,
      tradeCount: final.length
    } satisfies RunResult
  })

/** Runs a workload on a fresh `layerSimulator` of its scenario. */
export const runWorkload = (workload: Workload, observer: Observer = {}): Promise<RunResult> => {
  const scenario = scenarioOf(workload)
  return Effect.runPromise(
    Effect.scoped(Effect.gen(function*() {
      const context = yield* Layer.build(layerSimulator(scenario))
      return yield* drive(workload, scenario, observer).pipe(Effect.provide(context))
    }))
  )
}
