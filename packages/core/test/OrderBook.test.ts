// Proves the limit order watcher's index against a plain scan of the same orders, by fast-check (pinned seed) over
// random adds, removals and spot rates: the candidates of a pair are exactly the orders whose limit the spot rate
// (with the one-in-a-billion margin) reaches, lowest limit first and older first among equals; a removed order is
// never a candidate; and due expiries come out earliest first, each once, only while the order is indexed.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { type IndexedOrder, OrderBook } from "../src/OrderBook.ts"
import { orderPairs } from "./fixtures.ts"

const pairs = orderPairs

type Step =
  | { readonly _tag: "add"; readonly pair: number; readonly limitPrice: number; readonly expiresAt: number | null }
  | { readonly _tag: "remove"; readonly pick: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    _tag: fc.constant("add" as const),
    pair: fc.integer({ min: 0, max: 2 }),
    limitPrice: fc.constantFrom(0.5, 1, 1, 2, 150, 150.0000001, 3000),
    expiresAt: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null })
  }),
  fc.record({ _tag: fc.constant("remove" as const), pick: fc.nat() })
)

describe("OrderBook", () => {
  test.prop([fc.array(stepArb, { maxLength: 60 }), fc.constantFrom(0.4, 1, 149.99999999, 150, 2999, 1e9)], {
    seed: 4401,
    numRuns: 400
  })("candidates are exactly what a scan finds, in limit then arrival order", (steps, spot) => {
    const book = new OrderBook()
    const live: Array<IndexedOrder> = []
    let next = 0
    for (const step of steps) {
      if (step._tag === "add") {
        const order = {
          id: `ord_${next++}`,
          ...pairs[step.pair]!,
          limitPrice: step.limitPrice,
          expiresAt: step.expiresAt
        }
        book.add(order)
        live.push(order)
      } else if (live.length > 0) {
        const [removed] = live.splice(step.pick % live.length, 1)
        assert.isTrue(book.remove(removed!.id))
        assert.isFalse(book.remove(removed!.id), "removing twice finds nothing")
      }
    }
    assert.strictEqual(book.size, live.length)
    for (const pair of pairs) {
      const expected = live
        .filter((o) => o.network === pair.network && o.tokenIn === pair.tokenIn && o.tokenOut === pair.tokenOut)
        .filter((o) => o.limitPrice <= spot * (1 + 1e-9))
        .sort((a, b) => a.limitPrice - b.limitPrice || Number(a.id.slice(4)) - Number(b.id.slice(4)))
        .map((o) => o.id)
      assert.deepStrictEqual([...book.candidates(pair, spot)], expected)
    }
    const due = book.dueExpiries(50)
    const expectedDue = live
      .filter((o) => o.expiresAt !== null && o.expiresAt <= 50)
      .sort((a, b) => a.expiresAt! - b.expiresAt! || Number(a.id.slice(4)) - Number(b.id.slice(4)))
      .map((o) => o.id)
    assert.deepStrictEqual([...due], expectedDue)
    assert.deepStrictEqual([...book.dueExpiries(50)], [], "each expiry comes out once")
  })

  it("a pair with no open orders is gone from the pairs", () => {
    const book = new OrderBook()
    book.add({ id: "ord_a", ...pairs[0]!, limitPrice: 1, expiresAt: null })
    assert.strictEqual(Array.from(book.pairs()).length, 1)
    book.remove("ord_a")
    assert.strictEqual(Array.from(book.pairs()).length, 0)
    assert.deepStrictEqual([...book.candidates(pairs[0]!, 10)], [])
  })

  it("refuses to index an order twice", () => {
    const book = new OrderBook()
    book.add({ id: "ord_a", ...pairs[0]!, limitPrice: 1, expiresAt: null })
    assert.throws(() => book.add({ id: "ord_a", ...pairs[0]!, limitPrice: 2, expiresAt: null }), /already indexed/)
  })
})
