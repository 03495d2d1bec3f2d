// Proves that the use cases' indexes survive a snapshot exactly, by fast-check (pinned seeds): an order book and an
// alert engine are driven through random work, a snapshot is taken at a random point and carried through
// structuredClone (as the store carries it, plain data), restored, and then the original and the restored index are
// driven through the same further work: every answer is the same, in the same order (candidates, pairs, expiries;
// alerts taken by prices, whales, volumes and portfolios, and the tokens and accounts watched). The order of equal
// limits, of pairs and of alerts fired together depends on arrival, which records alone do not keep: that is what a
// restart from records would get wrong and a snapshot must not.
import { assert, describe } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import type { AlertRule } from "../src/Alert.ts"
import { AlertEngine, type ArmedAlert, exactDouble } from "../src/AlertEngine.ts"
import { OrderBook } from "../src/OrderBook.ts"
import { alertRuleArb, makeAlert, orderPairs, T0 } from "./fixtures.ts"

const pairs = orderPairs

type OrderStep =
  | { readonly _tag: "add"; readonly pair: number; readonly limitPrice: number; readonly expiresAt: number | null }
  | { readonly _tag: "remove"; readonly pick: number }
  | { readonly _tag: "expire"; readonly at: number }

const orderStep: fc.Arbitrary<OrderStep> = fc.oneof(
  fc.record({
    _tag: fc.constant("add" as const),
    pair: fc.integer({ min: 0, max: 2 }),
    limitPrice: fc.constantFrom(0.5, 1, 1, 2, 150, 3000),
    expiresAt: fc.option(fc.constantFrom(10, 20, 20, 30, 40), { nil: null })
  }),
  fc.record({ _tag: fc.constant("remove" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("expire" as const), at: fc.integer({ min: 0, max: 45 }) })
)

/** Runs `steps` on `book` (ids from `next`), answering what each step's reads saw. */
const driveBook = (book: OrderBook, steps: ReadonlyArray<OrderStep>, ids: { next: number }) => {
  const seen: Array<unknown> = []
  for (const step of steps) {
    if (step._tag === "add") {
      book.add({
        id: `ord_${ids.next++}`,
        ...pairs[step.pair]!,
        limitPrice: step.limitPrice,
        expiresAt: step.expiresAt
      })
    } else if (step._tag === "remove") {
      const open = pairs.flatMap((pair) => book.candidates(pair, 1e12))
      if (open.length > 0) book.remove(open[step.pick % open.length]!)
    } else {
      seen.push(book.dueExpiries(step.at))
    }
    seen.push(
      Array.from(book.pairs(), (pair) => `${pair.tokenIn}/${pair.tokenOut}`),
      pairs.map((pair) => book.candidates(pair, 200)),
      book.size
    )
  }
  return seen
}

const tokens = ["SOL", "ETH", "BONK"] as const
const grid = fc.constantFrom(1, 2, 3, 5, 8)

const ruleArb = alertRuleArb(tokens, grid)

type AlertStep =
  | { readonly _tag: "arm"; readonly rule: AlertRule; readonly account: number; readonly armedAt: number }
  | { readonly _tag: "disarm"; readonly pick: number }
  | { readonly _tag: "observe"; readonly figure: number; readonly at: number }

const alertStep: fc.Arbitrary<AlertStep> = fc.oneof(
  fc.record({
    _tag: fc.constant("arm" as const),
    rule: ruleArb,
    account: fc.integer({ min: 0, max: 1 }),
    armedAt: fc.integer({ min: 0, max: 3 })
  }),
  fc.record({ _tag: fc.constant("disarm" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("observe" as const), figure: grid, at: fc.integer({ min: 0, max: 3 }) })
)

/** Runs `steps` on `engine`, answering the ids each observation took, in order, and what is watched. */
const driveEngine = (
  engine: AlertEngine,
  steps: ReadonlyArray<AlertStep>,
  ids: { next: number; armed: Array<string> }
) => {
  const seen: Array<unknown> = []
  for (const step of steps) {
    if (step._tag === "arm") {
      const id = `alrt_${ids.next++}`
      ids.armed.push(id)
      engine.arm(makeAlert({ id, accountId: `acct_${step.account}`, rule: step.rule, armedAt: T0 + step.armedAt }))
    } else if (step._tag === "disarm") {
      if (ids.armed.length > 0) engine.disarm(ids.armed[step.pick % ids.armed.length]!)
    } else {
      const into: Array<ArmedAlert> = []
      const at = T0 + step.at
      for (const token of engine.priceTokens()) engine.takePrice(token, step.figure, exactDouble, at, into)
      for (const token of tokens) engine.takeWhale(token, step.figure, at, into)
      for (const token of engine.volumeTokens()) engine.takeVolume(token, (m) => m <= step.figure, at, into)
      for (const account of engine.portfolioAccounts()) {
        engine.takePortfolio(account, (c) => c <= step.figure, at, into)
      }
      seen.push(into.map((entry) => entry.value.id))
    }
    seen.push(engine.priceTokens(), engine.volumeTokens(), engine.portfolioAccounts(), engine.size)
  }
  return seen
}

describe("index snapshots", () => {
  test.prop([fc.array(orderStep, { maxLength: 40 }), fc.array(orderStep, { maxLength: 40 })], {
    seed: 8821,
    numRuns: 300
  })("a restored order book answers as the original", (before, after) => {
    const book = new OrderBook()
    const ids = { next: 0 }
    driveBook(book, before, ids)
    const restored = OrderBook.restore(structuredClone(book.snapshot()))
    const next = ids.next
    assert.deepStrictEqual(driveBook(restored, after, { next }), driveBook(book, after, { next }))
  })

  test.prop([fc.array(alertStep, { maxLength: 40 }), fc.array(alertStep, { maxLength: 40 })], {
    seed: 8822,
    numRuns: 300
  })("a restored alert engine fires and watches as the original", (before, after) => {
    const engine = new AlertEngine()
    const ids = { next: 0, armed: [] as Array<string> }
    driveEngine(engine, before, ids)
    const restored = AlertEngine.restore(structuredClone(engine.snapshot()))
    const copy = { next: ids.next, armed: [...ids.armed] }
    assert.deepStrictEqual(driveEngine(restored, after, copy), driveEngine(engine, after, ids))
  })
})
