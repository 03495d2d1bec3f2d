// Proves the bounded log the event log and the outbox are kept in: against a plain array that keeps
// everything (fast-check, pinned seed, bounds from 1 to 20, up to 200 appends), every page is the
// model's entries after the cursor, restricted to the last `max`, oldest first, at most `limit`
// long, with `nextAfter` the last seq returned exactly when more follow; and a bound below 1 is refused. A log
// continued from a snapshot (through structuredClone, into a bound smaller, equal or larger) pages, updates and
// numbers new entries as the original does, except that a smaller bound keeps fewer of the old entries.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { RetainedLog } from "../src/EventLog.ts"

describe("RetainedLog", () => {
  test.prop([
    fc.integer({ min: 1, max: 20 }),
    fc.integer({ min: 0, max: 200 }),
    fc.integer({ min: 0, max: 220 }),
    fc.integer({ min: 1, max: 30 })
  ], { seed: 1313, numRuns: 1000 })(
    "pages as a model that keeps everything, cut to the last max",
    (max, appended, after, limit) => {
      const log = new RetainedLog<{ readonly seq: number; readonly n: number }>(max)
      const model: Array<{ seq: number; n: number }> = []
      for (let i = 0; i < appended; i++) {
        log.push((seq) => ({ seq, n: i * 7 }))
        model.push({ seq: i + 1, n: i * 7 })
      }
      const kept = model.slice(-max)
      const expected = kept.filter((e) => e.seq > after).slice(0, limit)
      const page = log.page(after, limit)
      assert.deepStrictEqual(page.entries, expected)
      const more = expected.length > 0 && expected.at(-1)!.seq < appended
      assert.strictEqual(page.nextAfter, more ? expected.at(-1)!.seq : null)
      assert.deepStrictEqual(log.all, kept)
      assert.strictEqual(log.length, appended)
    }
  )

  test.prop([
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 0, max: 40 }),
    fc.integer({ min: 0, max: 60 })
  ], { seed: 1314, numRuns: 500 })(
    "a log continued from a snapshot goes on as the original",
    (max, restoredMax, before, after, touched) => {
      const original = new RetainedLog<{ readonly seq: number; readonly n: number }>(max)
      const model: Array<{ seq: number; n: number }> = []
      for (let i = 0; i < before; i++) {
        original.push((seq) => ({ seq, n: i }))
        model.push({ seq: i + 1, n: i })
      }
      const snapshot = structuredClone(original.snapshot())
      const restored = new RetainedLog<{ readonly seq: number; readonly n: number }>(restoredMax).continueFrom(snapshot)
      for (let i = 0; i < after; i++) {
        for (const log of [original, restored]) log.push((seq) => ({ seq, n: 1000 + i }))
        model.push({ seq: model.length + 1, n: 1000 + i })
      }
      for (const log of [original, restored]) log.update(touched, (e) => ({ ...e, n: -e.n }))
      const windowStart = before - Math.min(before, max) + 1
      const changed = model.map((e) => e.seq === touched && e.seq >= windowStart ? { ...e, n: -e.n } : e)
      assert.strictEqual(restored.length, original.length)
      assert.deepStrictEqual(original.all, model.slice(-max).map((e) => changed[e.seq - 1]!))
      // The restored log keeps the snapshot's window and what came after, cut to its own bound.
      const kept = changed.filter((e) => e.seq >= windowStart).slice(-restoredMax)
      assert.deepStrictEqual(restored.all, kept)
      assert.deepStrictEqual(restored.page(touched, 3).entries, kept.filter((e) => e.seq > touched).slice(0, 3))
    }
  )

  it("refuses a bound below 1 or not whole", () => {
    assert.throws(() => new RetainedLog(0), RangeError)
    assert.throws(() => new RetainedLog(2.5), RangeError)
  })
})
