/**
 * The repository ports of `Repositories` in memory, for tests, the simulator and a server run
 * without a database: a layer for each (`layerMemoryTradeRepository`, ...) and one of them all
 * (`layerMemoryRepositories`). Each keeps its rows in a map and files every record under the index
 * keys its list filters use (`ListIndex`), so a filtered page reads only the records that can
 * match, newest first, as the SQL implementations order them.
 */
import { Effect, Layer, Option } from "effect"
import type { Account } from "./Account.ts"
import type { AlertRecord } from "./Alert.ts"
import type { ApiKeyRecord } from "./ApiKey.ts"
import { ListIndex, pageFrom, type TimeRange } from "./ListIndex.ts"
import type { OrderRecord } from "./Order.ts"
import type { Page, PageRequest } from "./Page.ts"
import {
  AccountRepository,
  AlertRepository,
  ApiKeyRepository,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyClaim,
  IdempotencyStore,
  OrderRepository,
  type StoredResponse,
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookRepository
} from "./Repositories.ts"
import type { TradeRecord } from "./Trade.ts"
import { statusOfStage } from "./Trade.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"

/**
 * Writes a record to `rows` and files it under its index keys; an update that changes which keys
 * it is filed under moves it between them.
 */
const filing = <A extends { readonly createdAt: number; readonly id: string }>(
  index: ListIndex,
  rows: Map<string, A>,
  keysOf: (record: A) => ReadonlyArray<string>,
  /** The ids of the records in a state the port lists across accounts (active alerts, open orders). */
  open?: { readonly ids: Set<string>; readonly holds: (record: A) => boolean }
) =>
(record: A): void => {
  const previous = rows.get(record.id)
  const after = keysOf(record)
  if (previous === undefined) {
    for (const key of after) index.add(key, record.createdAt, record.id)
  } else {
    const before = keysOf(previous)
    for (const key of before) if (!after.includes(key)) index.remove(key, record.createdAt, record.id)
    for (const key of after) if (!before.includes(key)) index.add(key, record.createdAt, record.id)
  }
  rows.set(record.id, record)
  if (open === undefined) return
  if (open.holds(record)) open.ids.add(record.id)
  else open.ids.delete(record.id)
}

/** The writes and the account-scoped read that every kind of account record shares. */
const recordsOf = <A extends { readonly accountId: string }>(
  rows: ReadonlyMap<string, A>,
  write: (record: A) => void
) => ({
  insert: (record: A) => Effect.sync(() => write(record)),
  get: (accountId: string, id: string) => ownedBy(rows, accountId, id),
  update: (record: A) => Effect.sync(() => write(record))
})

/** The record with this id, whoever owns it. */
const byId = <A>(rows: ReadonlyMap<string, A>) => (id: string): Effect.Effect<Option.Option<A>> =>
  Effect.sync(() => Option.fromNullishOr(rows.get(id)))

/**
 * What trades and orders answer alike: `recordsOf`, and a swap by id alone (the chain and the
 * order watcher name a swap, not its account).
 */
const swapRecordsOf = <A extends TradeRecord | OrderRecord>(
  rows: ReadonlyMap<string, A>,
  write: (record: A) => void
) => ({
  ...recordsOf(rows, write),
  getById: byId(rows)
})

/** The record with this id, if there is one and it belongs to the account. */
const ownedBy = <A extends { readonly accountId: string }>(
  rows: ReadonlyMap<string, A>,
  accountId: string,
  id: string
): Effect.Effect<Option.Option<A>> =>
  Effect.sync(() => Option.fromNullishOr(rows.get(id)).pipe(Option.filter((record) => record.accountId === accountId)))

/** One condition of a list filter: the index key that files exactly the records meeting it, if any, and its check. */
interface Condition<A> {
  readonly key: string | undefined
  readonly holds: (record: A) => boolean
}

/** The condition a filter's `value` sets, or none when the filter leaves it out. */
const when = <V, A>(
  value: V | undefined,
  key: (value: V) => string | undefined,
  holds: (record: A, value: V) => boolean
): Condition<A> | undefined =>
  value === undefined ? undefined : { key: key(value), holds: (record) => holds(record, value) }

/**
 * The list of `rows` filed in `index`: one page of an account's records meeting every given
 * condition, within `range`, read from the narrowest index key the conditions name (the account's
 * own key when they name none), each record checked unless that key alone is the whole filter.
 */
const filteredPages = <A extends { readonly accountId: string; readonly createdAt: number }>(
  index: ListIndex,
  rows: ReadonlyMap<string, A>
) =>
(
  accountId: string,
  conditions: ReadonlyArray<Condition<A> | undefined>,
  range: TimeRange,
  page: PageRequest
): Effect.Effect<Page<A>> =>
  Effect.sync(() => {
    const given = conditions.filter((condition) => condition !== undefined)
    const candidates = [{ key: accountId, exact: given.length === 0 }]
    for (const { key } of given) if (key !== undefined) candidates.push({ key, exact: given.length === 1 })
    const keep = (record: A) =>
      record.accountId === accountId &&
      given.every((condition) => condition.holds(record)) &&
      (range.fromMs === undefined || record.createdAt >= range.fromMs) &&
      (range.toMs === undefined || record.createdAt <= range.toMs)
    const { items, total } = pageFrom(index, candidates, range, rows, keep, page)
    return { total, limit: page.limit, offset: page.offset, items }
  })

/** Whether a swap (a trade or an order) sells or buys `token`. */
const swapsToken = (swap: { readonly tokenIn: string; readonly tokenOut: string }, token: string) =>
  swap.tokenIn === token || swap.tokenOut === token

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

const idempotencyKeyOf = (accountId: string, key: string) => `${accountId}\u0000${key}`

/**
 * The rows of one kind of account record, filed in an index for listing: `write` files a record
 * (see `filing`), `listPage` reads a filtered page (see `filteredPages`).
 */
const listedRows = <A extends { readonly id: string; readonly accountId: string; readonly createdAt: number }>(
  keysOf: (record: A) => ReadonlyArray<string>,
  open?: { readonly ids: Set<string>; readonly holds: (record: A) => boolean }
) => {
  const rows = new Map<string, A>()
  const index = new ListIndex()
  const write = filing(index, rows, keysOf, open)
  return { rows, index, write, listPage: filteredPages(index, rows) }
}

/** `AccountRepository` in memory. */
const memoryAccountRepository = (): AccountRepository["Service"] => {
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
}

/** `ApiKeyRepository` in memory. */
const memoryApiKeyRepository = (): ApiKeyRepository["Service"] => {
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
}

/** `AlertRepository` in memory. */
const memoryAlertRepository = (): AlertRepository["Service"] => {
  // Kept beside the rows so the per-tick monitor never scans disabled or triggered alerts.
  const activeIds = new Set<string>()
  const { rows, index, write, listPage } = listedRows<AlertRecord>(alertKeys, {
    ids: activeIds,
    holds: (alert) => alert.status === "active"
  })
  return {
    ...recordsOf(rows, write),
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
      listPage(
        accountId,
        [
          when(filter.status, (status) => statusKey(accountId, status), (a, status) => a.status === status),
          when(filter.type, (type) => typeKey(accountId, type), (a, type) => a.rule.type === type),
          when(
            filter.token,
            (token) => tokenKey(accountId, token),
            (a, token) => a.rule.type !== "portfolio" && a.rule.token === token
          )
        ],
        {},
        page
      ),
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
}

/** `TradeRepository` in memory. */
const memoryTradeRepository = (): TradeRepository["Service"] => {
  const { rows, index, write, listPage } = listedRows<TradeRecord>(tradeKeys)
  return {
    ...swapRecordsOf(rows, write),
    list: (accountId, filter, page) =>
      listPage(
        accountId,
        [
          when(filter.token, (token) => tokenKey(accountId, token), swapsToken),
          when(
            filter.status,
            (status) => statusKey(accountId, status),
            (t, status) => statusOfStage(t.stage) === status
          ),
          when(
            filter.networks,
            (networks) => networks.length === 1 ? networkKey(accountId, networks[0]!) : undefined,
            (t, networks) => networks.includes(t.network)
          )
        ],
        filter,
        page
      ),
    history: (accountId) => Effect.sync(() => Array.from(index.oldestFirst(accountId), (id) => rows.get(id)!))
  }
}

/** `OrderRepository` in memory. */
const memoryOrderRepository = (): OrderRepository["Service"] => {
  const openIds = new Set<string>()
  const { rows, write, listPage } = listedRows<OrderRecord>(orderKeys, {
    ids: openIds,
    holds: (order) => order.status === "pending"
  })
  return {
    ...swapRecordsOf(rows, write),
    list: (accountId, filter, page) =>
      listPage(
        accountId,
        [
          when(filter.status, (status) => statusKey(accountId, status), (o, status) => o.status === status),
          when(filter.token, (token) => tokenKey(accountId, token), swapsToken),
          when(filter.network, (network) => networkKey(accountId, network), (o, network) => o.network === network)
        ],
        {},
        page
      ),
    open: Effect.sync(() => Array.from(openIds, (id) => rows.get(id)!))
  }
}

/** `WebhookRepository` in memory. */
const memoryWebhookRepository = (): WebhookRepository["Service"] => {
  const { rows, index, write } = listedRows<WebhookRecord>((webhook) => [webhook.accountId])
  return {
    insert: (webhook) => Effect.sync(() => write(webhook)),
    get: (accountId, id) => ownedBy(rows, accountId, id),
    remove: (accountId, id) =>
      Effect.sync(() => {
        const webhook = rows.get(id)
        if (webhook === undefined || webhook.accountId !== accountId) return false
        index.remove(accountId, webhook.createdAt, id)
        return rows.delete(id)
      }),
    listByAccount: (accountId) => Effect.sync(() => Array.from(index.newestFirst(accountId), (id) => rows.get(id)!))
  }
}

/** `WebhookDeliveryRepository` in memory. */
const memoryWebhookDeliveryRepository = (): WebhookDeliveryRepository["Service"] => {
  // A retried attempt is saved again under its id: filing moves nothing, as its key and time stay.
  const { rows, index, write } = listedRows<WebhookDeliveryRecord>((delivery) => [delivery.subscriptionId])
  return {
    save: (delivery) => Effect.sync(() => write(delivery)),
    list: (subscriptionId, page) =>
      Effect.sync(() => {
        const { ids, total } = index.page(subscriptionId, {}, page.offset, page.limit)
        return { total, limit: page.limit, offset: page.offset, items: ids.map((id) => rows.get(id)!) }
      })
  }
}

/** `IdempotencyStore` in memory: keys remembered for `ttlMs`. */
const memoryIdempotencyStore = (ttlMs: number): IdempotencyStore["Service"] => {
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
      if (now - entry.claimedAt < ttlMs) return
      rows.delete(id)
    }
  }
  return {
    claim: (accountId, key, fingerprint, now) =>
      Effect.sync((): IdempotencyClaim => {
        forgetExpired(now)
        const id = idempotencyKeyOf(accountId, key)
        const entry = rows.get(id)
        if (entry === undefined || now - entry.claimedAt >= ttlMs) {
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
}

/** Accounts in memory. */
export const layerMemoryAccountRepository = Layer.sync(AccountRepository, memoryAccountRepository)
/** API keys in memory. */
export const layerMemoryApiKeyRepository = Layer.sync(ApiKeyRepository, memoryApiKeyRepository)
/** Alerts in memory. */
export const layerMemoryAlertRepository = Layer.sync(AlertRepository, memoryAlertRepository)
/** Trades in memory. */
export const layerMemoryTradeRepository = Layer.sync(TradeRepository, memoryTradeRepository)
/** Limit orders in memory. */
export const layerMemoryOrderRepository = Layer.sync(OrderRepository, memoryOrderRepository)
/** Webhook subscriptions in memory. */
export const layerMemoryWebhookRepository = Layer.sync(WebhookRepository, memoryWebhookRepository)
/** Webhook delivery attempts in memory. */
export const layerMemoryWebhookDeliveryRepository = Layer.sync(
  WebhookDeliveryRepository,
  memoryWebhookDeliveryRepository
)
/** Idempotency claims in memory, each kept `IDEMPOTENCY_TTL_MS`. */
export const layerMemoryIdempotencyStore = Layer.sync(
  IdempotencyStore,
  () => memoryIdempotencyStore(IDEMPOTENCY_TTL_MS)
)

/** Every repository, in memory. */
export const layerMemoryRepositories = Layer.mergeAll(
  layerMemoryAccountRepository,
  layerMemoryApiKeyRepository,
  layerMemoryAlertRepository,
  layerMemoryTradeRepository,
  layerMemoryOrderRepository,
  layerMemoryWebhookRepository,
  layerMemoryWebhookDeliveryRepository,
  layerMemoryIdempotencyStore
)
