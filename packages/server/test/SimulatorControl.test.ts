// Proves the clock routes (docs/simulator.md#control-routes) behave as one operation each: an advance runs to
// completion even when its client hangs up (the client is interrupted once the server is seen running the advance,
// not after a guessed delay), and one call is bounded so that it stays short.
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Fiber } from "effect"
import { call, testServer } from "./harness.ts"

const DAY_MS = 86_400_000

layer(testServer(), { excludeTestServices: true })("simulator clock", (it) => {
  it.effect("an advance whose client hangs up still runs its whole span", () =>
    Effect.gen(function*() {
      const clock = Effect.map(call("GET", "/v1/sim/clock"), (reply) => Date.parse(reply.body.data.now))
      const before = yield* clock
      const abandoned = yield* Effect.forkChild(call("POST", "/v1/sim/clock/advance", { body: { ms: 2 * DAY_MS } }))
      // The clock route reads the market clock without waiting for the advance: once it has moved,
      // the server holds the request and is running it, and the client hangs up in the middle.
      while ((yield* clock) === before) yield* Effect.sleep("5 millis")
      yield* Fiber.interrupt(abandoned)
      const exit = yield* Fiber.await(abandoned)
      assert.isTrue(Exit.hasInterrupts(exit), "the client gave up before the answer")
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
