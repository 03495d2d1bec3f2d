// Proves the in-memory repositories' list indexes against a naive model (filter every record, sort newest first,
// slice), by fast-check (pinned seed) over random inserts, updates that move a trade or order between statuses,
// alert removals, and random filters, time ranges and pages: every page and total is exactly the model's.
import { assert, describe } from "@effect/vitest"
import { fc, test } from "@fast-check/vitest"
import { Effect, Layer } from "effect"
import type { AlertRecord } from "../src/Alert.ts"
import {
  layerMemoryAlertRepository,
  layerMemoryOrderRepository,
  layerMemoryTradeRepository
} from "../src/MemoryRepositories.ts"
import type { OrderRecord } from "../src/Order.ts"
import { paginate } from "../src/Page.ts"
import { AlertRepository, OrderRepository, TradeRepository } from "../src/Repositories.ts"
import type { TradeRecord, TradeStage } from "../src/Trade.ts"
import { statusOfStage } from "../src/Trade.ts"

const tokens = ["SOL", "USDC", "ETH"] as const
const networks = ["solana", "ethereum", "base"] as const
const stages: ReadonlyArray<TradeStage> = ["awaiting_approval", "broadcast", "confirmed", "failed"]

type Step =
  | {
    readonly _tag: "insert"
    readonly account: number
    readonly createdAt: number
    readonly a: number
    readonly b: number
    readonly n: number
    readonly s: number
  }
  | { readonly _tag: "update"; readonly pick: number; readonly s: number }
  | { readonly _tag: "remove"; readonly pick: number }

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("insert" as const),
      account: fc.integer({ min: 0, max: 1 }),
      // Few distinct instants, so ties on createdAt (ordered by id) are common.
      createdAt: fc.integer({ min: 0, max: 12 }),
      a: fc.integer({ min: 0, max: 2 }),
      b: fc.integer({ min: 0, max: 2 }),
      n: fc.integer({ min: 0, max: 2 }),
      s: fc.integer({ min: 0, max: 3 })
    })
  },
  {
    weight: 2,
    arbitrary: fc.record({ _tag: fc.constant("update" as const), pick: fc.nat(), s: fc.integer({ min: 0, max: 3 }) })
  },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("remove" as const), pick: fc.nat() }) }
)

const filterArb = fc.record({
  token: fc.option(fc.constantFrom(...tokens), { nil: undefined }),
  s: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  networks: fc.option(fc.subarray([...networks]), { nil: undefined }),
  fromMs: fc.option(fc.integer({ min: -1, max: 13 }), { nil: undefined }),
  toMs: fc.option(fc.integer({ min: -1, max: 13 }), { nil: undefined }),
  offset: fc.integer({ min: 0, max: 30 }),
  limit: fc.integer({ min: 1, max: 10 })
})

/** The object without its undefined fields: a filter as a caller builds it. */
const defined = <A extends object>(o: A): { [K in keyof A]?: Exclude<A[K], undefined> } =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never

const run = <A, R>(effect: Effect.Effect<A, never, R>, layer: Layer.Layer<R>) =>
  Effect.runSync(Effect.provide(effect, layer))

// The records carry only the fields the repositories read; the rest of a trade, order or alert plays no part in lists.
const trade = (id: string, step: Extract<Step, { _tag: "insert" }>): TradeRecord =>
  ({
    id,
    accountId: `acct_${step.account}`,
    createdAt: step.createdAt,
    tokenIn: tokens[step.a],
    tokenOut: tokens[step.b],
    network: networks[step.n],
    stage: stages[step.s]
  }) as unknown as TradeRecord

describe("ListIndex", () => {
  test.prop([fc.array(stepArb, { maxLength: 80 }), fc.array(filterArb, { minLength: 1, maxLength: 8 })], {
    seed: 1307,
    numRuns: 300
  })("trade pages and totals are the naive model's, through inserts and status changes", (steps, queries) => {
    const model = new Map<string, TradeRecord>()
    run(
      Effect.gen(function*() {
        const repository = yield* TradeRepository
        let next = 0
        for (const step of steps) {
          const ids = [...model.keys()]
          if (step._tag === "insert") {
            const record = trade(`trd_${String(next++).padStart(3, "0")}`, step)
            model.set(record.id, record)
            yield* repository.insert(record)
          } else if (ids.length > 0) {
            const before = model.get(ids[step.pick % ids.length]!)!
            const record = { ...before, stage: stages[step._tag === "update" ? step.s : 2]! }
            model.set(record.id, record)
            yield* repository.update(record)
          }
        }
        for (const account of ["acct_0", "acct_1"]) {
          for (const q of queries) {
            const status = q.s === undefined ? undefined : statusOfStage(stages[q.s]!)
            const filter = defined({ token: q.token, status, networks: q.networks, fromMs: q.fromMs, toMs: q.toMs })
            const page = { offset: q.offset, limit: q.limit }
            const got = yield* repository.list(account, filter, page)
            const want = paginate(
              model.values(),
              (t) =>
                t.accountId === account &&
                (q.token === undefined || t.tokenIn === q.token || t.tokenOut === q.token) &&
                (status === undefined || statusOfStage(t.stage) === status) &&
                (q.networks === undefined || (q.networks as ReadonlyArray<string>).includes(t.network)) &&
                (q.fromMs === undefined || t.createdAt >= q.fromMs) &&
                (q.toMs === undefined || t.createdAt <= q.toMs),
              page
            )
            assert.deepStrictEqual(got, want)
          }
          const history = yield* repository.history(account)
          assert.deepStrictEqual(
            history.map((t) => t.id),
            [...model.values()].filter((t) => t.accountId === account).sort((a, b) =>
              a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)
            ).map((t) => t.id)
          )
        }
      }),
      layerMemoryTradeRepository
    )
  })

  test.prop([fc.array(stepArb, { maxLength: 80 }), fc.array(filterArb, { minLength: 1, maxLength: 8 })], {
    seed: 1308,
    numRuns: 200
  })("order pages and totals are the naive model's, through status changes", (steps, queries) => {
    const orderStatuses = ["pending", "confirmed", "cancelled", "expired"] as const
    const model = new Map<string, OrderRecord>()
    run(
      Effect.gen(function*() {
        const repository = yield* OrderRepository
        let next = 0
        for (const step of steps) {
          const ids = [...model.keys()]
          if (step._tag === "insert") {
            const record = {
              ...trade(`ord_${String(next++).padStart(3, "0")}`, step),
              status: orderStatuses[step.s]
            } as unknown as OrderRecord
            model.set(record.id, record)
            yield* repository.insert(record)
          } else if (ids.length > 0) {
            const before = model.get(ids[step.pick % ids.length]!)!
            const record = { ...before, status: orderStatuses[step._tag === "update" ? step.s : 1]! }
            model.set(record.id, record)
            yield* repository.update(record)
          }
        }
        for (const account of ["acct_0", "acct_1"]) {
          for (const q of queries) {
            const status = q.s === undefined ? undefined : orderStatuses[q.s]
            const network = q.networks?.[0]
            const filter = defined({ token: q.token, status, network })
            const page = { offset: q.offset, limit: q.limit }
            const want = paginate(
              model.values(),
              (o) =>
                o.accountId === account &&
                (q.token === undefined || o.tokenIn === q.token || o.tokenOut === q.token) &&
                (status === undefined || o.status === status) &&
                (network === undefined || o.network === network),
              page
            )
            assert.deepStrictEqual(yield* repository.list(account, filter, page), want)
          }
        }
      }),
      layerMemoryOrderRepository
    )
  })

  test.prop([fc.array(stepArb, { maxLength: 60 }), fc.array(filterArb, { minLength: 1, maxLength: 8 })], {
    seed: 1309,
    numRuns: 200
  })("alert pages, totals and counts are the naive model's, through status changes and removals", (steps, queries) => {
    const alertStatuses = ["active", "triggered", "disabled"] as const
    const types = ["price", "volume", "portfolio"] as const
    const model = new Map<string, AlertRecord>()
    run(
      Effect.gen(function*() {
        const repository = yield* AlertRepository
        let next = 0
        for (const step of steps) {
          const ids = [...model.keys()]
          if (step._tag === "insert") {
            const type = types[step.n]!
            const record = {
              id: `alt_${String(next++).padStart(3, "0")}`,
              accountId: `acct_${step.account}`,
              createdAt: step.createdAt,
              status: alertStatuses[step.s % 3],
              channel: "email",
              rule: type === "portfolio" ? { type } : { type, token: tokens[step.a] }
            } as unknown as AlertRecord
            model.set(record.id, record)
            yield* repository.insert(record)
          } else if (ids.length > 0) {
            const id = ids[step.pick % ids.length]!
            if (step._tag === "remove") {
              const owner = model.get(id)!.accountId
              // Another account cannot remove it; its owner can.
              assert.isFalse(yield* repository.remove(owner === "acct_0" ? "acct_1" : "acct_0", id))
              assert.isTrue(yield* repository.remove(owner, id))
              model.delete(id)
              continue
            }
            const record = { ...model.get(id)!, status: alertStatuses[step.s % 3]! }
            model.set(id, record)
            yield* repository.update(record)
          }
        }
        for (const account of ["acct_0", "acct_1"]) {
          for (const q of queries) {
            const status = q.s === undefined ? undefined : alertStatuses[q.s % 3]
            const type = q.networks === undefined ? undefined : types[q.networks.length % 3]
            const filter = defined({ token: q.token, status, type })
            const page = { offset: q.offset, limit: q.limit }
            const want = paginate(
              model.values(),
              (a) =>
                a.accountId === account &&
                (status === undefined || a.status === status) &&
                (type === undefined || a.rule.type === type) &&
                (q.token === undefined || (a.rule.type !== "portfolio" && a.rule.token === q.token)),
              page
            )
            assert.deepStrictEqual(yield* repository.list(account, filter, page), want)
          }
          const statuses = ["active", "disabled"] as const
          assert.strictEqual(
            yield* repository.countByStatus(account, statuses),
            [...model.values()].filter((a) => a.accountId === account && statuses.includes(a.status as never)).length
          )
        }
      }),
      layerMemoryAlertRepository
    )
  })
})
