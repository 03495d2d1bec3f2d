// Proves the alert state machine is exactly its table: each legal row is its own test with its side effects, every
// pair outside the table is the IllegalAlertTransition defect, and random event sequences (fast-check, pinned seed)
// never leave the legal statuses or break the record's invariants.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import type { AlertRecord, AlertStatus } from "../src/Alert.ts"
import { AlertStatus as AlertStatusSchema } from "../src/Alert.ts"
import {
  type AlertEvent,
  AlertEvent as Events,
  alertTransitions,
  applyAlertEvent,
  countsTowardLimit,
  IllegalAlertTransition
} from "../src/AlertMachine.ts"
import { makeAlert, T0 } from "./fixtures.ts"

const statuses: ReadonlyArray<AlertStatus> = AlertStatusSchema.literals
const eventKinds = ["Fire", "Disable", "Enable"] as const
const eventOf = (kind: (typeof eventKinds)[number], at: number): AlertEvent =>
  kind === "Fire" ? Events.Fire({ at }) : kind === "Enable" ? Events.Enable({ at }) : Events.Disable()

describe("alert transitions: one test per table row", () => {
  const later = T0 + 60_000

  it("active --Fire--> triggered, triggeredAt set, monitoring stops", () => {
    const next = applyAlertEvent(makeAlert({ status: "active" }), Events.Fire({ at: later }))
    assert.strictEqual(next.status, "triggered")
    assert.strictEqual(next.triggeredAt, later)
    assert.strictEqual(next.armedAt, T0)
  })

  it("active --Disable--> disabled, configuration kept", () => {
    const alert = makeAlert({ status: "active" })
    const next = applyAlertEvent(alert, Events.Disable())
    assert.deepStrictEqual(next, { ...alert, status: "disabled" })
  })

  it("triggered --Disable--> disabled, and stops counting toward the Free limit", () => {
    const alert = makeAlert({ status: "triggered", triggeredAt: later })
    const next = applyAlertEvent(alert, Events.Disable())
    assert.deepStrictEqual(next, { ...alert, status: "disabled" })
    assert.isTrue(countsTowardLimit(alert.status))
    assert.isFalse(countsTowardLimit(next.status))
  })

  it("disabled --Disable--> disabled, nothing changes (idempotent)", () => {
    const alert = makeAlert({ status: "disabled" })
    assert.deepStrictEqual(applyAlertEvent(alert, Events.Disable()), alert)
  })

  it("disabled --Enable--> active, re-armed at the enable time", () => {
    const next = applyAlertEvent(makeAlert({ status: "disabled" }), Events.Enable({ at: later }))
    assert.strictEqual(next.status, "active")
    assert.strictEqual(next.armedAt, later)
  })

  it("triggered --Enable--> active, re-armed, last triggeredAt kept", () => {
    const next = applyAlertEvent(makeAlert({ status: "triggered", triggeredAt: T0 + 1 }), Events.Enable({ at: later }))
    assert.strictEqual(next.status, "active")
    assert.strictEqual(next.armedAt, later)
    assert.strictEqual(next.triggeredAt, T0 + 1)
  })

  it("active --Enable--> active, not re-armed (idempotent)", () => {
    const alert = makeAlert({ status: "active" })
    assert.deepStrictEqual(applyAlertEvent(alert, Events.Enable({ at: later })), alert)
  })

  it("the table has exactly those seven rows", () => {
    assert.deepStrictEqual(
      alertTransitions.map((row) => `${row.from} ${row.event} ${row.to}`).toSorted(),
      [
        "active Disable disabled",
        "active Enable active",
        "active Fire triggered",
        "disabled Disable disabled",
        "disabled Enable active",
        "triggered Disable disabled",
        "triggered Enable active"
      ]
    )
  })
})

describe("alert transitions outside the table", () => {
  for (const status of statuses) {
    for (const kind of eventKinds) {
      if (alertTransitions.some((row) => row.from === status && row.event === kind)) continue
      it(`${status} --${kind}--> is the IllegalAlertTransition defect`, () => {
        const alert = makeAlert({ status, triggeredAt: status === "triggered" ? T0 : null })
        assert.throws(() => applyAlertEvent(alert, eventOf(kind, T0 + 1)), IllegalAlertTransition)
      })
    }
  }

  it("the illegal pairs are exactly firing an alert that is not active", () => {
    const illegal = statuses.flatMap((status) =>
      eventKinds.filter((kind) => !alertTransitions.some((row) => row.from === status && row.event === kind))
        .map((kind) => `${status} ${kind}`)
    )
    assert.deepStrictEqual(illegal, ["triggered Fire", "disabled Fire"])
  })
})

describe("random event sequences", () => {
  const step = fc.record({ kind: fc.constantFrom(...eventKinds), dt: fc.integer({ min: 0, max: 3_600_000 }) })

  test.prop([fc.constantFrom(...statuses), fc.array(step, { maxLength: 40 })], { seed: 3001, numRuns: 1000 })(
    "never leave the table: legal moves land on the row's status, illegal ones throw and change nothing",
    (start, steps) => {
      let alert: AlertRecord = makeAlert({ status: start, triggeredAt: start === "triggered" ? T0 : null })
      let at = T0
      for (const { dt, kind } of steps) {
        at += dt
        const row = alertTransitions.find((t) => t.from === alert.status && t.event === kind)
        if (row === undefined) {
          assert.throws(() => applyAlertEvent(alert, eventOf(kind, at)), IllegalAlertTransition)
          continue
        }
        const next = applyAlertEvent(alert, eventOf(kind, at))
        assert.strictEqual(next.status, row.to)
        assert.include(statuses, next.status)
        // what the alert watches, where it reports and who owns it never change
        assert.deepStrictEqual([next.id, next.accountId, next.rule, next.channel, next.createdAt], [
          alert.id,
          alert.accountId,
          alert.rule,
          alert.channel,
          alert.createdAt
        ])
        if (next.status === "triggered") assert.strictEqual(next.triggeredAt, at)
        assert.isTrue(next.armedAt <= at)
        alert = next
      }
    }
  )
})
