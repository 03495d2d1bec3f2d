/**
 * Every repository port of `@swapdesk/core` on `effect/sql`: one implementation for SQLite and
 * PostgreSQL. Filters and the newest-first order run in SQL on indexed columns; the record itself
 * round-trips through its `doc` column (RecordCodec), amounts as exact decimal strings. A failing
 * database is a defect of the request, as the ports declare no errors.
 */
import {
  AccountRepository,
  AlertRepository,
  ApiKeyRepository,
  IDEMPOTENCY_TTL_MS,
  IdempotencyStore,
  OrderRepository,
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@swapdesk/core"
import type {
  Account,
  AlertRecord,
  ApiKeyRecord,
  IdempotencyClaim,
  OrderRecord,
  Page,
  PageRequest,
  TradeRecord,
  WebhookDeliveryRecord,
  WebhookRecord
} from "@swapdesk/core"
import { statusOfStage } from "@swapdesk/core"
import { type Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { decodeRecord, encodeRecord } from "./RecordCodec.ts"

interface DocRow {
  readonly doc: string
}

const docs = <A>(rows: ReadonlyArray<DocRow>): ReadonlyArray<A> => rows.map((row) => decodeRecord<A>(row.doc))

const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, never, R> => Effect.orDie(effect)

/**
 * One table of records kept as documents: each record's `doc` (RecordCodec) beside the columns
 * that its port's filters and orders read, which are written from the record on every save so
 * they can never disagree with it. Every repository below is one of these plus what its port adds.
 */
const documentTable = <A extends { readonly id: string }>(
  sql: SqlClient.SqlClient,
  table: string,
  options: {
    /** The indexed columns of a record, beside `id` and `doc`. */
    readonly columns: (record: A) => Record<string, string | number | null>
    /** The columns a later save may change, beside `doc` (the others are fixed at insert); none unless named. */
    readonly mutable?: ReadonlyArray<string>
  }
) => {
  const name = sql(table)
  const updates = sql.literal(
    [...(options.mutable ?? []), "doc"].map((column) => `${column} = excluded.${column}`).join(", ")
  )
  const where = (conditions: ReadonlyArray<Fragment>) => sql.and(conditions)
  return {
    /** Inserts the record, or replaces the one with its id. */
    save: (record: A): Effect.Effect<void> =>
      Effect.asVoid(
        orDie(
          sql`INSERT INTO ${name} ${
            sql.insert({ id: record.id, ...options.columns(record), doc: encodeRecord(record) })
          } ON CONFLICT (id) DO UPDATE SET ${updates}`
        )
      ),
    /** The record matching the conditions, if any. */
    find: (conditions: ReadonlyArray<Fragment>): Effect.Effect<Option.Option<A>> =>
      orDie(sql<DocRow>`SELECT doc FROM ${name} WHERE ${where(conditions)}`).pipe(
        Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(decodeRecord<A>(rows[0]!.doc)))
      ),
    /** Every record matching the conditions, oldest first, then by id. */
    oldestFirst: (conditions: ReadonlyArray<Fragment>): Effect.Effect<ReadonlyArray<A>> =>
      orDie(sql<DocRow>`SELECT doc FROM ${name} WHERE ${where(conditions)} ORDER BY created_at, id`).pipe(
        Effect.map(docs<A>)
      ),
    /** One page of the records matching the conditions, newest first, then id descending (as in memory). */
    page: (conditions: ReadonlyArray<Fragment>, page: PageRequest): Effect.Effect<Page<A>> =>
      orDie(Effect.gen(function*() {
        const [count] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM ${name}
          WHERE ${where(conditions)}`
        const rows = yield* sql<DocRow>`SELECT doc FROM ${name} WHERE ${where(conditions)}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
        return { total: Number(count!.n), limit: page.limit, offset: page.offset, items: docs<A>(rows) }
      })),
    /** How many records match the conditions. */
    count: (conditions: ReadonlyArray<Fragment>): Effect.Effect<number> =>
      orDie(sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM ${name} WHERE ${where(conditions)}`)
        .pipe(Effect.map((rows) => Number(rows[0]!.n))),
    /** Deletes the record matching the conditions; whether there was one. */
    remove: (conditions: ReadonlyArray<Fragment>): Effect.Effect<boolean> =>
      orDie(sql<{ readonly id: string }>`DELETE FROM ${name} WHERE ${where(conditions)} RETURNING id`).pipe(
        Effect.map((rows) => rows.length > 0)
      )
  }
}

/**
 * A table of swaps, trades or limit orders: filed by account, status, both tokens and network; only
 * the status changes after the insert.
 */
const swapTable = <A extends TradeRecord | OrderRecord>(
  sql: SqlClient.SqlClient,
  table: string,
  statusOf: (record: A) => string
) =>
  documentTable<A>(sql, table, {
    columns: (swap) => ({
      account_id: swap.accountId,
      status: statusOf(swap),
      token_in: swap.tokenIn,
      token_out: swap.tokenOut,
      network: swap.network,
      created_at: swap.createdAt
    }),
    mutable: ["status"]
  })

/** The conditions that find an account's own record by id. */
const owned = (sql: SqlClient.SqlClient, accountId: string, id: string): ReadonlyArray<Fragment> => [
  sql`id = ${id}`,
  sql`account_id = ${accountId}`
]

/**
 * What a swap table answers alike for trades and orders: its writes, an account's own swap, and a
 * swap by id alone (the chain and the order watcher name a swap, not its account).
 */
const swapRecords = <A extends TradeRecord | OrderRecord>(
  sql: SqlClient.SqlClient,
  swaps: ReturnType<typeof swapTable<A>>
) => ({
  insert: swaps.save,
  get: (accountId: string, id: string) => swaps.find(owned(sql, accountId, id)),
  getById: (id: string) => swaps.find([sql`id = ${id}`]),
  update: swaps.save
})

/** The condition a filter's `value` sets, or none when the filter leaves it out. */
const when = <V>(value: V | undefined, condition: (value: V) => Fragment): ReadonlyArray<Fragment> =>
  value === undefined ? [] : [condition(value)]

/** An empty page: what a filter that no record can match answers without asking the database. */
const emptyPage = <A>(page: PageRequest): Page<A> => ({ total: 0, limit: page.limit, offset: page.offset, items: [] })

/** A port implemented on the `SqlClient` in context alone. */
const sqlRepository = <Self, Shape>(port: Context.Key<Self, Shape>, make: (sql: SqlClient.SqlClient) => Shape) =>
  Layer.effect(port, Effect.map(SqlClient.SqlClient, make))

export const AccountRepositorySql = sqlRepository(AccountRepository, (sql) => {
  const accounts = documentTable<Account>(sql, "swapdesk_accounts", { columns: () => ({}) })
  const get = (id: string) => accounts.find([sql`id = ${id}`])
  return {
    get,
    save: accounts.save,
    // Read and write in one transaction, so a concurrent save of the plan is not lost.
    updateNotifications: (id, notifications) =>
      orDie(sql.withTransaction(Effect.flatMap(
        get(id),
        Option.match({ onNone: () => Effect.void, onSome: (a) => accounts.save({ ...a, notifications }) })
      ))),
    all: orDie(sql<DocRow>`SELECT doc FROM swapdesk_accounts ORDER BY id`).pipe(Effect.map(docs<Account>))
  }
})

/** How often the last-use times gathered in memory are written to the database. */
const TOUCH_FLUSH_INTERVAL = Duration.seconds(1)

export const ApiKeyRepositorySql = Layer.effect(
  ApiKeyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // `touch` is on every authenticated request and synchronous by contract: it records the time
    // here, and a background fiber writes the batch (last use is informative, never authorising).
    let pending = new Map<string, number>()
    const lastUsed = new Map<string, number>()
    const flush = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const batch = pending
      pending = new Map()
      return Effect.forEach(
        batch,
        ([id, at]) =>
          sql`UPDATE swapdesk_api_keys SET last_used_at = ${at} WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at})`,
        { discard: true }
      ).pipe(Effect.catchCause(() => Effect.void))
    })
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(TOUCH_FLUSH_INTERVAL)))
    yield* Effect.addFinalizer(() => flush)
    type KeyRow = DocRow & { readonly last_used_at: number | string | null }
    const withLastUse = (row: KeyRow): ApiKeyRecord => {
      const key = decodeRecord<ApiKeyRecord>(row.doc)
      const stored = row.last_used_at === null ? null : Number(row.last_used_at)
      const seen = lastUsed.get(key.id)
      const at = seen === undefined ? stored : stored === null ? seen : Math.max(seen, stored)
      return at === key.lastUsedAt ? key : { ...key, lastUsedAt: at }
    }
    const firstKey = (rows: ReadonlyArray<KeyRow>) =>
      rows.length === 0 ? Option.none() : Option.some(withLastUse(rows[0]!))
    const keys = documentTable<ApiKeyRecord>(sql, "swapdesk_api_keys", {
      columns: (key) => ({
        account_id: key.accountId,
        secret_hash: key.secretHash,
        created_at: key.createdAt,
        revoked_at: key.revokedAt,
        last_used_at: key.lastUsedAt
      }),
      mutable: ["revoked_at", "secret_hash"]
    })
    return ApiKeyRepository.of({
      insert: keys.save,
      // Always read from the database: a revocation committed by another process is seen at once.
      findByHash: (hash) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys WHERE secret_hash = ${hash}`).pipe(
          Effect.map(firstKey)
        ),
      get: (accountId, id) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys
          WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map(firstKey)
        ),
      listByAccount: (accountId) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys
          WHERE account_id = ${accountId} AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`).pipe(
          Effect.map((rows) => rows.map(withLastUse))
        ),
      update: keys.save,
      touch: (id, at) => {
        lastUsed.set(id, at)
        pending.set(id, at)
      }
    })
  })
)

export const AlertRepositorySql = sqlRepository(AlertRepository, (sql) => {
  const alerts = documentTable<AlertRecord>(sql, "swapdesk_alerts", {
    columns: (alert) => ({
      account_id: alert.accountId,
      status: alert.status,
      type: alert.rule.type,
      token: alert.rule.type === "portfolio" ? null : alert.rule.token,
      channel: alert.channel,
      created_at: alert.createdAt
    }),
    mutable: ["status", "type", "token", "channel"]
  })
  return {
    insert: alerts.save,
    get: (accountId, id) => alerts.find(owned(sql, accountId, id)),
    update: alerts.save,
    remove: (accountId, id) => alerts.remove(owned(sql, accountId, id)),
    list: (accountId, filter, page) =>
      alerts.page([
        sql`account_id = ${accountId}`,
        ...when(filter.status, (status) => sql`status = ${status}`),
        ...when(filter.type, (type) => sql`type = ${type}`),
        ...when(filter.token, (token) => sql`token = ${token}`)
      ], page),
    active: alerts.oldestFirst([sql`status = 'active'`]),
    countByStatus: (accountId, statuses) =>
      statuses.length === 0
        ? Effect.succeed(0)
        : alerts.count([sql`account_id = ${accountId}`, sql.in("status", statuses)]),
    countByChannel: (accountId, channel, statuses) =>
      statuses.length === 0
        ? Effect.succeed(0)
        : alerts.count([sql`account_id = ${accountId}`, sql`channel = ${channel}`, sql.in("status", statuses)])
  }
})

export const TradeRepositorySql = sqlRepository(TradeRepository, (sql) => {
  const trades = swapTable<TradeRecord>(sql, "swapdesk_trades", (trade) => statusOfStage(trade.stage))
  return {
    ...swapRecords(sql, trades),
    list: (accountId, filter, page) =>
      filter.networks !== undefined && filter.networks.length === 0
        ? Effect.succeed(emptyPage<TradeRecord>(page))
        : trades.page([
          sql`account_id = ${accountId}`,
          ...when(filter.token, (token) => sql`(token_in = ${token} OR token_out = ${token})`),
          ...when(filter.status, (status) => sql`status = ${status}`),
          ...when(filter.networks, (networks) => sql.in("network", networks)),
          ...when(filter.fromMs, (fromMs) => sql`created_at >= ${fromMs}`),
          ...when(filter.toMs, (toMs) => sql`created_at <= ${toMs}`)
        ], page),
    history: (accountId) => trades.oldestFirst([sql`account_id = ${accountId}`])
  }
})

export const OrderRepositorySql = sqlRepository(OrderRepository, (sql) => {
  const orders = swapTable<OrderRecord>(sql, "swapdesk_orders", (order) => order.status)
  return {
    ...swapRecords(sql, orders),
    list: (accountId, filter, page) =>
      orders.page([
        sql`account_id = ${accountId}`,
        ...when(filter.status, (status) => sql`status = ${status}`),
        ...when(filter.token, (token) => sql`(token_in = ${token} OR token_out = ${token})`),
        ...when(filter.network, (network) => sql`network = ${network}`)
      ], page),
    open: orders.oldestFirst([sql`status = 'pending'`])
  }
})

export const WebhookRepositorySql = sqlRepository(WebhookRepository, (sql) => {
  const webhooks = documentTable<WebhookRecord>(sql, "swapdesk_webhooks", {
    columns: (webhook) => ({ account_id: webhook.accountId, created_at: webhook.createdAt })
  })
  return {
    insert: webhooks.save,
    get: (accountId, id) => webhooks.find(owned(sql, accountId, id)),
    remove: (accountId, id) => webhooks.remove(owned(sql, accountId, id)),
    // Insertion order, as the in-memory map iterates.
    listByAccount: (accountId) => webhooks.oldestFirst([sql`account_id = ${accountId}`])
  }
})

export const WebhookDeliveryRepositorySql = sqlRepository(WebhookDeliveryRepository, (sql) => {
  const deliveries = documentTable<WebhookDeliveryRecord>(sql, "swapdesk_webhook_deliveries", {
    columns: (delivery) => ({ subscription_id: delivery.subscriptionId, created_at: delivery.createdAt })
  })
  return {
    save: deliveries.save,
    list: (subscriptionId, page) => deliveries.page([sql`subscription_id = ${subscriptionId}`], page)
  }
})

interface IdempotencyRow {
  readonly fingerprint: string
  readonly response_status: number | string | null
  readonly response_body: string | null
}

export const IdempotencyStoreSql = sqlRepository(IdempotencyStore, (sql) => {
  return {
    // One statement decides the claim: the insert wins, or takes over a claim older than the TTL;
    // the database's unique key makes concurrent duplicates on other connections lose.
    claim: (accountId, key, fingerprint, now) =>
      orDie(Effect.gen(function*() {
        const claimed = yield* sql<{ readonly claimed_at: number | string }>`INSERT INTO swapdesk_idempotency
          (account_id, idempotency_key, fingerprint, claimed_at)
          VALUES (${accountId}, ${key}, ${fingerprint}, ${now})
          ON CONFLICT (account_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
            claimed_at = excluded.claimed_at, response_status = NULL, response_body = NULL
          WHERE swapdesk_idempotency.claimed_at <= ${now - IDEMPOTENCY_TTL_MS}
          RETURNING claimed_at`
        if (claimed.length > 0) return { _tag: "Claimed" } as IdempotencyClaim
        const [row] = yield* sql<IdempotencyRow>`SELECT fingerprint, response_status, response_body
          FROM swapdesk_idempotency WHERE account_id = ${accountId} AND idempotency_key = ${key}`
        // Abandoned between the two statements: the key is free again.
        if (row === undefined) {
          return {
            _tag: "Conflict",
            reason: "the first request with this Idempotency-Key is still in flight"
          } as const
        }
        if (row.fingerprint !== fingerprint) {
          return {
            _tag: "Conflict",
            reason: "this Idempotency-Key was already used with a different request body"
          } as const
        }
        if (row.response_status === null) {
          return {
            _tag: "Conflict",
            reason: "the first request with this Idempotency-Key is still in flight"
          } as const
        }
        return {
          _tag: "Replay",
          response: { status: Number(row.response_status), body: decodeRecord<unknown>(row.response_body ?? "null") }
        } as const
      })),
    complete: (accountId, key, response) =>
      Effect.asVoid(orDie(sql`UPDATE swapdesk_idempotency SET response_status = ${response.status},
        response_body = ${encodeRecord(response.body)}
        WHERE account_id = ${accountId} AND idempotency_key = ${key}`)),
    abandon: (accountId, key) =>
      Effect.asVoid(orDie(sql`DELETE FROM swapdesk_idempotency
        WHERE account_id = ${accountId} AND idempotency_key = ${key}`))
  }
})

/** Every repository port of core on the `SqlClient` in context (migrate first: see SqlStore). */
export const layerSqlRepositories = Layer.mergeAll(
  AccountRepositorySql,
  ApiKeyRepositorySql,
  AlertRepositorySql,
  TradeRepositorySql,
  OrderRepositorySql,
  WebhookRepositorySql,
  WebhookDeliveryRepositorySql,
  IdempotencyStoreSql
)
