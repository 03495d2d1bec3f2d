// Proves that a scenario's settings change what the simulated world does, through `layerSimulator` on a manual
// clock and the core's `Trades` use case: `networks.<n>.failureRate` 1 fails every trade there with NETWORK_ERROR
// (and 0 elsewhere confirms them); `blockTimeMs` places inclusion on that network's block boundaries and a longer
// block time confirms later; `confirmations` sets the blocks between inclusion and confirmation exactly; `tokens`
// overrides the starting price and pool depth; `clock.start` and `seed` fix when things happen and which ids and
// hashes they get; a realtime clock refuses manual advances. Times are read from the trade records and the log.
import { assert, describe, it } from "@effect/vitest"
import { type Network, Trades } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { decodeScenario } from "../src/Scenario.ts"
import { SimulationState } from "../src/SimulationState.ts"
import { layerSimulator } from "../src/Simulator.ts"
import { SimulatorControl } from "../src/SimulatorControl.ts"

const ACCOUNT = "acct_net"
const START = "2026-01-01T00:00:00Z"

const scenario = (extra: Record<string, unknown>) =>
  decodeScenario({
    seed: 5,
    historyDays: 1,
    clock: { mode: "manual", start: START },
    accounts: [{
      id: ACCOUNT,
      wallets: [
        {
          network: "solana",
          address: "SoLwallet",
          delegatedSigning: true,
          balances: { SOL: "100", USDC: "10000", JUP: "10000" }
        },
        { network: "base", address: "0xbase", delegatedSigning: true, balances: { ETH: "10", USDC: "10000" } }
      ]
    }],
    ...extra
  })

/** Everything `layerSimulator` provides. */
type World = Layer.Success<ReturnType<typeof layerSimulator>>

/** Runs `body` in a fresh world built from the base scenario with `extra` merged in. */
const inWorld = <A, E>(extra: Record<string, unknown>, body: Effect.Effect<A, E, World>) =>
  Effect.provide(body, layerSimulator(scenario(extra)))

const trade = (network: Network, tokenIn: string, tokenOut: string, amountIn: string) =>
  Trades.use((trades) => trades.create(ACCOUNT, { tokenIn, tokenOut, amountIn, network }))

const reload = (id: string) => Trades.use((trades) => trades.get(ACCOUNT, id))

/** When the chain included the trade, from the event log. */
const includedAt = (id: string) =>
  SimulationState.useSync((sim) => {
    const entry = sim.log.all.find((e) => e.type === "trade.included" && e.data["tradeId"] === id)
    assert.isDefined(entry, `${id} was never included`)
    return Date.parse(entry!.at)
  })

const advance = (ms: number) => SimulatorControl.use((control) => control.advance(ms))

/** Creates one trade after an odd delay and answers its inclusion and confirmation times. */
const timeline = (blockTimeMs: number, confirmations: number) =>
  inWorld(
    { networks: { solana: { failureRate: 0, blockTimeMs, confirmations } } },
    Effect.gen(function*() {
      yield* advance(1_234)
      const created = yield* trade("solana", "SOL", "USDC", "1")
      // Just before the earliest possible confirmation the trade is still pending.
      yield* advance(blockTimeMs - (created.createdAt % blockTimeMs) + confirmations * blockTimeMs - 1)
      assert.strictEqual((yield* reload(created.id)).stage, "broadcast")
      yield* advance(60 * blockTimeMs)
      const done = yield* reload(created.id)
      assert.strictEqual(done.stage, "confirmed")
      return { created: created.createdAt, included: yield* includedAt(created.id), confirmed: done.confirmedAt! }
    })
  )

/** The price impact quoted for one JUP sale against a JUP pool of `liquidity` dollars (price set to $2). */
const impact = (liquidity: number) =>
  inWorld(
    { tokens: [{ symbol: "JUP", priceUsd: 2, liquidityUsd: { solana: liquidity } }] },
    Effect.gen(function*() {
      const sim = yield* SimulationState
      assert.strictEqual(sim.market.priceUsd("JUP"), 2)
      assert.strictEqual(sim.market.poolDepthUsd("JUP", "solana"), liquidity)
      const quote = yield* Trades.use((trades) =>
        trades.quote(ACCOUNT, { tokenIn: "JUP", tokenOut: "USDC", amountIn: "5000", network: "solana" })
      )
      return quote.chainQuote.priceImpactPercent
    })
  )

/** The first trade of a world with this seed and start, and when its log begins. */
const firstTrade = (seed: number, start: string) =>
  inWorld(
    { seed, clock: { mode: "manual", start } },
    Effect.gen(function*() {
      const t = yield* trade("solana", "SOL", "USDC", "1")
      const { events } = yield* SimulatorControl.use((control) => control.events(0, 1))
      return { id: t.id, txHash: t.txHash, createdAt: t.createdAt, firstAt: events[0]!.at }
    })
  )

describe("networks.<network>.failureRate", () => {
  it.effect("1 fails every trade on that network with NETWORK_ERROR; 0 on another confirms every one", () =>
    inWorld(
      { networks: { solana: { failureRate: 1 }, base: { failureRate: 0 } } },
      Effect.gen(function*() {
        const lost = yield* Effect.all([
          trade("solana", "SOL", "USDC", "1"),
          trade("solana", "USDC", "JUP", "250"),
          trade("solana", "JUP", "SOL", "1000"),
          trade("solana", "SOL", "JUP", "0.5")
        ])
        const kept = yield* Effect.all([trade("base", "ETH", "USDC", "0.1"), trade("base", "USDC", "ETH", "100")])
        yield* advance(60_000)
        for (const t of lost) {
          const now = yield* reload(t.id)
          assert.deepStrictEqual([now.stage, now.failureReason, now.gasFee], ["failed", "NETWORK_ERROR", 0n], t.id)
        }
        for (const t of kept) assert.strictEqual((yield* reload(t.id)).stage, "confirmed", t.id)
        const sim = yield* SimulationState
        // Nothing moved on solana: every input is back and no gas was paid.
        assert.deepStrictEqual(
          sim.wallets.ledger().filter((l) => l.network === "solana").map((l) => [l.token, l.free, l.reserved]),
          [["SOL", 100_000_000_000n, 0n], ["USDC", 10_000_000_000n, 0n], ["JUP", 10_000_000_000n, 0n]]
        )
      })
    ))

  it.effect("the same trades confirm when the rate is 0", () =>
    inWorld(
      { networks: { solana: { failureRate: 0 } } },
      Effect.gen(function*() {
        const trades = yield* Effect.all([trade("solana", "SOL", "USDC", "1"), trade("solana", "USDC", "JUP", "250")])
        yield* advance(60_000)
        for (const t of trades) assert.strictEqual((yield* reload(t.id)).stage, "confirmed", t.id)
      })
    ))
})

describe("networks.<network>.blockTimeMs and confirmations", () => {
  it.effect("inclusion falls on a block boundary after the broadcast; confirmation N blocks later", () =>
    Effect.gen(function*() {
      for (const [blockTimeMs, confirmations] of [[400, 3], [4_000, 3], [1_000, 0], [250, 20]] as const) {
        const t = yield* timeline(blockTimeMs, confirmations)
        const what = `blockTimeMs ${blockTimeMs}, confirmations ${confirmations}: ${JSON.stringify(t)}`
        assert.strictEqual(t.included % blockTimeMs, 0, what)
        assert.isAbove(t.included, t.created, what)
        // The next boundary, plus at most 2 missed blocks in a calm mempool.
        assert.isAtMost(t.included, t.created - (t.created % blockTimeMs) + 3 * blockTimeMs, what)
        assert.strictEqual(t.confirmed, t.included + confirmations * blockTimeMs, what)
      }
    }))

  it.effect("a longer block time confirms later", () =>
    Effect.gen(function*() {
      const fast = yield* timeline(400, 5)
      const slow = yield* timeline(4_000, 5)
      assert.isAbove(slow.confirmed - slow.created, fast.confirmed - fast.created)
      assert.isAtLeast(slow.confirmed - slow.created, 5 * 4_000)
      assert.isAtMost(fast.confirmed - fast.created, 8 * 400)
    }))
})

describe("tokens, clock.start and seed", () => {
  it.effect("tokens[].priceUsd sets the starting price; a shallower pool costs more price impact", () =>
    Effect.gen(function*() {
      const deep = yield* impact(50_000_000)
      const shallow = yield* impact(500_000)
      assert.isAbove(shallow, 10 * deep)
    }))

  it.effect("clock.start is when the world begins; the seed fixes ids and hashes", () =>
    Effect.gen(function*() {
      const a = yield* firstTrade(5, "2026-06-30T12:34:56Z")
      assert.strictEqual(a.createdAt, Date.parse("2026-06-30T12:34:56Z"))
      assert.strictEqual(a.firstAt, "2026-06-30T12:34:56.000Z")
      assert.deepStrictEqual(yield* firstTrade(5, "2026-06-30T12:34:56Z"), a)
      const b = yield* firstTrade(6, "2026-06-30T12:34:56Z")
      assert.notStrictEqual(b.id, a.id)
      assert.notStrictEqual(b.txHash, a.txHash)
    }))

  it.effect("a realtime clock refuses manual advances", () =>
    inWorld(
      { clock: { mode: "realtime", speed: 10 } },
      Effect.gen(function*() {
        const control = yield* SimulatorControl
        const error = yield* Effect.flip(control.advance(1_000))
        assert.strictEqual(error._tag, "ClockNotManual")
        assert.deepStrictEqual(yield* control.clock, { now: Date.parse(START), mode: "realtime" })
      })
    ))
})
