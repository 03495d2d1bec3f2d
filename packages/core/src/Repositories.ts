/**
 * Ports for every piece of state the use cases keep, with in-memory layers. A SQL-backed layer
 * implements the same services; no use case changes with it.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { Account, Channel, NotificationSettings } from "./Account.ts"
import type { AlertRecord, AlertStatus, AlertType } from "./Alert.ts"
import type { ApiKeyRecord } from "./ApiKey.ts"
import type { Network } from "./Network.ts"
import type { OrderRecord, OrderStatus } from "./Order.ts"
import { newestFirst, type Page, type PageRequest, paginate } from "./Page.ts"
import type { TradeRecord, TradeStatus } from "./Trade.ts"
import { statusOfStage } from "./Trade.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"

export class AccountRepository extends Context.Service<AccountRepository, {
  readonly get: (id: string) => Effect.Effect<Option.Option<Account>>
  readonly save: (account: Account) => Effect.Effect<void>
  readonly updateNotifications: (id: string, settings: NotificationSettings) => Effect.Effect<void>
  readonly all: Effect.Effect<ReadonlyArray<Account>>
}>()("@swapdesk/core/AccountRepository") {
  static readonly layerMemory = Layer.sync(AccountRepository, () => {
    const rows = new Map<string, Account>()
    return {
      get: (id) => Effect.sync(() => Option.fromNullishOr(rows.get(id))),
      save: (account) => Effect.sync(() => void rows.set(account.id, account)),
      updateNotifications: (id, notifications) =>
        Effect.sync(() => {
          const account = rows.get(id)
          if (account !== undefined) rows.set(id, { ...account, notifications })
        }),
      all: Effect.sync(() => Array.from(rows.values()))
    }
  })
}

export class ApiKeyRepository extends Context.Service<ApiKeyRepository, {
  readonly insert: (key: ApiKeyRecord) => Effect.Effect<void>
  /** The key with this secret hash, revoked ones included (the caller decides whether it is usable). */
  readonly findByHash: (secretHash: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<ApiKeyRecord>>
  /** The account's unrevoked keys (expired ones included), newest first. */
  readonly listByAccount: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  readonly update: (key: ApiKeyRecord) => Effect.Effect<void>
  /**
   * Records that the key was used at `at`. It is on every authenticated request's path, so it
   * writes one number and never copies the record; reads see it in `lastUsedAt`.
   */
  readonly touch: (id: string, at: number) => void
}>()("@swapdesk/core/ApiKeyRepository") {
  static readonly layerMemory = Layer.sync(ApiKeyRepository, () => {
    const rows = new Map<string, ApiKeyRecord>()
    const byHash = new Map<string, string>()
    const lastUsed = new Map<string, number>()
    const withLastUse = (key: ApiKeyRecord): ApiKeyRecord => {
      const at = lastUsed.get(key.id)
      return at === undefined || at === key.lastUsedAt ? key : { ...key, lastUsedAt: at }
    }
    return {
      insert: (key) =>
        Effect.sync(() => {
          rows.set(key.id, key)
          byHash.set(key.secretHash, key.id)
        }),
      findByHash: (hash) =>
        Effect.sync(() => {
          const id = byHash.get(hash)
          return Option.fromNullishOr(id === undefined ? undefined : rows.get(id))
        }),
      get: (accountId, id) =>
        Effect.sync(() =>
          Option.fromNullishOr(rows.get(id)).pipe(
            Option.filter((k) => k.accountId === accountId),
            Option.map(withLastUse)
          )
        ),
      listByAccount: (accountId) =>
        Effect.sync(() =>
          Array.from(rows.values())
            .filter((k) => k.accountId === accountId && k.revokedAt === null)
            .sort(newestFirst)
            .map(withLastUse)
        ),
      update: (key) => Effect.sync(() => void rows.set(key.id, key)),
      touch: (id, at) => void lastUsed.set(id, at)
    }
  })
}

export interface AlertFilter {
  readonly status?: AlertStatus
  readonly type?: AlertType
  /** Registry symbol. */
  readonly token?: string
}

export class AlertRepository extends Context.Service<AlertRepository, {
  readonly insert: (alert: AlertRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<AlertRecord>>
  readonly update: (alert: AlertRecord) => Effect.Effect<void>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  readonly list: (accountId: string, filter: AlertFilter, page: PageRequest) => Effect.Effect<Page<AlertRecord>>
  /** Active alerts of every account, oldest first: what the monitor evaluates. */
  readonly active: Effect.Effect<ReadonlyArray<AlertRecord>>
  readonly countByStatus: (accountId: string, statuses: ReadonlyArray<AlertStatus>) => Effect.Effect<number>
  /** How many of the account's alerts in these statuses notify on `channel`. */
  readonly countByChannel: (
    accountId: string,
    channel: Channel,
    statuses: ReadonlyArray<AlertStatus>
  ) => Effect.Effect<number>
}>()("@swapdesk/core/AlertRepository") {
  static readonly layerMemory = Layer.sync(AlertRepository, () => {
    const rows = new Map<string, AlertRecord>()
    // Kept beside the rows so the per-tick monitor never scans disabled or triggered alerts.
    const activeIds = new Set<string>()
    const write = (alert: AlertRecord) => {
      rows.set(alert.id, alert)
      if (alert.status === "active") activeIds.add(alert.id)
      else activeIds.delete(alert.id)
    }
    return {
      insert: (alert) => Effect.sync(() => write(alert)),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((a) => a.accountId === accountId))),
      update: (alert) => Effect.sync(() => write(alert)),
      remove: (accountId, id) =>
        Effect.sync(() => {
          const alert = rows.get(id)
          if (alert === undefined || alert.accountId !== accountId) return false
          rows.delete(id)
          activeIds.delete(id)
          return true
        }),
      list: (accountId, filter, page) =>
        Effect.sync(() =>
          paginate(
            rows.values(),
            (a) =>
              a.accountId === accountId &&
              (filter.status === undefined || a.status === filter.status) &&
              (filter.type === undefined || a.rule.type === filter.type) &&
              (filter.token === undefined || (a.rule.type !== "portfolio" && a.rule.token === filter.token)),
            page
          )
        ),
      active: Effect.sync(() => Array.from(activeIds, (id) => rows.get(id)!)),
      countByStatus: (accountId, statuses) =>
        Effect.sync(() => {
          let count = 0
          for (const a of rows.values()) if (a.accountId === accountId && statuses.includes(a.status)) count++
          return count
        }),
      countByChannel: (accountId, channel, statuses) =>
        Effect.sync(() => {
          let count = 0
          for (const a of rows.values()) {
            if (a.accountId === accountId && a.channel === channel && statuses.includes(a.status)) count++
          }
          return count
        })
    }
  })
}

export interface TradeFilter {
  /** Registry symbol, as `tokenIn` or `tokenOut`. */
  readonly token?: string
  readonly status?: TradeStatus
  /** Any of these networks. */
  readonly networks?: ReadonlyArray<Network>
  /** Inclusive bounds on `createdAt`. */
  readonly fromMs?: number
  readonly toMs?: number
}

export class TradeRepository extends Context.Service<TradeRepository, {
  readonly insert: (trade: TradeRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<TradeRecord>>
  /** A trade by id alone, for adapters reporting on it. */
  readonly getById: (id: string) => Effect.Effect<Option.Option<TradeRecord>>
  readonly update: (trade: TradeRecord) => Effect.Effect<void>
  readonly list: (accountId: string, filter: TradeFilter, page: PageRequest) => Effect.Effect<Page<TradeRecord>>
  /** Every trade of the account, oldest first (portfolio cost basis). */
  readonly history: (accountId: string) => Effect.Effect<ReadonlyArray<TradeRecord>>
}>()("@swapdesk/core/TradeRepository") {
  static readonly layerMemory = Layer.sync(TradeRepository, () => {
    const rows = new Map<string, TradeRecord>()
    return {
      insert: (trade) => Effect.sync(() => void rows.set(trade.id, trade)),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((t) => t.accountId === accountId))),
      getById: (id) => Effect.sync(() => Option.fromNullishOr(rows.get(id))),
      update: (trade) => Effect.sync(() => void rows.set(trade.id, trade)),
      list: (accountId, filter, page) =>
        Effect.sync(() =>
          paginate(
            rows.values(),
            (t) =>
              t.accountId === accountId &&
              (filter.token === undefined || t.tokenIn === filter.token || t.tokenOut === filter.token) &&
              (filter.status === undefined || statusOfStage(t.stage) === filter.status) &&
              (filter.networks === undefined || filter.networks.includes(t.network)) &&
              (filter.fromMs === undefined || t.createdAt >= filter.fromMs) &&
              (filter.toMs === undefined || t.createdAt <= filter.toMs),
            page
          )
        ),
      history: (accountId) =>
        Effect.sync(() =>
          Array.from(rows.values()).filter((t) => t.accountId === accountId).sort((a, b) => a.createdAt - b.createdAt)
        )
    }
  })
}

export interface OrderFilter {
  readonly status?: OrderStatus
  readonly token?: string
  readonly network?: Network
}

export class OrderRepository extends Context.Service<OrderRepository, {
  readonly insert: (order: OrderRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<OrderRecord>>
  /** An order by id alone, for the watcher. */
  readonly getById: (id: string) => Effect.Effect<Option.Option<OrderRecord>>
  readonly update: (order: OrderRecord) => Effect.Effect<void>
  readonly list: (accountId: string, filter: OrderFilter, page: PageRequest) => Effect.Effect<Page<OrderRecord>>
  /** Pending orders of every account: what the limit order watcher indexes when it starts. */
  readonly open: Effect.Effect<ReadonlyArray<OrderRecord>>
}>()("@swapdesk/core/OrderRepository") {
  static readonly layerMemory = Layer.sync(OrderRepository, () => {
    const rows = new Map<string, OrderRecord>()
    const openIds = new Set<string>()
    const write = (order: OrderRecord) => {
      rows.set(order.id, order)
      if (order.status === "pending") openIds.add(order.id)
      else openIds.delete(order.id)
    }
    return {
      insert: (order) => Effect.sync(() => write(order)),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((o) => o.accountId === accountId))),
      getById: (id) => Effect.sync(() => Option.fromNullishOr(rows.get(id))),
      update: (order) => Effect.sync(() => write(order)),
      list: (accountId, filter, page) =>
        Effect.sync(() =>
          paginate(
            rows.values(),
            (o) =>
              o.accountId === accountId &&
              (filter.status === undefined || o.status === filter.status) &&
              (filter.token === undefined || o.tokenIn === filter.token || o.tokenOut === filter.token) &&
              (filter.network === undefined || o.network === filter.network),
            page
          )
        ),
      open: Effect.sync(() => Array.from(openIds, (id) => rows.get(id)!))
    }
  })
}

export class WebhookRepository extends Context.Service<WebhookRepository, {
  readonly insert: (webhook: WebhookRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookRecord>>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  readonly listByAccount: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRecord>>
}>()("@swapdesk/core/WebhookRepository") {
  static readonly layerMemory = Layer.sync(WebhookRepository, () => {
    const rows = new Map<string, WebhookRecord>()
    return {
      insert: (webhook) => Effect.sync(() => void rows.set(webhook.id, webhook)),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((w) => w.accountId === accountId))),
      remove: (accountId, id) =>
        Effect.sync(() => {
          const webhook = rows.get(id)
          if (webhook === undefined || webhook.accountId !== accountId) return false
          return rows.delete(id)
        }),
      listByAccount: (accountId) =>
        Effect.sync(() => Array.from(rows.values()).filter((w) => w.accountId === accountId))
    }
  })
}

export class WebhookDeliveryRepository extends Context.Service<WebhookDeliveryRepository, {
  /** Inserts or replaces the attempt with this id. */
  readonly save: (delivery: WebhookDeliveryRecord) => Effect.Effect<void>
  /** A subscription's attempts, newest first. */
  readonly list: (subscriptionId: string, page: PageRequest) => Effect.Effect<Page<WebhookDeliveryRecord>>
}>()("@swapdesk/core/WebhookDeliveryRepository") {
  static readonly layerMemory = Layer.sync(WebhookDeliveryRepository, () => {
    const bySubscription = new Map<string, Map<string, WebhookDeliveryRecord>>()
    return {
      save: (delivery) =>
        Effect.sync(() => {
          let rows = bySubscription.get(delivery.subscriptionId)
          if (rows === undefined) bySubscription.set(delivery.subscriptionId, rows = new Map())
          rows.set(delivery.id, delivery)
        }),
      list: (subscriptionId, page) =>
        Effect.sync(() => paginate(bySubscription.get(subscriptionId)?.values() ?? [], () => true, page))
    }
  })
}

/** A stored response to an idempotent request. */
export interface StoredResponse {
  readonly status: number
  readonly body: unknown
}

export type IdempotencyClaim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  | { readonly _tag: "Conflict"; readonly reason: string }

/** How long an `Idempotency-Key` is remembered, per account. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

const idempotencyKeyOf = (accountId: string, key: string) => `${accountId}\u0000${key}`

export class IdempotencyStore extends Context.Service<IdempotencyStore, {
  /**
   * Claims a key for a request fingerprint, atomically: the first claim wins; a repeat with the same
   * fingerprint replays the stored response (or conflicts while the first is still in flight); a
   * different fingerprint conflicts.
   */
  readonly claim: (accountId: string, key: string, fingerprint: string, now: number) => Effect.Effect<IdempotencyClaim>
  readonly complete: (accountId: string, key: string, response: StoredResponse) => Effect.Effect<void>
  /** Forgets a claim whose request failed before doing anything, so it may be retried. */
  readonly abandon: (accountId: string, key: string) => Effect.Effect<void>
}>()("@swapdesk/core/IdempotencyStore") {
  static readonly layerMemory = Layer.sync(IdempotencyStore, () => {
    interface Entry {
      readonly fingerprint: string
      readonly claimedAt: number
      response: StoredResponse | undefined
    }
    const rows = new Map<string, Entry>()
    return {
      claim: (accountId, key, fingerprint, now) =>
        Effect.sync((): IdempotencyClaim => {
          const id = idempotencyKeyOf(accountId, key)
          const entry = rows.get(id)
          if (entry === undefined || now - entry.claimedAt >= IDEMPOTENCY_TTL_MS) {
            rows.set(id, { fingerprint, claimedAt: now, response: undefined })
            return { _tag: "Claimed" }
          }
          if (entry.fingerprint !== fingerprint) {
            return { _tag: "Conflict", reason: "this Idempotency-Key was already used with a different request body" }
          }
          if (entry.response === undefined) {
            return { _tag: "Conflict", reason: "the first request with this Idempotency-Key is still in flight" }
          }
          return { _tag: "Replay", response: entry.response }
        }),
      complete: (accountId, key, response) =>
        Effect.sync(() => {
          const entry = rows.get(idempotencyKeyOf(accountId, key))
          if (entry !== undefined) entry.response = response
        }),
      abandon: (accountId, key) => Effect.sync(() => void rows.delete(idempotencyKeyOf(accountId, key)))
    }
  })
}

/** Every repository, in memory. */
export const layerMemoryRepositories = Layer.mergeAll(
  AccountRepository.layerMemory,
  ApiKeyRepository.layerMemory,
  AlertRepository.layerMemory,
  TradeRepository.layerMemory,
  OrderRepository.layerMemory,
  WebhookRepository.layerMemory,
  WebhookDeliveryRepository.layerMemory,
  IdempotencyStore.layerMemory
)
