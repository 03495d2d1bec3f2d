// Proves the account features' invariants by fast-check (pinned seeds) over whole simulated worlds in process
// (`layerSimulator` on a manual clock with the core's use cases, and the HTTP layer's key authenticator): through random
// sequences of orders placed, cancelled, expired, filled and failed (a network that drops a third of its transactions),
// trades and price moves, the wallet books balance after every call (free + reserved is what each line started with,
// received and kept; reserved is exactly the open holds), an open order holds exactly its amountIn and a closed one
// nothing, no order fills below minAmountOut or twice, and every holding's portfolio value is its cost basis plus its
// unrealised PnL; a cancellation racing a fill has exactly one winner; an order whose signature does not verify never
// fills and gets its funds back; and a revoked or expired key never authenticates while every other key does.
import { assert, describe, it } from "@effect/vitest"
import { fc } from "@fast-check/vitest"
import {
  ApiKeys,
  type CreateOrderBody,
  isOpen,
  MoneyDecimal,
  OrderRepository,
  Orders,
  Portfolio,
  PriceFeed,
  type TradeRecord,
  TradeRepository,
  Trades
} from "@swapdesk/core"
import { KeyAuthenticator } from "@swapdesk/http"
import { layerSimulator, type ScenarioFile, SimulationState, SimulatorControl } from "@swapdesk/simulator"
import { Effect, Exit, Layer } from "effect"

const ACCOUNT = "acct_prop"

const scenario = (failureRate: number): ScenarioFile => ({
  seed: 11,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  historyDays: 1,
  networks: { solana: { failureRate } },
  accounts: [{
    id: ACCOUNT,
    wallets: [{ network: "solana", delegatedSigning: true, balances: { SOL: "20", USDC: "3000" } }]
  }]
})

const world = (failureRate: number) =>
  Layer.mergeAll(KeyAuthenticator.layer).pipe(Layer.provideMerge(layerSimulator(scenario(failureRate))))

const run = <A, E>(failureRate: number, program: Effect.Effect<A, E, any>) =>
  Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(world(failureRate)))) as Effect.Effect<A, E>)

/** tokenOut per tokenIn at the spot prices now. */
const spotRate = (tokenIn: string, tokenOut: string) =>
  Effect.gen(function*() {
    const feed = yield* PriceFeed
    return (yield* feed.priceUsd(tokenIn)).div(yield* feed.priceUsd(tokenOut))
  })

/** An order body for `amount` of tokenIn asking `factor` times the spot rate's output. */
const orderBody = (tokenIn: "SOL" | "USDC", amount: number, factor: number, expiresAt?: string) =>
  Effect.gen(function*() {
    const tokenOut = tokenIn === "SOL" ? "USDC" : "SOL"
    const rate = yield* spotRate(tokenIn, tokenOut)
    const minOut = new MoneyDecimal(amount).mul(rate).mul(factor).toDecimalPlaces(6, MoneyDecimal.ROUND_DOWN)
    const body: CreateOrderBody = {
      tokenIn,
      tokenOut,
      amountIn: new MoneyDecimal(amount).toDecimalPlaces(6).toFixed(),
      minAmountOut: minOut.isZero() ? "0.000001" : minOut.toFixed(),
      network: "solana",
      ...(expiresAt === undefined ? {} : { expiresAt })
    }
    return body
  })

const allOrders = Effect.flatMap(
  OrderRepository,
  (repository) => Effect.map(repository.list(ACCOUNT, {}, { limit: 1_000_000, offset: 0 }), (page) => page.items)
)

/** Every invariant that must hold between any two calls. */
const checkInvariants = Effect.gen(function*() {
  const sim = yield* SimulationState
  sim.wallets.checkInvariants()
  const trades = yield* TradeRepository
  const history = yield* trades.history(ACCOUNT)
  const fills = new Map<string, Array<TradeRecord>>()
  for (const trade of history) {
    if (trade.orderId !== null) fills.set(trade.orderId, [...(fills.get(trade.orderId) ?? []), trade])
  }
  for (const order of yield* allOrders) {
    const hold = sim.wallets.hold(order.id)
    if (isOpen(order)) assert.strictEqual(hold?.amount, order.amountIn, `open ${order.id} holds its amountIn`)
    else assert.isUndefined(hold, `${order.id} (${order.status}) holds nothing under its own id`)
    const made = fills.get(order.id) ?? []
    assert.isAtMost(made.length, 1, `${order.id} filled at most once`)
    if (order.tradeId !== null) assert.strictEqual(made[0]?.id, order.tradeId)
    if (order.status === "confirmed") {
      assert.strictEqual(made[0]!.stage, "confirmed")
      assert.isTrue(made[0]!.amountOut! >= order.minAmountOut, "never below minAmountOut")
    }
    if (order.status === "cancelled" || order.status === "expired") assert.strictEqual(made.length, 0)
  }
  const portfolio = yield* (yield* Portfolio).get(ACCOUNT, {})
  for (const h of portfolio.holdings) {
    assert.isTrue(
      new MoneyDecimal(h.costBasis).plus(h.unrealizedPnl).eq(h.value),
      `${h.token}: ${h.value} = ${h.costBasis} + ${h.unrealizedPnl}`
    )
  }
})

type Op =
  | {
    readonly _tag: "place"
    readonly tokenIn: "SOL" | "USDC"
    readonly share: number
    readonly factor: number
    readonly expiresInS: number | null
  }
  | { readonly _tag: "cancel"; readonly pick: number }
  | { readonly _tag: "price"; readonly factor: number }
  | { readonly _tag: "advance"; readonly ms: number }
  | { readonly _tag: "trade"; readonly amount: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    _tag: fc.constant("place" as const),
    tokenIn: fc.constantFrom("SOL" as const, "USDC" as const),
    share: fc.double({ min: 0.02, max: 0.4, noNaN: true }),
    factor: fc.double({ min: 0.9, max: 1.08, noNaN: true }),
    expiresInS: fc.option(fc.integer({ min: 1, max: 90 }), { nil: null })
  }),
  fc.record({ _tag: fc.constant("cancel" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("price" as const), factor: fc.double({ min: 0.92, max: 1.12, noNaN: true }) }),
  fc.record({ _tag: fc.constant("advance" as const), ms: fc.integer({ min: 200, max: 20_000 }) }),
  fc.record({ _tag: fc.constant("trade" as const), amount: fc.double({ min: 0.01, max: 1, noNaN: true }) })
)

const apply = (op: Op) =>
  Effect.gen(function*() {
    const orders = yield* Orders
    const control = yield* SimulatorControl
    const feed = yield* PriceFeed
    switch (op._tag) {
      case "place": {
        const held = op.tokenIn === "SOL" ? 20 : 3000
        const now = (yield* control.clock).now
        const expiresAt = op.expiresInS === null ? undefined : new Date(now + op.expiresInS * 1000).toISOString()
        // Refusals (a balance already reserved) are part of the walk: they must change nothing.
        yield* Effect.exit(orders.create(ACCOUNT, yield* orderBody(op.tokenIn, held * op.share, op.factor, expiresAt)))
        return
      }
      case "cancel": {
        const all = yield* allOrders
        if (all.length > 0) yield* Effect.exit(orders.cancel(ACCOUNT, all[op.pick % all.length]!.id))
        return
      }
      case "price": {
        const price = (yield* feed.priceUsd("SOL")).mul(op.factor).toNumber()
        yield* Effect.orDie(control.setPrice("SOL", price))
        return
      }
      case "advance":
        yield* Effect.orDie(control.advance(op.ms))
        return
      case "trade": {
        const body = { tokenIn: "SOL", tokenOut: "USDC", amountIn: op.amount.toFixed(3), network: "solana" } as const
        yield* Effect.exit((yield* Trades).create(ACCOUNT, body))
        return
      }
    }
  })

describe("limit orders over random market walks", () => {
  it("funds balance after every call; fills respect their minimum, happen once, and end", async () => {
    // How the walks ended, so that the test fails if they stop reaching every outcome.
    const outcomes = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), (ops) =>
        run(
          0.3,
          Effect.gen(function*() {
            for (const op of ops) {
              yield* apply(op)
              yield* checkInvariants
            }
            // Long enough for every fill to confirm or fail and every expiry to pass.
            yield* Effect.orDie((yield* SimulatorControl).advance(10 * 60_000))
            yield* checkInvariants
            for (const order of yield* allOrders) {
              outcomes.set(order.status, (outcomes.get(order.status) ?? 0) + 1)
              assert.isFalse(order.status === "pending" && order.tradeId !== null, `${order.id} still filling`)
              if (order.expiresAt !== null) {
                assert.notStrictEqual(order.status, "pending", `${order.id} outlived expiry`)
              }
            }
          })
        )),
      { seed: 1101, numRuns: 25 }
    )
    for (const status of ["pending", "confirmed", "failed", "cancelled", "expired"]) {
      assert.isAbove(outcomes.get(status) ?? 0, 0, `some order ended ${status}: ${JSON.stringify([...outcomes])}`)
    }
  }, 120_000)

  it("the same walk replays the same event log, signatures and fills included, byte for byte", async () => {
    const [ops] = fc.sample(fc.array(opArb, { minLength: 20, maxLength: 20 }), { seed: 1104, numRuns: 1 })
    const walk = Effect.gen(function*() {
      for (const op of ops!) yield* apply(op)
      yield* Effect.orDie((yield* SimulatorControl).advance(5 * 60_000))
      return JSON.stringify((yield* SimulationState).log.all)
    })
    const first = await run(0.3, walk)
    assert.include(first, "order.created")
    assert.strictEqual(await run(0.3, walk), first)
  }, 60_000)

  it("a cancellation racing a fill has exactly one winner", async () => {
    const winners = { cancel: 0, fill: 0 }
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.integer({ min: 0, max: 3 }), (cancelFirst, yields) =>
        run(
          0,
          Effect.gen(function*() {
            const orders = yield* Orders
            const control = yield* SimulatorControl
            const order = yield* Effect.orDie(orders.create(ACCOUNT, yield* orderBody("SOL", 1, 1.05)))
            const price = (yield* (yield* PriceFeed).priceUsd("SOL")).mul(1.2).toNumber()
            const cancel = Effect.exit(
              Effect.andThen(
                Effect.forEach(Array.from({ length: yields }), () => Effect.yieldNow, { discard: true }),
                orders.cancel(ACCOUNT, order.id)
              )
            )
            const move = Effect.orDie(control.setPrice("SOL", price))
            const [cancelled] = cancelFirst
              ? yield* Effect.all([cancel, move], { concurrency: "unbounded" })
              : yield* Effect.map(Effect.all([move, cancel], { concurrency: "unbounded" }), ([, c]) => [c] as const)
            yield* Effect.orDie(control.advance(60_000))
            const after = yield* Effect.orDie(orders.get(ACCOUNT, order.id))
            const fills = (yield* (yield* TradeRepository).history(ACCOUNT)).filter((t) => t.orderId === order.id)
            winners[Exit.isSuccess(cancelled) ? "cancel" : "fill"]++
            if (Exit.isSuccess(cancelled)) {
              assert.strictEqual(after.status, "cancelled")
              assert.strictEqual(fills.length, 0, "a cancelled order never fills")
            } else {
              assert.isNotNull(after.tradeId, "the cancellation lost to a fill")
              assert.strictEqual(fills.length, 1)
              assert.include(["confirmed", "failed"], after.status)
            }
            yield* checkInvariants
          })
        )),
      { seed: 1102, numRuns: 16 }
    )
    assert.isAbove(winners.cancel, 0, "the cancellation won some races")
    assert.isAbove(winners.fill, 0, "the fill won some races")
  }, 60_000)

  it("an order whose signature does not verify never fills, and its funds come back", () =>
    run(
      0,
      Effect.gen(function*() {
        const orders = yield* Orders
        const repository = yield* OrderRepository
        const control = yield* SimulatorControl
        const order = yield* Effect.orDie(orders.create(ACCOUNT, yield* orderBody("SOL", 2, 1.05)))
        const signature = order.signature!
        const forged = signature.slice(0, -2) + (signature.endsWith("1") ? "2" : "1")
        yield* repository.update({ ...order, signature: forged })
        const price = (yield* (yield* PriceFeed).priceUsd("SOL")).mul(1.3).toNumber()
        yield* Effect.orDie(control.setPrice("SOL", price))
        const after = yield* Effect.orDie(orders.get(ACCOUNT, order.id))
        assert.strictEqual(after.status, "failed")
        assert.isNull(after.tradeId)
        assert.isUndefined((yield* SimulationState).wallets.hold(order.id))
        const fills = (yield* (yield* TradeRepository).history(ACCOUNT)).filter((t) => t.orderId === order.id)
        assert.strictEqual(fills.length, 0)
        yield* checkInvariants
      })
    ))
})

type KeyOp =
  | { readonly _tag: "create"; readonly expiresInMs: number | null }
  | { readonly _tag: "revoke"; readonly pick: number }
  | { readonly _tag: "advance"; readonly ms: number }

const keyOpArb: fc.Arbitrary<KeyOp> = fc.oneof(
  fc.record({
    _tag: fc.constant("create" as const),
    expiresInMs: fc.option(fc.integer({ min: 1_000, max: 60_000 }), { nil: null })
  }),
  fc.record({ _tag: fc.constant("revoke" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("advance" as const), ms: fc.integer({ min: 1, max: 30_000 }) })
)

describe("API keys over random lifetimes", () => {
  it("a revoked or expired key never passes; every other key does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(keyOpArb, { minLength: 3, maxLength: 25 }), (ops) =>
        run(
          0,
          Effect.gen(function*() {
            const keys = yield* ApiKeys
            const authenticator = yield* KeyAuthenticator
            const control = yield* SimulatorControl
            const made: Array<{ id: string; secret: string; expiresAt: number | null; revoked: boolean }> = []
            for (const op of ops) {
              const now = (yield* control.clock).now
              if (op._tag === "create" && made.filter((k) => !k.revoked).length < 20) {
                const expiresAt = op.expiresInMs === null ? null : now + op.expiresInMs
                const created = yield* Effect.orDie(keys.create({ accountId: ACCOUNT, scopes: ["read", "account"] }, {
                  name: "prop",
                  scopes: ["read"],
                  ...(expiresAt === null ? {} : { expiresAt: new Date(expiresAt).toISOString() })
                }))
                made.push({ id: created.key.id, secret: created.secret, expiresAt, revoked: false })
              } else if (op._tag === "revoke" && made.length > 0) {
                const key = made[op.pick % made.length]!
                const exit = yield* Effect.exit(keys.revoke(ACCOUNT, key.id))
                assert.strictEqual(Exit.isSuccess(exit), !key.revoked, "a key is revoked once")
                key.revoked = true
              } else if (op._tag === "advance") {
                yield* Effect.orDie(control.advance(op.ms))
              }
              const at = (yield* control.clock).now
              for (const key of made) {
                const passes = Exit.isSuccess(yield* Effect.exit(authenticator.authenticate(key.secret)))
                const usable = !key.revoked && (key.expiresAt === null || at < key.expiresAt)
                assert.strictEqual(
                  passes,
                  usable,
                  `${key.id} at ${at}: revoked ${key.revoked}, expires ${key.expiresAt}`
                )
              }
            }
          })
        )),
      { seed: 1103, numRuns: 40 }
    )
  }, 60_000)
})
