// Proves that the in-memory, SQLite and PostgreSQL stores answer every repository port of core alike:
// the same tests run against the three (SQLite on a temporary file, PostgreSQL on the database in
// SWAPDESK_TEST_POSTGRES_URL, which .ci/run provides, a fresh schema per test), and on the two SQL stores the idempotency and
// revocation invariants hold across two clients with their own connections, the Free plan's alert
// limit across two processes (released together, each seen starting before the other ended), and the caches in front
// of keys, accounts and final trades read again what another client changed, even by plain SQL. The
// SQL stores run the suite a second time as a sole writer (the simulator server's mode): every
// single-client test passes alike, its own writes are seen at once, and (by design) a change made
// behind its back is not. A case that cannot apply to a store (a second client of the in-memory
// store, a change behind a sole writer's back) is not registered for it, so the only skip the
// report shows is PostgreSQL's when no database was given, and its title says so.
import {
  AccountRepository,
  AlertIndex,
  AlertRepository,
  Alerts,
  ApiKeyRepository,
  FREE_PLAN_ALERTS_MAX,
  IDEMPOTENCY_TTL_MS,
  IdempotencyStore,
  IdGenerator,
  idPrefixes,
  layerMemoryRepositories,
  MarketClock,
  OrderRepository,
  simulatorTokens,
  TokenRegistry,
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@swapdesk/core"
import type { AlertRecord, ApiKeyRecord, OrderRecord, TradeRecord, WebhookDeliveryRecord } from "@swapdesk/core"
import { SqlStore, type StoreRepositories } from "@swapdesk/store"
import { type Context, Effect, Layer, ManagedRuntime, Option } from "effect"
import { SqlClient } from "effect/sql"
import { spawn } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, beforeEach, describe, expect, it } from "vitest"

type Repositories = StoreRepositories

const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
const directory = mkdtempSync(join(tmpdir(), "swapdesk-store-"))
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true })
  if (postgresUrl === undefined || schemas.length === 0) return
  const runtime = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl))))
  await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    for (const schema of schemas) yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  }))
  await runtime.dispose()
})

let fileNumber = 0
const schemas: Array<string> = []

interface Store {
  readonly name: string
  readonly sql: boolean
  /** The caches skip the revision check: only this client writes (CachedRepositories). */
  readonly soleWriter?: boolean
  /** A fresh, empty store (the same database for `client`). */
  readonly fresh: () => Promise<string>
  readonly layer: (location: string) => Layer.Layer<Repositories>
}

// The service of a port, as an effect.
const service = <I, S>(tag: Context.Key<I, S>): Effect.Effect<S, never, I> =>
  Effect.gen(function*() {
    return yield* tag
  })

const sqlLayer = (location: string) => Layer.orDie(SqlStore.layer(SqlStore.parseDatabaseUrl(location)))
const soleWriterLayer = (location: string) =>
  Layer.orDie(SqlStore.layer(SqlStore.parseDatabaseUrl(location), { soleWriter: true }))

const sharedStores: ReadonlyArray<Store & { readonly skip?: string }> = [
  { name: "memory", sql: false, fresh: async () => "", layer: () => layerMemoryRepositories },
  {
    name: "sqlite",
    sql: true,
    fresh: async () => `sqlite:${join(directory, `store-${++fileNumber}.db`)}`,
    layer: sqlLayer
  },
  {
    name: "postgres",
    sql: true,
    ...(postgresUrl === undefined
      ? {
        skip:
          "no PostgreSQL: set SWAPDESK_TEST_POSTGRES_URL=postgres://user:pass@127.0.0.1:5432/db (.ci/postgres installs, "
          + "starts and prints one) to run these"
      }
      : {}),
    // A schema of its own per test (PostgreSQL's `search_path` in the URL): an empty store, and
    // nothing shared with the other tests using the database.
    fresh: async () => {
      const schema = `conformance_${process.pid}_${++fileNumber}`
      const runtime = ManagedRuntime.make(
        Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl!)))
      )
      await runtime.runPromise(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        yield* sql.unsafe(`CREATE SCHEMA ${schema}`)
      }))
      await runtime.dispose()
      schemas.push(schema)
      const url = new URL(postgresUrl!)
      url.searchParams.set("options", `-c search_path=${schema}`)
      return url.toString()
    },
    layer: sqlLayer
  }
]

const stores: ReadonlyArray<Store & { readonly skip?: string }> = [
  ...sharedStores,
  ...sharedStores.filter((store) => store.sql).map((store) => ({
    ...store,
    name: `${store.name} (sole writer)`,
    soleWriter: true,
    layer: soleWriterLayer
  }))
]

const trade = (
  id: string,
  accountId: string,
  createdAt: number,
  overrides: Partial<TradeRecord> = {}
): TradeRecord => ({
  id,
  accountId,
  stage: "awaiting_approval",
  network: "ethereum",
  tokenIn: "ETH",
  tokenOut: "USDC",
  // Beyond 2^53: a float would lose the last digits.
  amountIn: 123456789012345678901234567n,
  estimatedAmountOut: 9007199254740993n,
  fee: 1n,
  minAmountOut: 9007199254740001n,
  slippage: 0.5,
  walletAddress: "0xabc",
  createdAt,
  txHash: null,
  submittedAt: null,
  confirmedAt: null,
  amountOut: null,
  gasFee: null,
  estimatedGasFee: 21000n,
  failureReason: null,
  orderId: null,
  ...overrides
})

const alert = (
  id: string,
  accountId: string,
  createdAt: number,
  overrides: Partial<AlertRecord> = {}
): AlertRecord => ({
  id,
  accountId,
  rule: { type: "price", token: "ETH", condition: "above", targetPrice: 4000 },
  channel: "email",
  status: "active",
  createdAt,
  triggeredAt: null,
  armedAt: createdAt,
  ...overrides
})

const order = (
  id: string,
  accountId: string,
  createdAt: number,
  overrides: Partial<OrderRecord> = {}
): OrderRecord => ({
  id,
  accountId,
  status: "pending",
  network: "solana",
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: 18446744073709551617n,
  minAmountOut: 5n,
  walletAddress: "So1",
  signer: "So1",
  signature: "sig",
  createdAt,
  expiresAt: null,
  tradeId: null,
  closedAt: null,
  ...overrides
})

const key = (
  id: string,
  accountId: string,
  createdAt: number,
  overrides: Partial<ApiKeyRecord> = {}
): ApiKeyRecord => ({
  id,
  accountId,
  name: `key ${id}`,
  prefix: "sk_test",
  last4: "abcd",
  secretHash: `hash-${id}`,
  scopes: ["read", "trade"],
  createdAt,
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
  ...overrides
})

const freeAccount = {
  id: "acc_free",
  plan: "free",
  notifications: { email: "free@example.com", telegram: null, push: null }
} as const
const alertBody = { type: "price", token: "SOL", condition: "above", targetPrice: 1e9, channel: "email" } as const

interface Racer {
  readonly outcomes: ReadonlyArray<string>
  /** When its creations started and ended (epoch ms). */
  readonly started: number
  readonly ended: number
}

/**
 * Runs alertRacer.ts on `location` in `processes` processes of their own, `count` creations each,
 * released together once every one is connected; answers each one's outcomes and window.
 */
const race = (location: string, processes: number, count: number) =>
  new Promise<ReadonlyArray<Racer>>((resolve, reject) => {
    const said = { ready: 0, started: 0 }
    const results: Array<Racer> = []
    const tellAll = (line: string) => {
      for (const child of children) child.stdin.write(`${line}\n`)
    }
    const children = Array.from({ length: processes }, () => {
      const child = spawn(
        process.execPath,
        [fileURLToPath(new URL("alertRacer.ts", import.meta.url)), location, String(count)],
        { stdio: ["pipe", "pipe", "pipe"] }
      )
      let stderr = ""
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
      createInterface({ input: child.stdout }).on("line", (line) => {
        if (line === "ready" && ++said.ready === processes) tellAll("go")
        else if (line === "started" && ++said.started === processes) tellAll("all started")
        else if (line.startsWith("{")) results.push(JSON.parse(line))
      })
      child.on("close", (code) => {
        if (code !== 0) reject(new Error(`alertRacer.ts exited ${code}\n${stderr}`))
        else if (results.length === processes) resolve(results)
      })
      return child
    })
  })

/** Ids that never collide between two clients, as a CSPRNG's do between two processes. */
const randomIds = Layer.succeed(IdGenerator, {
  next: (kind) => Effect.sync(() => `${idPrefixes[kind]}${randomUUID()}`),
  token: (length) => Effect.sync(() => randomUUID().replaceAll("-", "").slice(0, length))
})

/** Core's alert use cases on a store: what a service running the library in each process builds. */
const alertsOn = (repositories: Layer.Layer<Repositories>) =>
  Alerts.layer.pipe(
    Layer.provideMerge(AlertIndex.layer),
    Layer.provideMerge(repositories),
    Layer.provide(Layer.mergeAll(MarketClock.layer, randomIds, TokenRegistry.layer(simulatorTokens)))
  )

const delivery = (id: string, createdAt: number): WebhookDeliveryRecord => ({
  id,
  accountId: "acc_1",
  subscriptionId: "whk_1",
  event: "trade.confirmed",
  webhookId: `msg_${id}`,
  attempt: 1,
  status: "pending",
  responseStatus: null,
  createdAt,
  nextAttemptAt: null
})

const idsAndStages = (list: ReadonlyArray<TradeRecord>) => list.map((t) => `${t.id}:${t.stage}`)

for (const store of stores) {
  describe.skipIf(store.skip !== undefined)(
    `${store.name} store${store.skip ? ` (skipped: ${store.skip})` : ""}`,
    () => {
      let location = ""
      beforeEach(async () => {
        location = await store.fresh()
      })
      const run = async <A>(effect: Effect.Effect<A, never, Repositories>): Promise<A> => {
        const runtime = ManagedRuntime.make(store.layer(location))
        try {
          return await runtime.runPromise(effect)
        } finally {
          await runtime.dispose()
        }
      }

      it("keeps accounts and their notification settings", async () => {
        const accounts = await run(Effect.gen(function*() {
          const repo = yield* AccountRepository
          yield* repo.save({ id: "acc_1", plan: "free", notifications: { email: null, telegram: null, push: null } })
          yield* repo.save({ id: "acc_2", plan: "pro", notifications: { email: null, telegram: null, push: null } })
          yield* repo.updateNotifications("acc_1", { email: "a@b.c", telegram: { chatId: "42" }, push: null })
          yield* repo.updateNotifications("acc_missing", { email: "x@y.z", telegram: null, push: null })
          return { one: yield* repo.get("acc_1"), missing: yield* repo.get("acc_missing"), all: yield* repo.all }
        }))
        expect(Option.getOrThrow(accounts.one)).toEqual({
          id: "acc_1",
          plan: "free",
          notifications: { email: "a@b.c", telegram: { chatId: "42" }, push: null }
        })
        expect(Option.isNone(accounts.missing)).toBe(true)
        expect(accounts.all.map((a) => a.id).sort()).toEqual(["acc_1", "acc_2"])
      })

      it("finds keys by hash, scopes them to their account and hides revoked ones from the list", async () => {
        const result = await run(Effect.gen(function*() {
          const repo = yield* ApiKeyRepository
          yield* repo.insert(key("key_1", "acc_1", 1000))
          yield* repo.insert(key("key_2", "acc_1", 2000))
          yield* repo.insert(key("key_3", "acc_2", 3000))
          yield* repo.update(key("key_1", "acc_1", 1000, { revokedAt: 5000 }))
          repo.touch("key_2", 7000)
          return {
            byHash: yield* repo.findByHash("hash-key_1"),
            unknown: yield* repo.findByHash("nope"),
            otherAccount: yield* repo.get("acc_2", "key_1"),
            touched: yield* repo.get("acc_1", "key_2"),
            list: yield* repo.listByAccount("acc_1")
          }
        }))
        expect(Option.getOrThrow(result.byHash).revokedAt).toBe(5000)
        expect(Option.isNone(result.unknown)).toBe(true)
        expect(Option.isNone(result.otherAccount)).toBe(true)
        expect(Option.getOrThrow(result.touched).lastUsedAt).toBe(7000)
        expect(result.list.map((k) => k.id)).toEqual(["key_2"])
      })

      it("keeps trades with exact amounts, filters and pages them newest first", async () => {
        const result = await run(Effect.gen(function*() {
          const repo = yield* TradeRepository
          yield* repo.insert(trade("trd_a", "acc_1", 1000))
          yield* repo.insert(trade("trd_b", "acc_1", 2000, { network: "solana", tokenIn: "SOL" }))
          yield* repo.insert(trade("trd_c", "acc_1", 2000))
          yield* repo.insert(trade("trd_d", "acc_2", 1500))
          yield* repo.update(trade("trd_a", "acc_1", 1000, { stage: "confirmed", amountOut: 77777777777777777777n }))
          return {
            a: yield* repo.get("acc_1", "trd_a"),
            foreign: yield* repo.get("acc_2", "trd_a"),
            byId: yield* repo.getById("trd_d"),
            all: yield* repo.list("acc_1", {}, { limit: 10, offset: 0 }),
            second: yield* repo.list("acc_1", {}, { limit: 1, offset: 1 }),
            confirmed: yield* repo.list("acc_1", { status: "confirmed" }, { limit: 10, offset: 0 }),
            sol: yield* repo.list("acc_1", { token: "SOL" }, { limit: 10, offset: 0 }),
            networks: yield* repo.list("acc_1", { networks: ["solana", "base"] }, { limit: 10, offset: 0 }),
            none: yield* repo.list("acc_1", { networks: [] }, { limit: 10, offset: 0 }),
            window: yield* repo.list("acc_1", { fromMs: 1500, toMs: 2000 }, { limit: 10, offset: 0 }),
            history: yield* repo.history("acc_1")
          }
        }))
        const a = Option.getOrThrow(result.a)
        expect(a.amountIn).toBe(123456789012345678901234567n)
        expect(a.amountOut).toBe(77777777777777777777n)
        expect(a.stage).toBe("confirmed")
        expect(Option.isNone(result.foreign)).toBe(true)
        expect(Option.getOrThrow(result.byId).accountId).toBe("acc_2")
        expect(result.all.total).toBe(3)
        expect(result.all.items.map((t) => t.id)).toEqual(["trd_c", "trd_b", "trd_a"])
        expect(result.second).toMatchObject({ total: 3, limit: 1, offset: 1 })
        expect(result.second.items.map((t) => t.id)).toEqual(["trd_b"])
        expect(result.confirmed.items.map((t) => t.id)).toEqual(["trd_a"])
        expect(result.sol.items.map((t) => t.id)).toEqual(["trd_b"])
        expect(result.networks.items.map((t) => t.id)).toEqual(["trd_b"])
        expect(result.none.total).toBe(0)
        expect(result.window.items.map((t) => t.id)).toEqual(["trd_c", "trd_b"])
        expect(result.history.map((t) => t.id)).toEqual(["trd_a", "trd_b", "trd_c"])
      })

      it("keeps an account's trade history in order through the writes after it was read", async () => {
        const [read, written] = await run(Effect.gen(function*() {
          const repo = yield* TradeRepository
          yield* repo.insert(trade("trd_m", "acc_1", 2000))
          yield* repo.insert(trade("trd_n", "acc_2", 1000))
          const first = yield* repo.history("acc_1")
          // Later, earlier and tied creation times, and a change of stage, after the first read.
          yield* repo.insert(trade("trd_z", "acc_1", 3000))
          yield* repo.insert(trade("trd_e", "acc_1", 500))
          yield* repo.insert(trade("trd_a", "acc_1", 2000))
          yield* repo.update(trade("trd_m", "acc_1", 2000, { stage: "confirmed", amountOut: 5n }))
          return [first, yield* repo.history("acc_1")] as const
        }))
        expect(idsAndStages(read)).toEqual(["trd_m:awaiting_approval"])
        expect(idsAndStages(written)).toEqual([
          "trd_e:awaiting_approval",
          "trd_a:awaiting_approval",
          "trd_m:confirmed",
          "trd_z:awaiting_approval"
        ])
        // What a SQL store holds, read afresh, is the same.
        if (store.sql) {
          const stored = await run(Effect.flatMap(service(TradeRepository), (r) => r.history("acc_1")))
          expect(idsAndStages(stored)).toEqual(idsAndStages(written))
        }
      })

      it("keeps orders, lists the open ones and filters the account's list", async () => {
        const result = await run(Effect.gen(function*() {
          const repo = yield* OrderRepository
          yield* repo.insert(order("ord_a", "acc_1", 1000))
          yield* repo.insert(order("ord_b", "acc_2", 2000, { network: "ethereum", tokenIn: "ETH" }))
          yield* repo.insert(order("ord_c", "acc_1", 3000))
          yield* repo.update(order("ord_c", "acc_1", 3000, { status: "cancelled", closedAt: 3500 }))
          return {
            open: yield* repo.open,
            c: yield* repo.getById("ord_c"),
            foreign: yield* repo.get("acc_2", "ord_a"),
            pending: yield* repo.list("acc_1", { status: "pending" }, { limit: 10, offset: 0 }),
            eth: yield* repo.list("acc_2", { token: "ETH", network: "ethereum" }, { limit: 10, offset: 0 }),
            all: yield* repo.list("acc_1", {}, { limit: 10, offset: 0 })
          }
        }))
        expect(result.open.map((o) => o.id)).toEqual(["ord_a", "ord_b"])
        expect(Option.getOrThrow(result.c)).toMatchObject({ status: "cancelled", closedAt: 3500 })
        expect(Option.getOrThrow(result.c).amountIn).toBe(18446744073709551617n)
        expect(Option.isNone(result.foreign)).toBe(true)
        expect(result.pending.items.map((o) => o.id)).toEqual(["ord_a"])
        expect(result.eth.items.map((o) => o.id)).toEqual(["ord_b"])
        expect(result.all.items.map((o) => o.id)).toEqual(["ord_c", "ord_a"])
      })

      it("keeps alerts, counts them by status and channel, lists the active ones", async () => {
        const result = await run(Effect.gen(function*() {
          const repo = yield* AlertRepository
          yield* repo.insert(alert("alr_a", "acc_1", 1000))
          yield* repo.insert(
            alert("alr_b", "acc_1", 2000, { channel: "telegram", rule: { type: "portfolio", changePercent: 5 } })
          )
          yield* repo.insert(alert("alr_c", "acc_1", 3000, { rule: { type: "volume", token: "SOL", multiplier: 3 } }))
          yield* repo.insert(alert("alr_d", "acc_2", 5000))
          yield* repo.update(alert("alr_a", "acc_1", 1000, { status: "triggered", triggeredAt: 4000 }))
          const removedForeign = yield* repo.remove("acc_2", "alr_c")
          const removed = yield* repo.remove("acc_1", "alr_c")
          const removedAgain = yield* repo.remove("acc_1", "alr_c")
          return {
            removedForeign,
            removed,
            removedAgain,
            a: yield* repo.get("acc_1", "alr_a"),
            active: yield* repo.active,
            activeCount: yield* repo.countByStatus("acc_1", ["active"]),
            liveCount: yield* repo.countByStatus("acc_1", ["active", "triggered"]),
            noStatuses: yield* repo.countByStatus("acc_1", []),
            email: yield* repo.countByChannel("acc_1", "email", ["active", "triggered"]),
            telegram: yield* repo.countByChannel("acc_1", "telegram", ["triggered"]),
            eth: yield* repo.list("acc_1", { token: "ETH" }, { limit: 10, offset: 0 }),
            portfolio: yield* repo.list("acc_1", { type: "portfolio", status: "active" }, { limit: 10, offset: 0 })
          }
        }))
        expect([result.removedForeign, result.removed, result.removedAgain]).toEqual([false, true, false])
        expect(Option.getOrThrow(result.a)).toMatchObject({ status: "triggered", triggeredAt: 4000 })
        expect(result.active.map((a) => a.id)).toEqual(["alr_b", "alr_d"])
        expect([result.activeCount, result.liveCount, result.noStatuses]).toEqual([1, 2, 0])
        expect([result.email, result.telegram]).toEqual([1, 0])
        expect(result.eth.items.map((a) => a.id)).toEqual(["alr_a"])
        expect(result.portfolio.items.map((a) => a.id)).toEqual(["alr_b"])
      })

      it("keeps webhooks and their delivery attempts", async () => {
        const result = await run(Effect.gen(function*() {
          const hooks = yield* WebhookRepository
          const deliveries = yield* WebhookDeliveryRepository
          const hook = {
            id: "whk_1",
            accountId: "acc_1",
            url: "https://example.test/hook",
            events: ["trade.confirmed" as const],
            secret: "whsec_x",
            createdAt: 1000
          }
          yield* hooks.insert(hook)
          yield* hooks.insert({ ...hook, id: "whk_2", createdAt: 2000 })
          yield* deliveries.save(delivery("dlv_1", 1000))
          yield* deliveries.save(delivery("dlv_2", 2000))
          yield* deliveries.save({ ...delivery("dlv_1", 1000), status: "succeeded", responseStatus: 204 })
          return {
            foreign: yield* hooks.get("acc_2", "whk_1"),
            removed: yield* hooks.remove("acc_1", "whk_2"),
            list: yield* hooks.listByAccount("acc_1"),
            attempts: yield* deliveries.list("whk_1", { limit: 10, offset: 0 }),
            none: yield* deliveries.list("whk_9", { limit: 10, offset: 0 })
          }
        }))
        expect(Option.isNone(result.foreign)).toBe(true)
        expect(result.removed).toBe(true)
        expect(result.list.map((w) => w.id)).toEqual(["whk_1"])
        expect(result.list[0]!.events).toEqual(["trade.confirmed"])
        expect(result.attempts.items.map((d) => [d.id, d.status, d.responseStatus])).toEqual([
          ["dlv_2", "pending", null],
          ["dlv_1", "succeeded", 204]
        ])
        expect(result.none.total).toBe(0)
      })

      it("claims an Idempotency-Key once, replays its response, conflicts and expires as documented", async () => {
        const result = await run(Effect.gen(function*() {
          const store = yield* IdempotencyStore
          const first = yield* store.claim("acc_1", "k1", "fp", 1000)
          const inFlight = yield* store.claim("acc_1", "k1", "fp", 1001)
          yield* store.complete("acc_1", "k1", { status: 201, body: { id: "trd_1", amount: "12.5" } })
          const replay = yield* store.claim("acc_1", "k1", "fp", 1002)
          const otherBody = yield* store.claim("acc_1", "k1", "other", 1003)
          const otherAccount = yield* store.claim("acc_2", "k1", "other", 1004)
          const expired = yield* store.claim("acc_1", "k1", "other", 1000 + IDEMPOTENCY_TTL_MS)
          yield* store.claim("acc_1", "k2", "fp", 1000)
          yield* store.abandon("acc_1", "k2")
          const afterAbandon = yield* store.claim("acc_1", "k2", "fp", 1005)
          return { first, inFlight, replay, otherBody, otherAccount, expired, afterAbandon }
        }))
        expect(result.first._tag).toBe("Claimed")
        expect(result.inFlight._tag).toBe("Conflict")
        expect(result.replay).toEqual({
          _tag: "Replay",
          response: { status: 201, body: { id: "trd_1", amount: "12.5" } }
        })
        expect(result.otherBody._tag).toBe("Conflict")
        expect(result.otherAccount._tag).toBe("Claimed")
        expect(result.expired._tag).toBe("Claimed")
        expect(result.afterAbandon._tag).toBe("Claimed")
      })

      if (store.sql) {
        it(
          "gives one Idempotency-Key to exactly one of many concurrent claims on two clients",
          async () => {
            // Two runtimes: two clients with their own connections (two pools on PostgreSQL), as two processes have.
            const one = ManagedRuntime.make(store.layer(location))
            const two = ManagedRuntime.make(store.layer(location))
            try {
              const claims = await Promise.all(
                Array.from({ length: 24 }, (_, i) =>
                  (i % 2 === 0 ? one : two).runPromise(
                    Effect.flatMap(service(IdempotencyStore), (s) => s.claim("acc_1", "dup", "fp", 1000 + i))
                  ))
              )
              expect(claims.filter((c) => c._tag === "Claimed")).toHaveLength(1)
              expect(claims.filter((c) => c._tag === "Conflict")).toHaveLength(23)
            } finally {
              await one.dispose()
              await two.dispose()
            }
          }
        )
      }

      // A sole writer is, by definition, alone: the tests of changes by another client are not its.
      const shared = store.sql && store.soleWriter !== true

      if (shared) {
        it("sees a revocation committed by another client on the next lookup", async () => {
          const one = ManagedRuntime.make(store.layer(location))
          const two = ManagedRuntime.make(store.layer(location))
          try {
            const lookup = () =>
              two.runPromise(Effect.flatMap(service(ApiKeyRepository), (r) => r.findByHash("hash-key_1")))
            await one.runPromise(Effect.flatMap(service(ApiKeyRepository), (r) => r.insert(key("key_1", "acc_1", 1))))
            expect(Option.getOrThrow(await lookup()).revokedAt).toBeNull()
            await one.runPromise(
              Effect.flatMap(service(ApiKeyRepository), (r) => r.update(key("key_1", "acc_1", 1, { revokedAt: 9 })))
            )
            expect(Option.getOrThrow(await lookup()).revokedAt).toBe(9)
          } finally {
            await one.dispose()
            await two.dispose()
          }
        })
      }

      it("never lets a Free account hold more than 5 alerts under concurrent creation", async () => {
        // In memory: one store, one Alerts and its lock, 16 creations at once.
        const runtime = ManagedRuntime.make(alertsOn(store.layer(location)))
        try {
          const outcomes = await runtime.runPromise(Effect.gen(function*() {
            yield* (yield* AccountRepository).save(freeAccount)
            const alerts = yield* Alerts
            return yield* Effect.forEach(
              Array.from({ length: 16 }),
              () =>
                Effect.match(alerts.create("acc_free", alertBody), {
                  onFailure: (e) => e._tag,
                  onSuccess: () => "Created"
                }),
              { concurrency: "unbounded" }
            )
          }))
          expect(outcomes.filter((o) => o === "Created")).toHaveLength(FREE_PLAN_ALERTS_MAX)
          expect(outcomes.filter((o) => o === "AlertLimitExceeded")).toHaveLength(16 - FREE_PLAN_ALERTS_MAX)
        } finally {
          await runtime.dispose()
        }
      })

      if (shared) {
        it(
          "never lets a Free account hold more than 5 alerts when two processes create them at once",
          async () => {
            // Two processes (alertRacer.ts), each with its own Alerts, lock and connections, 8 creations
            // each, released together once both are connected, each pausing 2 ms between its count and
            // its write: only the database can keep them to the limit.
            await run(Effect.flatMap(service(AccountRepository), (r) => r.save(freeAccount)))
            const [one, two] = await race(location, 2, 8)
            // They raced: each one's creations began before the other's were over.
            expect(one!.started).toBeLessThan(two!.ended)
            expect(two!.started).toBeLessThan(one!.ended)
            const outcomes = [...one!.outcomes, ...two!.outcomes]
            expect(outcomes.filter((o) => o === "Created")).toHaveLength(FREE_PLAN_ALERTS_MAX)
            expect(outcomes.filter((o) => o === "AlertLimitExceeded")).toHaveLength(16 - FREE_PLAN_ALERTS_MAX)
            const stored = await run(
              Effect.flatMap(service(AlertRepository), (r) => r.countByStatus("acc_free", ["active", "triggered"]))
            )
            expect(stored).toBe(FREE_PLAN_ALERTS_MAX)
          },
          30_000
        )
      }

      if (shared) {
        it(
          "reads a cached key and account again once another client changed them, even by plain SQL",
          async () => {
            const one = ManagedRuntime.make(store.layer(location))
            const two = ManagedRuntime.make(store.layer(location))
            try {
              const principal = () =>
                two.runPromise(Effect.all([
                  Effect.flatMap(service(ApiKeyRepository), (r) => r.findByHash("hash-key_1")),
                  Effect.flatMap(service(AccountRepository), (r) => r.get("acc_1"))
                ]))
              await one.runPromise(Effect.gen(function*() {
                yield* (yield* AccountRepository).save({
                  id: "acc_1",
                  plan: "free",
                  notifications: { email: null, telegram: null, push: null }
                })
                yield* (yield* ApiKeyRepository).insert(key("key_1", "acc_1", 1))
              }))
              // Read twice: the second answer comes from the cache.
              await principal()
              const [before, account] = await principal()
              expect(Option.getOrThrow(before).revokedAt).toBeNull()
              expect(Option.getOrThrow(account).plan).toBe("free")
              // The other client changes both without the ports, as an operator's SQL session would.
              await Effect.runPromise(
                Effect.gen(function*() {
                  const sql = yield* SqlClient.SqlClient
                  yield* sql`UPDATE swapdesk_api_keys SET revoked_at = 9, doc = ${
                    JSON.stringify({ ...key("key_1", "acc_1", 1), revokedAt: 9 })
                  } WHERE id = 'key_1'`
                  yield* sql`UPDATE swapdesk_accounts SET doc = ${
                    JSON.stringify({
                      id: "acc_1",
                      plan: "pro",
                      notifications: { email: null, telegram: null, push: null }
                    })
                  } WHERE id = 'acc_1'`
                }).pipe(Effect.provide(SqlStore.layerClient(SqlStore.parseDatabaseUrl(location))), Effect.orDie)
              )
              const [after, upgraded] = await principal()
              expect(Option.getOrThrow(after).revokedAt).toBe(9)
              expect(Option.getOrThrow(upgraded).plan).toBe("pro")
            } finally {
              await one.dispose()
              await two.dispose()
            }
          }
        )
      }

      if (store.soleWriter === true) {
        it(
          "as the sole writer, sees its own changes at once and, as documented, not one made behind its back",
          async () => {
            const runtime = ManagedRuntime.make(store.layer(location))
            const plainSql = (effect: Effect.Effect<unknown, unknown, SqlClient.SqlClient>) =>
              Effect.runPromise(
                effect.pipe(Effect.provide(SqlStore.layerClient(SqlStore.parseDatabaseUrl(location))), Effect.orDie)
              )
            const free = {
              id: "acc_1",
              plan: "free",
              notifications: { email: null, telegram: null, push: null }
            } as const
            const principal = (on: typeof runtime) =>
              on.runPromise(Effect.all([
                Effect.flatMap(service(ApiKeyRepository), (r) => r.findByHash("hash-key_1")),
                Effect.flatMap(service(AccountRepository), (r) => r.get("acc_1"))
              ]))
            try {
              await runtime.runPromise(Effect.gen(function*() {
                yield* (yield* AccountRepository).save(free)
                yield* (yield* ApiKeyRepository).insert(key("key_1", "acc_1", 1))
              }))
              await principal(runtime)
              // Its own writes replace what the caches hold.
              await runtime.runPromise(Effect.gen(function*() {
                yield* (yield* ApiKeyRepository).update(key("key_1", "acc_1", 1, { revokedAt: 9 }))
                yield* (yield* AccountRepository).save({ ...free, plan: "pro" })
              }))
              const [revoked, upgraded] = await principal(runtime)
              expect(Option.getOrThrow(revoked).revokedAt).toBe(9)
              expect(Option.getOrThrow(upgraded).plan).toBe("pro")
              // Another client's change is not looked for: what the caches hold stands until a restart.
              await plainSql(Effect.gen(function*() {
                const sql = yield* SqlClient.SqlClient
                yield* sql`UPDATE swapdesk_api_keys SET revoked_at = NULL, doc = ${
                  JSON.stringify(key("key_1", "acc_1", 1))
                } WHERE id = 'key_1'`
                yield* sql`UPDATE swapdesk_accounts SET doc = ${JSON.stringify(free)} WHERE id = 'acc_1'`
              }))
              const [stillRevoked, stillPro] = await principal(runtime)
              expect(Option.getOrThrow(stillRevoked).revokedAt).toBe(9)
              expect(Option.getOrThrow(stillPro).plan).toBe("pro")
            } finally {
              await runtime.dispose()
            }
            const restarted = ManagedRuntime.make(store.layer(location))
            try {
              const [key1, account] = await principal(restarted)
              expect(Option.getOrThrow(key1).revokedAt).toBeNull()
              expect(Option.getOrThrow(account).plan).toBe("free")
            } finally {
              await restarted.dispose()
            }
          }
        )
      }

      if (shared) {
        it(
          "answers concurrent lookups from one revision read, and none passes after a revocation",
          async () => {
            const one = ManagedRuntime.make(store.layer(location))
            const two = ManagedRuntime.make(store.layer(location))
            try {
              // 20 lookups at once: on PostgreSQL they share the revision's round trips.
              const lookups = () =>
                two.runPromise(Effect.flatMap(service(ApiKeyRepository), (r) =>
                  Effect.all(
                    Array.from({ length: 20 }, () => r.findByHash("hash-key_1")),
                    { concurrency: "unbounded" }
                  )))
              await one.runPromise(Effect.flatMap(service(ApiKeyRepository), (r) => r.insert(key("key_1", "acc_1", 1))))
              expect((await lookups()).map((k) => Option.getOrThrow(k).revokedAt)).toEqual(Array(20).fill(null))
              await one.runPromise(
                Effect.flatMap(service(ApiKeyRepository), (r) => r.update(key("key_1", "acc_1", 1, { revokedAt: 9 })))
              )
              expect((await lookups()).map((k) => Option.getOrThrow(k).revokedAt)).toEqual(Array(20).fill(9))
            } finally {
              await one.dispose()
              await two.dispose()
            }
          }
        )
      }

      if (store.sql) {
        it("refuses a second trade filling the same limit order, from any client", async () => {
          const one = ManagedRuntime.make(store.layer(location))
          const two = ManagedRuntime.make(store.layer(location))
          try {
            const insert = (runtime: typeof one, id: string) =>
              runtime.runPromise(
                Effect.exit(
                  Effect.flatMap(service(TradeRepository), (r) => r.insert(trade(id, "acc_1", 1, { orderId: "ord_1" })))
                )
              )
            expect((await insert(one, "trd_fill"))._tag).toBe("Success")
            expect((await insert(two, "trd_again"))._tag).toBe("Failure")
            const [kept, refused, unlinked] = await run(Effect.flatMap(service(TradeRepository), (r) =>
              Effect.all([
                r.getById("trd_fill"),
                r.getById("trd_again"),
                Effect.andThen(r.insert(trade("trd_free", "acc_1", 2)), r.insert(trade("trd_free2", "acc_1", 3))).pipe(
                  Effect.andThen(r.history("acc_1"))
                )
              ])))
            expect(Option.isSome(kept)).toBe(true)
            expect(Option.isNone(refused)).toBe(true)
            // Trades of no order are not limited by it.
            expect(unlinked.map((t) => t.id)).toEqual(["trd_fill", "trd_free", "trd_free2"])
          } finally {
            await one.dispose()
            await two.dispose()
          }
        })
      }

      if (store.sql) {
        it(
          "keeps answering a final trade after the database lost it, and never a pending one",
          async () => {
            const runtime = ManagedRuntime.make(store.layer(location))
            try {
              const read = () =>
                runtime.runPromise(
                  Effect.flatMap(
                    service(TradeRepository),
                    (r) => Effect.all([r.get("acc_1", "trd_done"), r.get("acc_2", "trd_done"), r.getById("trd_open")])
                  )
                )
              await runtime.runPromise(Effect.flatMap(service(TradeRepository), (r) =>
                Effect.all([
                  r.insert(trade("trd_done", "acc_1", 1, { stage: "confirmed", amountOut: 5n })),
                  r.insert(trade("trd_open", "acc_1", 2))
                ])))
              await read()
              // Removed behind the store's back: only what the cache holds can still answer.
              await Effect.runPromise(
                Effect.gen(function*() {
                  const sql = yield* SqlClient.SqlClient
                  yield* sql`DELETE FROM swapdesk_trades`
                }).pipe(Effect.provide(SqlStore.layerClient(SqlStore.parseDatabaseUrl(location))), Effect.orDie)
              )
              const [done, foreign, open] = await read()
              expect(Option.getOrThrow(done).amountOut).toBe(5n)
              expect(Option.isNone(foreign)).toBe(true)
              expect(Option.isNone(open)).toBe(true)
            } finally {
              await runtime.dispose()
            }
          }
        )
      }

      if (store.sql) {
        it("keeps every record across a restart of the store", async () => {
          await run(Effect.gen(function*() {
            yield* (yield* TradeRepository).insert(trade("trd_keep", "acc_1", 1))
            const keys = yield* ApiKeyRepository
            yield* keys.insert(key("key_keep", "acc_1", 1))
            keys.touch("key_keep", 4242)
          }))
          const after = await run(Effect.all([
            Effect.flatMap(service(TradeRepository), (r) => r.get("acc_1", "trd_keep")),
            Effect.flatMap(service(ApiKeyRepository), (r) => r.get("acc_1", "key_keep"))
          ]))
          expect(Option.getOrThrow(after[0]).amountIn).toBe(123456789012345678901234567n)
          // The last use gathered in memory is written when the store closes.
          expect(Option.getOrThrow(after[1]).lastUsedAt).toBe(4242)
        })
      }
    }
  )
}
