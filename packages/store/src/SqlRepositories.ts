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
import { Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { decodeRecord, encodeRecord } from "./RecordCodec.ts"

interface DocRow {
  readonly doc: string
}

const docs = <A>(rows: ReadonlyArray<DocRow>): ReadonlyArray<A> => rows.map((row) => decodeRecord<A>(row.doc))
const firstDoc = <A>(rows: ReadonlyArray<DocRow>): Option.Option<A> =>
  rows.length === 0 ? Option.none() : Option.some(decodeRecord<A>(rows[0]!.doc))

const orDie = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, never, R> => Effect.orDie(effect)

/** One page of a table's `doc`s matching `where`, newest first, then id descending (as in memory). */
const pageOf = <A>(
  sql: SqlClient.SqlClient,
  table: string,
  where: ReadonlyArray<Fragment>,
  page: PageRequest
): Effect.Effect<Page<A>> =>
  orDie(Effect.gen(function*() {
    const condition = sql.and(where)
    const [count] = yield* sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM ${
      sql(table)
    } WHERE ${condition}`
    const rows = yield* sql<DocRow>`SELECT doc FROM ${sql(table)} WHERE ${condition}
      ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`
    return { total: Number(count!.n), limit: page.limit, offset: page.offset, items: docs<A>(rows) }
  }))

export const AccountRepositorySql = Layer.effect(
  AccountRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const save = (account: Account) =>
      orDie(sql`INSERT INTO swapdesk_accounts (id, doc) VALUES (${account.id}, ${encodeRecord(account)})
        ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)
    const get = (id: string) =>
      orDie(sql<DocRow>`SELECT doc FROM swapdesk_accounts WHERE id = ${id}`).pipe(Effect.map(firstDoc<Account>))
    return AccountRepository.of({
      get,
      save: (account) => Effect.asVoid(save(account)),
      // Read and write in one transaction, so a concurrent save of the plan is not lost.
      updateNotifications: (id, notifications) =>
        orDie(sql.withTransaction(Effect.flatMap(
          get(id),
          Option.match({ onNone: () => Effect.void, onSome: (a) => Effect.asVoid(save({ ...a, notifications })) })
        ))),
      all: orDie(sql<DocRow>`SELECT doc FROM swapdesk_accounts ORDER BY id`).pipe(Effect.map(docs<Account>))
    })
  })
)

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
    const withLastUse = (row: DocRow & { readonly last_used_at: number | string | null }): ApiKeyRecord => {
      const key = decodeRecord<ApiKeyRecord>(row.doc)
      const stored = row.last_used_at === null ? null : Number(row.last_used_at)
      const seen = lastUsed.get(key.id)
      const at = seen === undefined ? stored : stored === null ? seen : Math.max(seen, stored)
      return at === key.lastUsedAt ? key : { ...key, lastUsedAt: at }
    }
    type KeyRow = DocRow & { readonly last_used_at: number | string | null }
    const write = (key: ApiKeyRecord) =>
      orDie(sql`INSERT INTO swapdesk_api_keys ${
        sql.insert({
          id: key.id,
          account_id: key.accountId,
          secret_hash: key.secretHash,
          created_at: key.createdAt,
          revoked_at: key.revokedAt,
          last_used_at: key.lastUsedAt,
          doc: encodeRecord(key)
        })
      } ON CONFLICT (id) DO UPDATE SET revoked_at = excluded.revoked_at, doc = excluded.doc,
        secret_hash = excluded.secret_hash`)
    return ApiKeyRepository.of({
      insert: (key) => Effect.asVoid(write(key)),
      // Always read from the database: a revocation committed by another process is seen at once.
      findByHash: (hash) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys WHERE secret_hash = ${hash}`).pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(withLastUse(rows[0]!)))
        ),
      get: (accountId, id) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys
          WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(withLastUse(rows[0]!)))
        ),
      listByAccount: (accountId) =>
        orDie(sql<KeyRow>`SELECT doc, last_used_at FROM swapdesk_api_keys
          WHERE account_id = ${accountId} AND revoked_at IS NULL ORDER BY created_at DESC, id DESC`).pipe(
          Effect.map((rows) => rows.map(withLastUse))
        ),
      update: (key) => Effect.asVoid(write(key)),
      touch: (id, at) => {
        lastUsed.set(id, at)
        pending.set(id, at)
      }
    })
  })
)

export const AlertRepositorySql = Layer.effect(
  AlertRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const write = (alert: AlertRecord) =>
      orDie(sql`INSERT INTO swapdesk_alerts ${
        sql.insert({
          id: alert.id,
          account_id: alert.accountId,
          status: alert.status,
          type: alert.rule.type,
          token: alert.rule.type === "portfolio" ? null : alert.rule.token,
          channel: alert.channel,
          created_at: alert.createdAt,
          doc: encodeRecord(alert)
        })
      } ON CONFLICT (id) DO UPDATE SET status = excluded.status, type = excluded.type, token = excluded.token,
        channel = excluded.channel, doc = excluded.doc`)
    const count = (where: ReadonlyArray<Fragment>) =>
      orDie(sql<{ readonly n: number | string }>`SELECT COUNT(*) AS n FROM swapdesk_alerts WHERE ${sql.and(where)}`)
        .pipe(Effect.map((rows) => Number(rows[0]!.n)))
    return AlertRepository.of({
      insert: (alert) => Effect.asVoid(write(alert)),
      get: (accountId, id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_alerts WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map(firstDoc<AlertRecord>)
        ),
      update: (alert) => Effect.asVoid(write(alert)),
      remove: (accountId, id) =>
        orDie(sql<{ readonly id: string }>`DELETE FROM swapdesk_alerts WHERE id = ${id} AND account_id = ${accountId}
          RETURNING id`).pipe(Effect.map((rows) => rows.length > 0)),
      list: (accountId, filter, page) =>
        pageOf<AlertRecord>(sql, "swapdesk_alerts", [
          sql`account_id = ${accountId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
          ...(filter.type === undefined ? [] : [sql`type = ${filter.type}`]),
          ...(filter.token === undefined ? [] : [sql`token = ${filter.token}`])
        ], page),
      active: orDie(sql<DocRow>`SELECT doc FROM swapdesk_alerts WHERE status = 'active' ORDER BY created_at, id`)
        .pipe(Effect.map(docs<AlertRecord>)),
      countByStatus: (accountId, statuses) =>
        statuses.length === 0
          ? Effect.succeed(0)
          : count([sql`account_id = ${accountId}`, sql.in("status", statuses)]),
      countByChannel: (accountId, channel, statuses) =>
        statuses.length === 0
          ? Effect.succeed(0)
          : count([sql`account_id = ${accountId}`, sql`channel = ${channel}`, sql.in("status", statuses)])
    })
  })
)

export const TradeRepositorySql = Layer.effect(
  TradeRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const write = (trade: TradeRecord) =>
      orDie(sql`INSERT INTO swapdesk_trades ${
        sql.insert({
          id: trade.id,
          account_id: trade.accountId,
          status: statusOfStage(trade.stage),
          token_in: trade.tokenIn,
          token_out: trade.tokenOut,
          network: trade.network,
          created_at: trade.createdAt,
          doc: encodeRecord(trade)
        })
      } ON CONFLICT (id) DO UPDATE SET status = excluded.status, doc = excluded.doc`)
    return TradeRepository.of({
      insert: (trade) => Effect.asVoid(write(trade)),
      get: (accountId, id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_trades WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map(firstDoc<TradeRecord>)
        ),
      getById: (id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_trades WHERE id = ${id}`).pipe(Effect.map(firstDoc<TradeRecord>)),
      update: (trade) => Effect.asVoid(write(trade)),
      list: (accountId, filter, page) =>
        filter.networks !== undefined && filter.networks.length === 0
          ? Effect.succeed({ total: 0, limit: page.limit, offset: page.offset, items: [] })
          : pageOf<TradeRecord>(sql, "swapdesk_trades", [
            sql`account_id = ${accountId}`,
            ...(filter.token === undefined ? [] : [sql`(token_in = ${filter.token} OR token_out = ${filter.token})`]),
            ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
            ...(filter.networks === undefined ? [] : [sql.in("network", filter.networks)]),
            ...(filter.fromMs === undefined ? [] : [sql`created_at >= ${filter.fromMs}`]),
            ...(filter.toMs === undefined ? [] : [sql`created_at <= ${filter.toMs}`])
          ], page),
      history: (accountId) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_trades WHERE account_id = ${accountId}
          ORDER BY created_at, id`).pipe(Effect.map(docs<TradeRecord>))
    })
  })
)

export const OrderRepositorySql = Layer.effect(
  OrderRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const write = (order: OrderRecord) =>
      orDie(sql`INSERT INTO swapdesk_orders ${
        sql.insert({
          id: order.id,
          account_id: order.accountId,
          status: order.status,
          token_in: order.tokenIn,
          token_out: order.tokenOut,
          network: order.network,
          created_at: order.createdAt,
          doc: encodeRecord(order)
        })
      } ON CONFLICT (id) DO UPDATE SET status = excluded.status, doc = excluded.doc`)
    return OrderRepository.of({
      insert: (order) => Effect.asVoid(write(order)),
      get: (accountId, id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_orders WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map(firstDoc<OrderRecord>)
        ),
      getById: (id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_orders WHERE id = ${id}`).pipe(Effect.map(firstDoc<OrderRecord>)),
      update: (order) => Effect.asVoid(write(order)),
      list: (accountId, filter, page) =>
        pageOf<OrderRecord>(sql, "swapdesk_orders", [
          sql`account_id = ${accountId}`,
          ...(filter.status === undefined ? [] : [sql`status = ${filter.status}`]),
          ...(filter.token === undefined ? [] : [sql`(token_in = ${filter.token} OR token_out = ${filter.token})`]),
          ...(filter.network === undefined ? [] : [sql`network = ${filter.network}`])
        ], page),
      open: orDie(sql<DocRow>`SELECT doc FROM swapdesk_orders WHERE status = 'pending' ORDER BY created_at, id`).pipe(
        Effect.map(docs<OrderRecord>)
      )
    })
  })
)

export const WebhookRepositorySql = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return WebhookRepository.of({
      insert: (webhook: WebhookRecord) =>
        Effect.asVoid(orDie(sql`INSERT INTO swapdesk_webhooks ${
          sql.insert({
            id: webhook.id,
            account_id: webhook.accountId,
            created_at: webhook.createdAt,
            doc: encodeRecord(webhook)
          })
        } ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)),
      get: (accountId, id) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_webhooks WHERE id = ${id} AND account_id = ${accountId}`).pipe(
          Effect.map(firstDoc<WebhookRecord>)
        ),
      remove: (accountId, id) =>
        orDie(sql<{ readonly id: string }>`DELETE FROM swapdesk_webhooks WHERE id = ${id}
          AND account_id = ${accountId} RETURNING id`).pipe(Effect.map((rows) => rows.length > 0)),
      // Insertion order, as the in-memory map iterates.
      listByAccount: (accountId) =>
        orDie(sql<DocRow>`SELECT doc FROM swapdesk_webhooks WHERE account_id = ${accountId}
          ORDER BY created_at, id`).pipe(Effect.map(docs<WebhookRecord>))
    })
  })
)

export const WebhookDeliveryRepositorySql = Layer.effect(
  WebhookDeliveryRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return WebhookDeliveryRepository.of({
      save: (delivery: WebhookDeliveryRecord) =>
        Effect.asVoid(orDie(sql`INSERT INTO swapdesk_webhook_deliveries ${
          sql.insert({
            id: delivery.id,
            subscription_id: delivery.subscriptionId,
            created_at: delivery.createdAt,
            doc: encodeRecord(delivery)
          })
        } ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`)),
      list: (subscriptionId, page) =>
        pageOf<WebhookDeliveryRecord>(sql, "swapdesk_webhook_deliveries", [
          sql`subscription_id = ${subscriptionId}`
        ], page)
    })
  })
)

interface IdempotencyRow {
  readonly fingerprint: string
  readonly response_status: number | string | null
  readonly response_body: string | null
}

export const IdempotencyStoreSql = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return IdempotencyStore.of({
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
    })
  })
)

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
