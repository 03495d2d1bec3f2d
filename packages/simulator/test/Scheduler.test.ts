// Proves the agenda's order and its snapshot: fast-check (pinned seed) schedules and pops at random times, many at
// equal times, and every pop must answer the earliest (time, sequence) entry, as a sorted model does; an agenda
// restored from a structuredClone of a snapshot taken at a random point pops and numbers new entries exactly as the
// original does from there on.
import { assert, describe } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { type Scheduled, Scheduler } from "../src/Scheduler.ts"

type Op = { readonly kind: "schedule"; readonly at: number } | { readonly kind: "pop"; readonly until: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("schedule" as const), at: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ kind: fc.constant("pop" as const), until: fc.integer({ min: 0, max: 20 }) })
)

const apply = (scheduler: Scheduler<string>, op: Op, i: number): Scheduled<string> | undefined =>
  op.kind === "schedule" ? scheduler.schedule(op.at, `action ${i}`) : scheduler.popDue(op.until)

describe("Scheduler", () => {
  test.prop([fc.array(opArb, { maxLength: 80 }), fc.array(opArb, { maxLength: 80 })], { seed: 2024, numRuns: 500 })(
    "pops in (time, sequence) order, and a restored agenda goes on as the original",
    (before, after) => {
      const original = new Scheduler<string>()
      const model: Array<Scheduled<string>> = []
      const check = (op: Op, answered: Scheduled<string> | undefined) => {
        if (op.kind === "schedule") return void model.push(answered!)
        model.sort((a, b) => a.at - b.at || a.seq - b.seq)
        const expected = model[0] !== undefined && model[0].at <= op.until ? model.shift() : undefined
        assert.deepStrictEqual(answered, expected)
      }
      before.forEach((op, i) => check(op, apply(original, op, i)))
      const restored = Scheduler.restore(structuredClone(original.snapshot()))
      assert.strictEqual(restored.size, original.size)
      after.forEach((op, i) => {
        const answered = apply(original, op, before.length + i)
        assert.deepStrictEqual(apply(restored, op, before.length + i), answered)
        check(op, answered)
      })
      assert.deepStrictEqual(restored.snapshot(), original.snapshot())
    }
  )
})
