// Proves the indexed alert engine fires exactly what a naive reference model fires: fast-check (pinned seed) drives
// both through random paths of price moves, whale swaps and whole-minute volume and portfolio figures, interleaved
// with alerts of every type created (often already satisfied), disabled, re-armed and deleted mid-path, and at every
// observation the engine's fired alerts, in order, equal the model's, which re-checks every active alert with the
// contract's comparisons. Also proves the sorted book against a sorted array, and the exact price comparison.
import { assert, describe, it } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Decimal } from "decimal.js"
import type { AlertRecord, AlertRule } from "../src/Alert.ts"
import { AlertEngine, type ArmedAlert, exactDouble, priceAsNumber } from "../src/AlertEngine.ts"
import { ThresholdBook, type ThresholdEntry } from "../src/ThresholdBook.ts"
import { alertRuleArb, makeAlert, T0 } from "./fixtures.ts"

const tokens = ["SOL", "ETH"] as const
const accounts = ["acct_a", "acct_b"] as const

/** A small grid of values, so that thresholds equal to observed figures (the edge) come up often. */
const grid = fc.constantFrom(1, 2, 3, 5, 8, 10, 10.5, 12, 20)

const ruleArb = alertRuleArb(tokens, grid)

type Step =
  | { readonly kind: "create"; readonly rule: AlertRule; readonly account: string }
  | { readonly kind: "disable" | "enable" | "delete"; readonly pick: number }
  | { readonly kind: "price"; readonly token: string; readonly price: number }
  | { readonly kind: "whale"; readonly swaps: ReadonlyArray<{ readonly token: string; readonly valueUsd: number }> }
  | {
    readonly kind: "minute"
    readonly volumes: ReadonlyArray<{ readonly volume: number; readonly average: number }>
    readonly changes: ReadonlyArray<number>
  }
  | { readonly kind: "wait"; readonly ms: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("create" as const), rule: ruleArb, account: fc.constantFrom(...accounts) })
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom("disable" as const, "enable" as const, "delete" as const),
      pick: fc.nat()
    })
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("price" as const), token: fc.constantFrom(...tokens), price: grid })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("whale" as const),
      swaps: fc.array(fc.record({ token: fc.constantFrom(...tokens), valueUsd: grid }), { maxLength: 3 })
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("minute" as const),
      volumes: fc.tuple(
        fc.record({ volume: grid, average: fc.constantFrom(0, 0.5, 1, 2) }),
        fc.record({ volume: grid, average: fc.constantFrom(0, 0.5, 1, 2) })
      ),
      changes: fc.tuple(fc.constantFrom(-12, -5, 0, 3, 10, 20), fc.constantFrom(-12, -5, 0, 3, 10, 20))
    })
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.constantFrom(0, 1, 1000) }) }
)

/** The reference: every active alert re-checked at every observation, in the order it became active. */
class NaiveModel {
  active: Array<AlertRecord> = []

  arm(alert: AlertRecord) {
    this.disarm(alert.id)
    this.active.push(alert)
  }

  disarm(id: string) {
    this.active = this.active.filter((a) => a.id !== id)
  }

  fire(at: number, met: (alert: AlertRecord) => boolean): Array<string> {
    const fired = this.active.filter((a) => a.armedAt <= at && met(a))
    this.active = this.active.filter((a) => !fired.includes(a))
    return fired.map((a) => a.id)
  }
}

const tokenOfRule = (rule: AlertRule) => (rule.type === "portfolio" ? undefined : rule.token)

const runPath = (steps: ReadonlyArray<Step>) => {
  const engine = new AlertEngine()
  const model = new NaiveModel()
  const records = new Map<string, AlertRecord>()
  const prices: Record<string, number> = { SOL: 10, ETH: 10 }
  let now = T0
  let nextId = 0

  const pick = (n: number) => {
    const ids = [...records.keys()]
    return ids.length === 0 ? undefined : records.get(ids[n % ids.length]!)
  }
  const compare = (
    label: string,
    at: number,
    take: (into: Array<ArmedAlert>) => void,
    met: (a: AlertRecord) => boolean
  ) => {
    const taken: Array<ArmedAlert> = []
    take(taken)
    taken.sort((a, b) => a.seq - b.seq)
    const expected = model.fire(at, met)
    assert.deepStrictEqual(taken.map((e) => e.value.id), expected, label)
    for (const id of expected) records.set(id, { ...records.get(id)!, status: "triggered", triggeredAt: at })
  }

  for (const step of steps) {
    switch (step.kind) {
      case "create": {
        const alert = makeAlert({
          id: `alrt_${nextId++}`,
          accountId: step.account,
          rule: step.rule,
          createdAt: now,
          armedAt: now
        })
        records.set(alert.id, alert)
        engine.arm(alert)
        model.arm(alert)
        break
      }
      case "disable":
      case "delete": {
        const alert = pick(step.pick)
        if (alert === undefined) break
        engine.disarm(alert.id)
        model.disarm(alert.id)
        if (step.kind === "delete") records.delete(alert.id)
        else records.set(alert.id, { ...alert, status: "disabled" })
        break
      }
      case "enable": {
        const alert = pick(step.pick)
        if (alert === undefined || alert.status === "active") break
        const armed = { ...alert, status: "active" as const, armedAt: now }
        records.set(alert.id, armed)
        engine.arm(armed)
        model.arm(armed)
        break
      }
      case "wait":
        now += step.ms
        break
      case "price": {
        now += 1000
        prices[step.token] = step.price
        compare(`price ${step.token} ${step.price}`, now, (into) => {
          for (const token of engine.priceTokens()) engine.takePrice(token, prices[token]!, exactDouble, now, into)
        }, (a) =>
          a.rule.type === "price" &&
          (a.rule.condition === "above"
            ? prices[a.rule.token]! >= a.rule.targetPrice
            : prices[a.rule.token]! <= a.rule.targetPrice))
        break
      }
      case "whale": {
        now += 1000
        compare("whales", now, (into) => {
          for (const swap of step.swaps) engine.takeWhale(swap.token, swap.valueUsd, now, into)
        }, (a) =>
          a.rule.type === "whale" &&
          step.swaps.some((s) =>
            s.token === tokenOfRule(a.rule) && s.valueUsd >= (a.rule as { minValueUsd: number }).minValueUsd
          ))
        break
      }
      case "minute": {
        now += 60_000
        compare("minute", now, (into) => {
          for (const token of engine.volumeTokens()) {
            const { average, volume } = step.volumes[tokens.indexOf(token as "SOL")]!
            engine.takeVolume(token, (m) => average > 0 && volume >= average * m, now, into)
          }
          for (const account of engine.portfolioAccounts()) {
            const change = step.changes[accounts.indexOf(account as "acct_a")]!
            engine.takePortfolio(account, (p) => Math.abs(change) >= p, now, into)
          }
        }, (a) => {
          if (a.rule.type === "volume") {
            const { average, volume } = step.volumes[tokens.indexOf(a.rule.token as "SOL")]!
            return average > 0 && volume >= average * a.rule.multiplier
          }
          if (a.rule.type === "portfolio") {
            return Math.abs(step.changes[accounts.indexOf(a.accountId as "acct_a")]!) >= a.rule.changePercent
          }
          return false
        })
        break
      }
    }
    assert.strictEqual(engine.size, model.active.length)
  }
}

describe("AlertEngine", () => {
  test.prop([fc.array(stepArb, { maxLength: 120 })], { seed: 1212, numRuns: 400 })(
    "fires exactly the alerts a naive full re-check fires, in arming order",
    (steps) => runPath(steps)
  )

  it("an alert created already satisfied fires at the next observation, and only once", () => {
    const engine = new AlertEngine()
    engine.arm(makeAlert({ id: "alrt_x", armedAt: T0 }))
    const fired: Array<ArmedAlert> = []
    engine.takePrice("SOL", 200, exactDouble, T0, fired)
    engine.takePrice("SOL", 200, exactDouble, T0 + 1000, fired)
    assert.deepStrictEqual(fired.map((e) => e.value.id), ["alrt_x"])
    assert.strictEqual(engine.size, 0)
  })

  it("an observation older than the arming leaves the alert watched", () => {
    const engine = new AlertEngine()
    engine.arm(makeAlert({ id: "alrt_x", armedAt: T0 + 5 }))
    const fired: Array<ArmedAlert> = []
    engine.takePrice("SOL", 200, exactDouble, T0, fired)
    assert.deepStrictEqual(fired, [])
    assert.isTrue(engine.has("alrt_x"))
  })

  it("a target equal to the nearest double is compared with the exact price", () => {
    const engine = new AlertEngine()
    engine.arm(makeAlert({ id: "up", rule: { type: "price", token: "SOL", condition: "above", targetPrice: 0.1 } }))
    engine.arm(makeAlert({ id: "down", rule: { type: "price", token: "SOL", condition: "below", targetPrice: 0.1 } }))
    // 0.1 as a double is 0.1000000000000000055511151231257827; the exact price 0.1 is just below it.
    const { price, rounding } = priceAsNumber(new Decimal("0.1"))
    assert.strictEqual(price, 0.1)
    assert.strictEqual(rounding(), -1)
    const fired: Array<ArmedAlert> = []
    engine.takePrice("SOL", price, rounding, T0, fired)
    assert.deepStrictEqual(fired.map((e) => e.value.id), ["down"])
  })
})

describe("ThresholdBook", () => {
  test.prop([
    fc.array(fc.tuple(fc.constantFrom("insert", "remove", "take"), fc.integer({ min: 0, max: 50 })), { maxLength: 400 })
  ], {
    seed: 77,
    numRuns: 200
  })("keeps (key, seq) order through inserts, removals and prefix takes, like a sorted array", (ops) => {
    const book = new ThresholdBook<number>(4)
    let reference: Array<ThresholdEntry<number>> = []
    let seq = 0
    for (const [op, n] of ops) {
      if (op === "insert") {
        const entry = { key: n, seq: seq++, value: n }
        book.insert(entry)
        reference.push(entry)
        reference.sort((a, b) => a.key - b.key || a.seq - b.seq)
      } else if (op === "remove") {
        const victim = reference[n % Math.max(1, reference.length)]
        assert.strictEqual(book.remove(victim?.key ?? -1, victim?.seq ?? -1), victim !== undefined)
        reference = reference.filter((e) => e !== victim)
      } else {
        const taken: Array<ThresholdEntry<number>> = []
        book.takeWhile((key) => key <= n, taken)
        assert.deepStrictEqual(taken, reference.filter((e) => e.key <= n))
        reference = reference.filter((e) => e.key > n)
      }
      assert.strictEqual(book.size, reference.length)
    }
    assert.deepStrictEqual([...book.entries()], reference)
  })
})
