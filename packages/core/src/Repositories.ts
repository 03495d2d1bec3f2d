/**
 * Ports for every piece of state the use cases keep. `MemoryRepositories` implements them in
 * memory and the SQL-backed layers of `@swapdesk/store` in a database; no use case changes with
 * either, and the ports know neither.
 */
import { Context, Effect, Option } from "effect"
import type { Account, Channel, NotificationSettings } from "./Account.ts"
import type { AlertRecord, AlertStatus, AlertType } from "./Alert.ts"
import type { ApiKeyRecord } from "./ApiKey.ts"
import type { Network } from "./Network.ts"
import type { OrderRecord, OrderStatus } from "./Order.ts"
import type { Page, PageRequest } from "./Page.ts"
import type { TradeRecord, TradeStatus } from "./Trade.ts"
import type { WebhookDeliveryRecord, WebhookRecord } from "./Webhook.ts"

/**
 * The record a repository read by id found, or the use case's not-found error: how `get` answers
 * for an id the account does not own or that does not exist. A chain rather than a generator, as
 * it runs on every read of a trade or an order.
 */
export const foundOr = <A, E, F>(
  read: Effect.Effect<Option.Option<A>, E>,
  notFound: () => F
): Effect.Effect<A, E | F> =>
  Effect.flatMap(read, (found) => Option.isNone(found) ? Effect.fail(notFound()) : Effect.succeed(found.value))

/**
 * What a repository of records that belong to one account offers: a record is read, and its
 * list paged, only within its account.
 */
export interface AccountRecords<A, Filter> {
  readonly insert: (record: A) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<A>>
  readonly update: (record: A) => Effect.Effect<void>
  readonly list: (accountId: string, filter: Filter, page: PageRequest) => Effect.Effect<Page<A>>
}

export class AccountRepository extends Context.Service<AccountRepository, {
  readonly get: (id: string) => Effect.Effect<Option.Option<Account>>
  readonly save: (account: Account) => Effect.Effect<void>
  readonly updateNotifications: (id: string, settings: NotificationSettings) => Effect.Effect<void>
  readonly all: Effect.Effect<ReadonlyArray<Account>>
}>()("@swapdesk/core/AccountRepository") {}

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
}>()("@swapdesk/core/ApiKeyRepository") {}

export interface AlertFilter {
  readonly status?: AlertStatus
  readonly type?: AlertType
  /** Registry symbol. */
  readonly token?: string
}

export class AlertRepository extends Context.Service<
  AlertRepository,
  AccountRecords<AlertRecord, AlertFilter> & {
    readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
    /** Active alerts of every account, oldest first: what the monitor evaluates. */
    readonly active: Effect.Effect<ReadonlyArray<AlertRecord>>
    readonly countByStatus: (accountId: string, statuses: ReadonlyArray<AlertStatus>) => Effect.Effect<number>
    /** How many of the account's alerts in these statuses notify on `channel`. */
    readonly countByChannel: (
      accountId: string,
      channel: Channel,
      statuses: ReadonlyArray<AlertStatus>
    ) => Effect.Effect<number>
  }
>()("@swapdesk/core/AlertRepository") {}

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

export class TradeRepository extends Context.Service<
  TradeRepository,
  AccountRecords<TradeRecord, TradeFilter> & {
    /** A trade by id alone, for adapters reporting on it. */
    readonly getById: (id: string) => Effect.Effect<Option.Option<TradeRecord>>
    /** Every trade of the account, oldest first (portfolio cost basis). */
    readonly history: (accountId: string) => Effect.Effect<ReadonlyArray<TradeRecord>>
  }
>()("@swapdesk/core/TradeRepository") {}

export interface OrderFilter {
  readonly status?: OrderStatus
  readonly token?: string
  readonly network?: Network
}

export class OrderRepository extends Context.Service<
  OrderRepository,
  AccountRecords<OrderRecord, OrderFilter> & {
    /** An order by id alone, for the watcher. */
    readonly getById: (id: string) => Effect.Effect<Option.Option<OrderRecord>>
    /** Pending orders of every account: what the limit order watcher indexes when it starts. */
    readonly open: Effect.Effect<ReadonlyArray<OrderRecord>>
  }
>()("@swapdesk/core/OrderRepository") {}

export class WebhookRepository extends Context.Service<WebhookRepository, {
  readonly insert: (webhook: WebhookRecord) => Effect.Effect<void>
  readonly get: (accountId: string, id: string) => Effect.Effect<Option.Option<WebhookRecord>>
  readonly remove: (accountId: string, id: string) => Effect.Effect<boolean>
  /** The account's subscriptions, newest first. */
  readonly listByAccount: (accountId: string) => Effect.Effect<ReadonlyArray<WebhookRecord>>
}>()("@swapdesk/core/WebhookRepository") {}

export class WebhookDeliveryRepository extends Context.Service<WebhookDeliveryRepository, {
  /** Inserts or replaces the attempt with this id. */
  readonly save: (delivery: WebhookDeliveryRecord) => Effect.Effect<void>
  /** A subscription's attempts, newest first. */
  readonly list: (subscriptionId: string, page: PageRequest) => Effect.Effect<Page<WebhookDeliveryRecord>>
}>()("@swapdesk/core/WebhookDeliveryRepository") {}

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
}>()("@swapdesk/core/IdempotencyStore") {}
