/**
 * Ports for every piece of state the use cases keep, with in-memory layers. A SQL-backed layer
 * implements the same services; no use case changes with it.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { Account, Channel, NotificationSettings } from "./Account.ts"
import type { AlertRecord, AlertStatus, AlertType } from "./Alert.ts"
import type { ApiKeyRecord } from "./ApiKey.ts"
import { ListIndex, pageFrom } from "./ListIndex.ts"
import type { Network } from "./Network.ts"
import type { OrderRecord, OrderStatus } from "./Order.ts"
import type { Page, PageRequest } from "./Page.ts"
import type { TradeRecord, TradeStatus } from "./Trade.ts"
import { statusOfStage } from "./Trade.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"

/** Moves a record between index keys when an update changes which keys it is filed under. */
const reindex = (
  index: ListIndex,
  before: ReadonlyArray<string>,
  after: ReadonlyArray<string>,
  record: { readonly createdAt: number; readonly id: string }
) => {
  for (const key of before) if (!after.includes(key)) index.remove(key, record.createdAt, record.id)
  for (const key of after) if (!before.includes(key)) index.add(key, record.createdAt, record.id)
}

// Index keys: the account alone, then the account with one filter's value (NUL never appears in either).
const statusKey = (accountId: string, status: string) => `${accountId}\u0000s\u0000${status}`
const tokenKey = (accountId: string, token: string) => `${accountId}\u0000t\u0000${token}`
const networkKey = (accountId: string, network: string) => `${accountId}\u0000n\u0000${network}`
const typeKey = (accountId: string, type: string) => `${accountId}\u0000y\u0000${type}`

const tradeKeys = (t: TradeRecord): ReadonlyArray<string> => [
  ...new Set([
    t.accountId,
    statusKey(t.accountId, statusOfStage(t.stage)),
    tokenKey(t.accountId, t.tokenIn),
    tokenKey(t.accountId, t.tokenOut),
    networkKey(t.accountId, t.network)
  ])
]

const orderKeys = (o: OrderRecord): ReadonlyArray<string> => [
  ...new Set([
    o.accountId,
    statusKey(o.accountId, o.status),
    tokenKey(o.accountId, o.tokenIn),
    tokenKey(o.accountId, o.tokenOut),
    networkKey(o.accountId, o.network)
  ])
]

const alertKeys = (a: AlertRecord): ReadonlyArray<string> => [
  a.accountId,
  statusKey(a.accountId, a.status),
  typeKey(a.accountId, a.rule.type),
  ...(a.rule.type === "portfolio" ? [] : [tokenKey(a.accountId, a.rule.token)])
]

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
    // Each account's unrevoked keys, in list order.
    const unrevoked = new ListIndex()
    const write = (key: ApiKeyRecord) => {
      rows.set(key.id, key)
      if (key.revokedAt === null) unrevoked.add(key.accountId, key.createdAt, key.id)
      else unrevoked.remove(key.accountId, key.createdAt, key.id)
    }
    const withLastUse = (key: ApiKeyRecord): ApiKeyRecord => {
      const at = lastUsed.get(key.id)
      return at === undefined || at === key.lastUsedAt ? key : { ...key, lastUsedAt: at }
    }
    return {
      insert: (key) =>
        Effect.sync(() => {
          write(key)
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
        Effect.sync(() => Array.from(unrevoked.newestFirst(accountId), (id) => withLastUse(rows.get(id)!))),
      update: (key) => Effect.sync(() => write(key)),
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
    const index = new ListIndex()
    const write = (alert: AlertRecord) => {
      const previous = rows.get(alert.id)
      if (previous !== undefined) reindex(index, alertKeys(previous), alertKeys(alert), alert)
      else for (const key of alertKeys(alert)) index.add(key, alert.createdAt, alert.id)
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
          for (const key of alertKeys(alert)) index.remove(key, alert.createdAt, id)
          return true
        }),
      list: (accountId, filter, page) =>
        Effect.sync(() => {
          const filters = [filter.status, filter.type, filter.token].filter((f) => f !== undefined).length
          const candidates = [{ key: accountId, exact: filters === 0 }]
          if (filter.status !== undefined) {
            candidates.push({ key: statusKey(accountId, filter.status), exact: filters === 1 })
          }
          if (filter.type !== undefined) {
            candidates.push({ key: typeKey(accountId, filter.type), exact: filters === 1 })
          }
          if (filter.token !== undefined) {
            candidates.push({ key: tokenKey(accountId, filter.token), exact: filters === 1 })
          }
          const { items, total } = pageFrom(
            index,
            candidates,
            {},
            rows,
            (a) =>
              a.accountId === accountId &&
              (filter.status === undefined || a.status === filter.status) &&
              (filter.type === undefined || a.rule.type === filter.type) &&
              (filter.token === undefined || (a.rule.type !== "portfolio" && a.rule.token === filter.token)),
            page
          )
          return { total, limit: page.limit, offset: page.offset, items }
        }),
      active: Effect.sync(() => Array.from(activeIds, (id) => rows.get(id)!)),
      countByStatus: (accountId, statuses) =>
        Effect.sync(() =>
          Array.from(new Set(statuses)).reduce(
            (count, status) => count + index.count(statusKey(accountId, status)),
            0
          )
        ),
      countByChannel: (accountId, channel, statuses) =>
        Effect.sync(() => {
          let count = 0
          for (const id of index.newestFirst(accountId)) {
            const a = rows.get(id)!
            if (a.channel === channel && statuses.includes(a.status)) count++
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
    const index = new ListIndex()
    const write = (trade: TradeRecord) => {
      const previous = rows.get(trade.id)
      if (previous !== undefined) reindex(index, tradeKeys(previous), tradeKeys(trade), trade)
      else for (const key of tradeKeys(trade)) index.add(key, trade.createdAt, trade.id)
      rows.set(trade.id, trade)
    }
    return {
      insert: (trade) => Effect.sync(() => write(trade)),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((t) => t.accountId === accountId))),
      getById: (id) => Effect.sync(() => Option.fromNullishOr(rows.get(id))),
      update: (trade) => Effect.sync(() => write(trade)),
      list: (accountId, filter, page) =>
        Effect.sync(() => {
          const network = filter.networks?.length === 1 ? filter.networks[0] : undefined
          const filters = [filter.token, filter.status, filter.networks].filter((f) => f !== undefined).length
          const candidates = [{ key: accountId, exact: filters === 0 }]
          if (filter.token !== undefined) {
            candidates.push({ key: tokenKey(accountId, filter.token), exact: filters === 1 })
          }
          if (filter.status !== undefined) {
            candidates.push({ key: statusKey(accountId, filter.status), exact: filters === 1 })
          }
          if (network !== undefined) {
            candidates.push({ key: networkKey(accountId, network), exact: filters === 1 })
          }
          const { items, total } = pageFrom(
            index,
            candidates,
            filter,
            rows,
            (t) =>
              t.accountId === accountId &&
              (filter.token === undefined || t.tokenIn === filter.token || t.tokenOut === filter.token) &&
              (filter.status === undefined || statusOfStage(t.stage) === filter.status) &&
              (filter.networks === undefined || filter.networks.includes(t.network)) &&
              (filter.fromMs === undefined || t.createdAt >= filter.fromMs) &&
              (filter.toMs === undefined || t.createdAt <= filter.toMs),
            page
          )
          return { total, limit: page.limit, offset: page.offset, items }
        }),
      history: (accountId) => Effect.sync(() => Array.from(index.oldestFirst(accountId), (id) => rows.get(id)!))
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
    const index = new ListIndex()
    const write = (order: OrderRecord) => {
      const previous = rows.get(order.id)
      if (previous !== undefined) reindex(index, orderKeys(previous), orderKeys(order), order)
      else for (const key of orderKeys(order)) index.add(key, order.createdAt, order.id)
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
        Effect.sync(() => {
          const filters = [filter.status, filter.token, filter.network].filter((f) => f !== undefined).length
          const candidates = [{ key: accountId, exact: filters === 0 }]
          if (filter.status !== undefined) {
            candidates.push({ key: statusKey(accountId, filter.status), exact: filters === 1 })
          }
          if (filter.token !== undefined) {
            candidates.push({ key: tokenKey(accountId, filter.token), exact: filters === 1 })
          }
          if (filter.network !== undefined) {
            candidates.push({ key: networkKey(accountId, filter.network), exact: filters === 1 })
          }
          const { items, total } = pageFrom(
            index,
            candidates,
            {},
            rows,
            (o) =>
              o.accountId === accountId &&
              (filter.status === undefined || o.status === filter.status) &&
              (filter.token === undefined || o.tokenIn === filter.token || o.tokenOut === filter.token) &&
              (filter.network === undefined || o.network === filter.network),
            page
          )
          return { total, limit: page.limit, offset: page.offset, items }
        }),
      open: Effect.sync(() => Array.from(openIds, (id) => rows.get(id)!))
    }
  })
}

export class WebhookRepository extends Context.Service<WebhookRepository, {
  readonly insert: (webhook: WebhookRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookRecord>>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  /** The account's subscriptions, newest first. */
  readonly listByAccount: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRecord>>
}>()("@swapdesk/core/WebhookRepository") {
  static readonly layerMemory = Layer.sync(WebhookRepository, () => {
    const rows = new Map<string, WebhookRecord>()
    const index = new ListIndex()
    return {
      insert: (webhook) =>
        Effect.sync(() => {
          rows.set(webhook.id, webhook)
          index.add(webhook.accountId, webhook.createdAt, webhook.id)
        }),
      get: (accountId, id) =>
        Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((w) => w.accountId === accountId))),
      remove: (accountId, id) =>
        Effect.sync(() => {
          const webhook = rows.get(id)
          if (webhook === undefined || webhook.accountId !== accountId) return false
          index.remove(accountId, webhook.createdAt, id)
          return rows.delete(id)
        }),
      listByAccount: (accountId) => Effect.sync(() => Array.from(index.newestFirst(accountId), (id) => rows.get(id)!))
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
    const rows = new Map<string, WebhookDeliveryRecord>()
    const index = new ListIndex()
    return {
      save: (delivery) =>
        Effect.sync(() => {
          const previous = rows.get(delivery.id)
          if (previous !== undefined) index.remove(previous.subscriptionId, previous.createdAt, previous.id)
          index.add(delivery.subscriptionId, delivery.createdAt, delivery.id)
          rows.set(delivery.id, delivery)
        }),
      list: (subscriptionId, page) =>
        Effect.sync(() => {
          const { ids, total } = index.page(subscriptionId, {}, page.offset, page.limit)
          return { total, limit: page.limit, offset: page.offset, items: ids.map((id) => rows.get(id)!) }
        })
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
    // In claim order: a claim is always (re)inserted at the end, so on the market clock, which never
    // goes back, the expired entries are the oldest ones and leave from the front, O(1) per claim
    // amortized; the table holds one day of keys at most.
    const rows = new Map<string, Entry>()
    const forgetExpired = (now: number) => {
      for (const [id, entry] of rows) {
        if (now - entry.claimedAt < IDEMPOTENCY_TTL_MS) return
        rows.delete(id)
      }
    }
    return {
      claim: (accountId, key, fingerprint, now) =>
        Effect.sync((): IdempotencyClaim => {
          forgetExpired(now)
          const id = idempotencyKeyOf(accountId, key)
          const entry = rows.get(id)
          if (entry === undefined || now - entry.claimedAt >= IDEMPOTENCY_TTL_MS) {
            rows.delete(id)
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
