import { assert, describe, it } from "@effect/vitest"
import { fc } from "@fast-check/vitest"
import { toIso } from "../src/MarketClock.ts"

describe("toIso", () => {
  it("matches Date#toISOString at the edges of months, leap days, eras and four-digit years", () => {
    const edges = [
      0,
      -1,
      1,
      951_782_400_000, // 2000-02-29
      951_868_799_999, // 2000-02-29T23:59:59.999Z
      4_107_456_000_000, // 2100-02-28
      4_107_542_400_000, // 2100-03-01 (2100 is not a leap year)
      1_767_225_599_999, // 2025-12-31T23:59:59.999Z
      -62_167_219_200_000, // 0000-01-01
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      -62_167_219_200_001, // before year 0: Date's six-digit form
      253_402_300_800_000, // year 10000
      1.5 // fractional milliseconds: Date's truncation
    ]
    for (const ms of edges) assert.strictEqual(toIso(ms), new Date(ms).toISOString(), String(ms))
  })

  it("matches Date#toISOString for any instant Date can represent", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (ms) => {
        assert.strictEqual(toIso(ms), new Date(ms).toISOString())
      }),
      { numRuns: 20_000 }
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        assert.strictEqual(toIso(ms), new Date(ms).toISOString())
      }),
      { numRuns: 20_000 }
    )
  })
})
