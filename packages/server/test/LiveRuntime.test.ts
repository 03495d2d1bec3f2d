// Proves the live server's non-chain ports in process, time driven by TestClock: ids carry their
// prefix and 20 base62 characters, never repeat, and their characters are drawn without modulo bias
// (each of the 62 within ±20% of its share over 62 000 draws: a modulo draw over bytes gives the
// first 8 characters 25% more); a timer task runs at its instant and not a millisecond before, at
// once for an instant already past; a notification on a configured channel that fails once is sent
// again after the first retry delay, and one on an unconfigured channel is never handed to it.
import { assert, describe, it } from "@effect/vitest"
import {
  BASE62,
  ChannelTransport,
  IdGenerator,
  MarketClock,
  MarketTimer,
  type Notification,
  notificationRetryDelaysMs,
  Notifier
} from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { layerChannelNotifier } from "../src/live/ChannelNotifier.ts"
import { layerRandomIds, randomBase62 } from "../src/live/RandomIds.ts"
import { layerWallClockTimer } from "../src/live/WallClockTimer.ts"

describe("live ids", () => {
  it.effect("are the kind's prefix and 20 base62 characters, all different", () =>
    Effect.gen(function*() {
      const ids = yield* IdGenerator
      const drawn = new Set<string>()
      for (let i = 0; i < 1000; i++) {
        const id = yield* ids.next("trade")
        assert.match(id, /^trd_[0-9A-Za-z]{20}$/)
        drawn.add(id)
      }
      assert.strictEqual(drawn.size, 1000)
      assert.match(yield* ids.token(40), /^[0-9A-Za-z]{40}$/)
    }).pipe(Effect.provide(layerRandomIds)))

  it("draw every base62 character equally often", () => {
    const counts = new Map<string, number>()
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1)
    assert.strictEqual(counts.size, 62)
    for (const char of BASE62) {
      const count = counts.get(char) ?? 0
      assert.isTrue(count > 800 && count < 1200, `${char} drawn ${count} times of an expected 1000`)
    }
  })
})

describe("the wall-clock timer", () => {
  it.effect("runs a task at its instant, not before, and at once for an instant past", () =>
    Effect.gen(function*() {
      const timer = yield* MarketTimer
      const ran: Array<string> = []
      yield* timer.schedule(5_000, Effect.sync(() => ran.push("later")))
      yield* timer.schedule(-1, Effect.sync(() => ran.push("past")))
      yield* TestClock.adjust(0)
      assert.deepStrictEqual(ran, ["past"])
      yield* TestClock.adjust(4_999)
      assert.deepStrictEqual(ran, ["past"])
      yield* TestClock.adjust(1)
      assert.deepStrictEqual(ran, ["past", "later"])
    }).pipe(Effect.provide(layerWallClockTimer)))
})

const notification = (channel: Notification["channel"]): Notification => ({
  channel,
  to: "ops@example.com",
  alertId: "alrt_1",
  message: "SOL crossed 150"
})

describe("live notifications", () => {
  it.effect("go out on a configured channel, again after the first retry delay when an attempt fails", () => {
    const attempts: Array<Notification> = []
    const transport = Layer.succeed(ChannelTransport, {
      configured: (channel) => channel === "email",
      send: (sent) =>
        Effect.suspend(() => {
          attempts.push(sent)
          return attempts.length === 1 ? Effect.fail({ reason: "the SMTP server refused" }) : Effect.void
        })
    })
    return Effect.gen(function*() {
      const notifier = yield* Notifier
      yield* notifier.send(notification("telegram"))
      yield* notifier.send(notification("email"))
      yield* TestClock.adjust(0)
      assert.strictEqual(attempts.length, 1)
      yield* TestClock.adjust(notificationRetryDelaysMs[0]! - 1)
      assert.strictEqual(attempts.length, 1)
      yield* TestClock.adjust(1)
      assert.strictEqual(attempts.length, 2)
      assert.isTrue(attempts.every((sent) => sent.channel === "email"))
      yield* TestClock.adjust(3_600_000)
      assert.strictEqual(attempts.length, 2)
    }).pipe(
      Effect.provide(
        layerChannelNotifier.pipe(Layer.provide(Layer.mergeAll(transport, MarketClock.layer, layerWallClockTimer)))
      )
    )
  })
})
