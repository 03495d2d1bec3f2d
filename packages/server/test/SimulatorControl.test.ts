// Proves the clock routes (docs/simulator.md#control-routes) behave as one operation each: an advance runs to
// completion even when its client hangs up, and one call is bounded so that it stays short.
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, testServer } from "./harness.ts"

const DAY_MS = 86_400_000

layer(testServer(), { excludeTestServices: true })("simulator clock", (it) => {
  it.effect("an advance whose client hangs up still runs its whole span", () =>
    Effect.gen(function*() {
      const before = Date.parse((yield* call("GET", "/v1/sim/clock")).body.data.now)
      const abandoned = yield* call("POST", "/v1/sim/clock/advance", { body: { ms: 2 * DAY_MS } }).pipe(
        Effect.timeout("20 millis"),
        Effect.option
      )
      assert.isTrue(abandoned._tag === "None", "the client gave up before the answer")
      // Advances run one at a time, so this one answers once the abandoned one has finished.
      const after = yield* call("POST", "/v1/sim/clock/advance", { body: { ms: 1 } })
      assert.strictEqual(Date.parse(after.body.data.now), before + 2 * DAY_MS + 1)
    }))

  it.effect("one call advances at most 31 days", () =>
    Effect.gen(function*() {
      const tooFar = yield* call("POST", "/v1/sim/clock/advance", { body: { ms: 31 * DAY_MS + 1 } })
      assert.strictEqual(tooFar.status, 400)
      assert.strictEqual(tooFar.body.error.code, "VALIDATION_ERROR")
      assert.strictEqual(tooFar.body.error.details[0].path, "ms")
    }))
})
