// Proves, through the whole stack (`layerSimulator` on a manual clock: the core's `Trades` and `Alerts` use cases,
// the ports, the chain, the market), by fast-check over generated scenarios and call sequences (pinned seed), that:
// after every call each wallet line holds exactly what the trade records say it must (free and reserved, with a
// failed trade's input fully back and only executed gas gone) and the engine's own invariants hold; no trade stays
// pending past its network's completion bound, and none is left pending at the end; at the end every line balances
// as start = free + reserved + sent − received + gas with sent, received and gas summed from the confirmed and failed
// TradeRecords in the repository (and the engine's ledger agrees); and the live candles served by the `PriceFeed`
// port keep their invariants (OHLC bounds, alignment, contiguity, gaps flat) and show every price set.
import { assert, describe, it } from "@effect/vitest"
import { test } from "@fast-check/vitest"
import {
  nativeTokenOf,
  type Network,
  networks,
  parseAmount,
  simulatorCatalog,
  type Timeframe,
  timeframeMs,
  type TradeRecord
} from "@swapdesk/core"
import { Effect, Result } from "effect"
import type { ScenarioFile } from "../src/Scenario.ts"
import type { Simulation } from "../src/Simulation.ts"
import { candleViolation } from "./market/fixtures.ts"
import { type Probe, runWorkload, tokensOn, workloadArb, workloadTokens } from "./SimulatorWorkload.ts"

type Books = Map<string, { free: bigint; reserved: bigint }>

const lineKey = (accountId: string, network: Network, token: string) => `${accountId}/${network}/${token}`

const units = (amount: string, token: string): bigint => {
  const parsed = amount === "0" ? Result.succeed(0n) : parseAmount(amount, simulatorCatalog.tokenOf(token).decimals)
  if (Result.isFailure(parsed)) throw new Error(`${token} ${amount}: ${parsed.failure}`)
  return parsed.success
}

/** Every line's starting balance, read from the scenario file itself. */
const startOf = (scenario: ScenarioFile): Map<string, bigint> => {
  const start = new Map<string, bigint>()
  for (const account of scenario.accounts ?? []) {
    for (const wallet of account.wallets ?? []) {
      for (const [token, amount] of Object.entries(wallet.balances ?? {})) {
        start.set(lineKey(account.id, wallet.network, token), units(amount, token))
      }
    }
  }
  return start
}

/** Gas each trade paid, from the `gas.burned` entries of the event log. */
const gasFromLog = (sim: Simulation): Map<string, bigint> => {
  const gas = new Map<string, bigint>()
  for (const event of sim.log.all) {
    if (event.type !== "gas.burned") continue
    const tradeId = String(event.data["tradeId"])
    gas.set(tradeId, (gas.get(tradeId) ?? 0n) + units(String(event.data["amount"]), String(event.data["token"])))
  }
  return gas
}

const isPending = (trade: TradeRecord) => trade.stage === "awaiting_approval" || trade.stage === "broadcast"

/**
 * What every line must hold, from the scenario and the trade records alone: a pending trade's input is reserved,
 * a confirmed trade's input is gone and its output arrived, a failed trade's input is back in free balance, and
 * the gas of every executed transaction is gone from the native line (a pending trade's from the log, since its
 * record learns the gas only when it ends).
 */
const expectedBooks = (scenario: ScenarioFile, records: ReadonlyArray<TradeRecord>, gasPaid: Map<string, bigint>) => {
  const books: Books = new Map()
  for (const [key, amount] of startOf(scenario)) books.set(key, { free: amount, reserved: 0n })
  const move = (accountId: string, network: Network, token: string, free: bigint, reserved: bigint) => {
    const key = lineKey(accountId, network, token)
    const line = books.get(key) ?? { free: 0n, reserved: 0n }
    books.set(key, { free: line.free + free, reserved: line.reserved + reserved })
  }
  for (const trade of records) {
    const { accountId, network } = trade
    const gas = gasPaid.get(trade.id) ?? 0n
    if (isPending(trade)) {
      move(accountId, network, trade.tokenIn, -trade.amountIn, trade.amountIn)
    } else {
      assert.strictEqual(trade.gasFee ?? 0n, gas, `${trade.id}: the record's gasFee is the gas the chain burned`)
      if (trade.stage === "confirmed") {
        move(accountId, network, trade.tokenIn, -trade.amountIn, 0n)
        move(accountId, network, trade.tokenOut, trade.amountOut!, 0n)
      }
    }
    move(accountId, network, nativeTokenOf(network), -gas, 0n)
  }
  return books
}

const checkBooks = (probe: Probe) => {
  const { records, scenario, sim } = probe
  sim.wallets.checkInvariants()
  const expected = expectedBooks(scenario, records, gasFromLog(sim))
  const actual: Books = new Map(
    sim.wallets.ledger().map((l) => [lineKey(l.accountId, l.network, l.token), { free: l.free, reserved: l.reserved }])
  )
  for (const key of new Set([...expected.keys(), ...actual.keys()])) {
    const want = expected.get(key) ?? { free: 0n, reserved: 0n }
    const got = actual.get(key) ?? { free: 0n, reserved: 0n }
    assert.deepStrictEqual({ key, ...got }, { key, ...want }, `after ${probe.outcome}`)
    assert.isTrue(got.free >= 0n && got.reserved >= 0n, `${key} went negative`)
  }
}

/** No trade is pending longer than its network's bound; the engine and the record agree on where it is. */
const checkLifecycle = (probe: Probe) => {
  const { records, sim } = probe
  for (const trade of records) {
    const stage = sim.chain.stageOf(trade.id)
    assert.strictEqual(stage === "included" ? "broadcast" : stage, trade.stage, `${trade.id}: engine vs record`)
    if (isPending(trade)) {
      assert.isAtMost(sim.now - trade.createdAt, sim.chain.completionBoundMs(trade.network), `${trade.id} overdue`)
    } else {
      assert.isUndefined(sim.wallets.hold(trade.id), `${trade.id} ended but its hold is still open`)
    }
  }
}

/** A price set through the control service is what the `PriceFeed` port and the current candle show. */
const checkPriceSet = (probe: Probe) =>
  Effect.gen(function*() {
    if (probe.command?.kind !== "price") return
    const token = workloadTokens[probe.command.token]!
    const price = Number(probe.outcome.split(" ")[2])
    assert.strictEqual((yield* probe.feed.priceUsd(token)).toNumber(), price)
    const now = probe.sim.now
    const [minute] = yield* probe.feed.candles(token, "1m", now - (now % 60_000), now + 1)
    assert.strictEqual(minute?.close, price, `the current candle of ${token} closes at the price set`)
    assert.isAtLeast(minute!.high, price)
    assert.isAtMost(minute!.low, price)
  })

const endTimeOf = (sim: Simulation, trade: TradeRecord): number => {
  if (trade.stage === "confirmed") return trade.confirmedAt!
  const failed = sim.log.all.find((e) => e.type === "trade.failed" && e.data["id"] === trade.id)
  assert.isDefined(failed, `${trade.id}: no trade.failed event in the log`)
  return Date.parse(failed!.at)
}

/** What each outcome was seen, over all runs: the workloads must reach every one. */
const seen = new Map<string, number>()
const see = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1)

const checkEnd = (probe: Probe) => {
  const { records, scenario, sim } = probe
  checkBooks(probe)
  assert.deepStrictEqual(sim.wallets.openHolds(), [], "holds left open at the end")
  for (const trade of records) {
    assert.include(["confirmed", "failed"], trade.stage, `${trade.id} still pending at the end`)
    see(trade.failureReason ?? trade.stage)
    assert.isAtMost(endTimeOf(sim, trade) - trade.createdAt, sim.chain.completionBoundMs(trade.network), trade.id)
    const executed = trade.stage === "confirmed" || trade.failureReason === "SLIPPAGE_EXCEEDED"
    assert.strictEqual((trade.gasFee ?? 0n) > 0n, executed, `${trade.id}: gas is paid exactly when executed`)
  }
  // start == free + reserved + sent − received + gas, with sent, received and gas from the records alone.
  const start = startOf(scenario)
  for (const line of sim.wallets.ledger()) {
    const here = records.filter((t) => t.accountId === line.accountId && t.network === line.network)
    const confirmed = here.filter((t) => t.stage === "confirmed")
    const sent = confirmed.filter((t) => t.tokenIn === line.token).reduce((sum, t) => sum + t.amountIn, 0n)
    const received = confirmed.filter((t) => t.tokenOut === line.token).reduce((sum, t) => sum + t.amountOut!, 0n)
    const gas = nativeTokenOf(line.network) === line.token ? here.reduce((sum, t) => sum + (t.gasFee ?? 0n), 0n) : 0n
    const where = lineKey(line.accountId, line.network, line.token)
    assert.strictEqual(start.get(where) ?? 0n, line.free + line.reserved + sent - received + gas, where)
    assert.deepStrictEqual(
      { where, sent: line.sent, received: line.received, gas: line.gasBurned, reserved: line.reserved },
      { where, sent, received, gas, reserved: 0n },
      "the engine's ledger agrees with the records"
    )
  }
}

const chartTimeframes: ReadonlyArray<Timeframe> = ["1m", "5m", "1h", "1d"]

/** Candle invariants on the live data, for the tokens the run traded most and the natives. */
const checkCandles = (probe: Probe) =>
  Effect.gen(function*() {
    const { feed, records, sim } = probe
    const traded = records.filter((t) => t.stage === "confirmed").flatMap((t) => [t.tokenIn, t.tokenOut])
    const symbols = [...new Set(["SOL", "ETH", ...traded])].slice(0, 4)
    const historyStart = sim.market.historyStartMs
    for (const symbol of symbols) {
      const network = networks.find((n) => tokensOn[n].includes(symbol))
      for (const scope of [undefined, network]) {
        for (const timeframe of chartTimeframes) {
          const periodMs = timeframeMs[timeframe]
          const candles = yield* feed.candles(symbol, timeframe, historyStart, sim.now + 86_400_000, scope)
          const what = `${symbol}/${scope ?? "all"}/${timeframe}`
          assert.isUndefined(candleViolation(candles, periodMs), what)
          assert.strictEqual(candles[0]?.openTime, historyStart, `${what} starts with history`)
          assert.strictEqual(candles.at(-1)?.openTime, sim.now - (sim.now % periodMs), `${what} ends now`)
        }
      }
    }
  })

describe("the simulator, full stack, under random workloads", () => {
  test.prop([workloadArb({ minLength: 5, maxLength: 40 })], { seed: 20260101, numRuns: 50 })(
    "funds are conserved, failures refund, every trade ends in time, candles hold",
    async (workload) => {
      const result = await runWorkload(workload, {
        afterCommand: (probe) =>
          Effect.andThen(
            Effect.sync(() => {
              checkBooks(probe)
              checkLifecycle(probe)
            }),
            checkPriceSet(probe)
          ),
        atEnd: (probe) => Effect.andThen(Effect.sync(() => checkEnd(probe)), checkCandles(probe))
      })
      for (const outcome of result.outcomes) {
        if (outcome.startsWith("create refused")) see(outcome.slice("create refused ".length))
      }
    }
  )

  it("the workloads reached every outcome", () => {
    for (
      const outcome of [
        "confirmed",
        "NETWORK_ERROR",
        "INSUFFICIENT_GAS",
        "SLIPPAGE_EXCEEDED",
        "WALLET_REJECTED",
        "APPROVAL_TIMEOUT",
        "InsufficientBalance",
        "WalletNotConnected"
      ]
    ) {
      assert.isAbove(seen.get(outcome) ?? 0, 0, `no run reached ${outcome}: ${JSON.stringify([...seen])}`)
    }
  })
})
