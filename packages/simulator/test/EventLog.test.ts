// Proves the bounded log the event log and the outbox are kept in: against a plain array that keeps
// everything (fast-check, pinned seed, bounds from 1 to 20, up to 200 appends), every page is the
// model's entries after the cursor, restricted to the last `max`, oldest first, at most `limit`
// long, with `nextAfter` the last seq returned exactly when more follow; and a bound below 1 is refused.
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

  it("refuses a bound below 1 or not whole", () => {
    assert.throws(() => new RetainedLog(0), RangeError)
    assert.throws(() => new RetainedLog(2.5), RangeError)
  })
})
