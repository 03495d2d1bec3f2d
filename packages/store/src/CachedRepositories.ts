/**
 * Read-through caches in front of the SQL repositories, for what every authenticated request reads:
 * the key behind a secret's hash, its account, and the trade it asks for. Without them each of these
 * is a database read, three round trips for a trade read on PostgreSQL (docs/performance.md, "The
 * store benchmark").
 *
 * - A trade that reached `confirmed` or `failed` can never change (TradeMachine), so it is kept as
 *   read, by id, for as long as it stays among the most recently read.
 * - Keys and accounts can change, in this process or in another one. A write through these ports
 *   replaces the cached copy; a change committed by another process moves the database's
 *   {@link StoreRevision}, which every lookup compares first, so the next lookup after such a commit
 *   reads the database again (a revoked key is refused on the very next request).
 *
 * A read that was under way when the cache was cleared or written does not fill it: its answer may
 * predate the change. Each cache keeps at most {@link CACHE_ENTRIES} records, forgetting the
 * longest-held first. Misses (an unknown key) are never kept.
 *
 * **Sole writer.** A process that is the only writer of these records (the simulator server, which
 * holds the database's simulator lock: SimulatorLock) knows every change already, as each goes
 * through these ports: with `soleWriter` the caches never ask the revision, which saves a read (a
 * round trip on PostgreSQL) per request, and they also keep each account's trade history once read
 * (the portfolio's), following the trades it writes. A change committed behind such a process's back is then
 * not seen until it restarts (docs/storage.md#caches).
 */
import {
  AccountRepository,
  AlertRepository,
  ApiKeyRepository,
  IdempotencyStore,
  isTerminal,
  OrderRepository,
  TradeRepository,
  WebhookDeliveryRepository,
  WebhookRepository
} from "@swapdesk/core"
import type { Account, ApiKeyRecord, TradeRecord } from "@swapdesk/core"
import { Context, Effect, Layer, Option } from "effect"
import { StoreRevision } from "./StoreRevision.ts"

/** How many records each cache keeps at most. */
export const CACHE_ENTRIES = 10_000

/** How many trades a sole writer's cached trade histories hold at most, all accounts together. */
export const HISTORY_RECORDS = 100_000

/** A bounded map that forgets its oldest entry when full. */
const remember = <K, V>(map: Map<K, V>, key: K, value: V) => {
  if (!map.has(key) && map.size >= CACHE_ENTRIES) map.delete(map.keys().next().value!)
  map.set(key, value)
}

/** The ports the caches wrap, and those passed through unchanged. */
export type StoreRepositories =
  | AccountRepository
  | ApiKeyRepository
  | AlertRepository
  | TradeRepository
  | OrderRepository
  | WebhookRepository
  | WebhookDeliveryRepository
  | IdempotencyStore

/** How the caches learn of changes made elsewhere. */
export interface CacheOptions {
  /**
   * This process is the only writer of keys and accounts (no other process, client or operator
   * changes them while it runs): the caches then skip the per-request revision check. Only for a
   * process holding the simulator lock; false by default.
   */
  readonly soleWriter: boolean
}

/**
 * The repositories in context, with keys, accounts and trades read through caches that the
 * {@link StoreRevision} keeps true to the database (or, for a sole writer, its own writes alone).
 */
export const layerCachedRepositoriesWith = (
  options: CacheOptions
): Layer.Layer<StoreRepositories, never, StoreRepositories | StoreRevision> =>
  Layer.effectContext(Effect.gen(function*() {
    const revision = yield* StoreRevision
    const keys = yield* ApiKeyRepository
    const accounts = yield* AccountRepository
    const trades = yield* TradeRepository

    const keysByHash = new Map<string, ApiKeyRecord>()
    const hashOfKey = new Map<string, string>()
    const accountsById = new Map<string, Account>()
    const terminalTrades = new Map<string, TradeRecord>()
    // Last uses recorded here since the key was cached (the record as read carries the stored one).
    const lastUsed = new Map<string, number>()
    let seen: string | undefined
    // Moves on at every clear and every write: a read begun before it must not fill the cache.
    let generation = 0

    // Clears keys and accounts when another connection committed a change since the last lookup.
    const checked = options.soleWriter ? Effect.sync(() => generation) : Effect.map(revision.current, (current) => {
      if (current !== seen) {
        seen = current
        generation++
        keysByHash.clear()
        hashOfKey.clear()
        accountsById.clear()
      }
      return generation
    })

    const forgetKey = (id: string) =>
      Effect.sync(() => {
        generation++
        const hash = hashOfKey.get(id)
        if (hash !== undefined) keysByHash.delete(hash)
        hashOfKey.delete(id)
      })
    // Forgotten before and after the write: a read racing it never keeps the old record.
    const writingKey = (key: ApiKeyRecord, write: Effect.Effect<void>) =>
      forgetKey(key.id).pipe(Effect.andThen(write), Effect.ensuring(forgetKey(key.id)))

    const withLastUse = (key: ApiKeyRecord): ApiKeyRecord => {
      const at = lastUsed.get(key.id)
      return at === undefined || (key.lastUsedAt !== null && key.lastUsedAt >= at) ? key : { ...key, lastUsedAt: at }
    }

    const cachedKeys = ApiKeyRepository.of({
      ...keys,
      insert: (key) => writingKey(key, keys.insert(key)),
      update: (key) => writingKey(key, keys.update(key)),
      findByHash: (hash) =>
        Effect.flatMap(checked, (at) => {
          const cached = keysByHash.get(hash)
          if (cached !== undefined) return Effect.succeed(Option.some(withLastUse(cached)))
          return Effect.map(keys.findByHash(hash), (found) => {
            if (Option.isSome(found) && at === generation) {
              remember(keysByHash, hash, found.value)
              remember(hashOfKey, found.value.id, hash)
            }
            return found
          })
        }),
      touch: (id, at) => {
        remember(lastUsed, id, at)
        keys.touch(id, at)
      }
    })

    const forgetAccount = (id: string) =>
      Effect.sync(() => {
        generation++
        accountsById.delete(id)
      })

    const cachedAccounts = AccountRepository.of({
      ...accounts,
      get: (id) =>
        Effect.flatMap(checked, (at) => {
          const cached = accountsById.get(id)
          if (cached !== undefined) return Effect.succeed(Option.some(cached))
          return Effect.map(accounts.get(id), (found) => {
            if (Option.isSome(found) && at === generation) remember(accountsById, id, found.value)
            return found
          })
        }),
      save: (account) =>
        forgetAccount(account.id).pipe(
          Effect.andThen(accounts.save(account)),
          Effect.ensuring(forgetAccount(account.id))
        ),
      updateNotifications: (id, notifications) =>
        forgetAccount(id).pipe(
          Effect.andThen(accounts.updateNotifications(id, notifications)),
          Effect.ensuring(forgetAccount(id))
        )
    })

    const keepIfFinal = (found: Option.Option<TradeRecord>) => {
      if (Option.isSome(found) && isTerminal(found.value.stage)) remember(terminalTrades, found.value.id, found.value)
      return found
    }
    // A sole writer's trade histories (what the portfolio reads on every request): each account's
    // trades oldest first, kept once read and followed by every trade write of this process, which
    // is every trade write there is. A list is replaced on a write, never changed, so a reader
    // going through one is not disturbed. At most HISTORY_RECORDS trades in all, the
    // longest-held accounts forgotten first.
    const histories = new Map<string, ReadonlyArray<TradeRecord>>()
    let historyRecords = 0
    // Moves on at every trade write: a history read begun before it must not be kept.
    let tradeWrites = 0
    const keepHistory = (accountId: string, list: ReadonlyArray<TradeRecord>) => {
      historyRecords -= histories.get(accountId)?.length ?? 0
      histories.delete(accountId)
      if (list.length > HISTORY_RECORDS) return
      histories.set(accountId, list)
      historyRecords += list.length
      while (historyRecords > HISTORY_RECORDS) {
        const [oldest, dropped] = histories.entries().next().value!
        histories.delete(oldest)
        historyRecords -= dropped.length
      }
    }
    const followWrite = (trade: TradeRecord) => {
      tradeWrites++
      const list = histories.get(trade.accountId)
      if (list === undefined) return
      const others = list.filter((t) => t.id !== trade.id)
      // The database's order: creation time, then id.
      const at = others.findIndex((t) =>
        t.createdAt > trade.createdAt || (t.createdAt === trade.createdAt && t.id > trade.id)
      )
      keepHistory(
        trade.accountId,
        at === -1 ? [...others, trade] : [...others.slice(0, at), trade, ...others.slice(at)]
      )
    }
    const soleWriterTrades: Partial<TradeRepository["Service"]> = options.soleWriter
      ? {
        insert: (trade) => Effect.map(trades.insert(trade), () => followWrite(trade)),
        history: (accountId) =>
          Effect.suspend(() => {
            const cached = histories.get(accountId)
            if (cached !== undefined) return Effect.succeed(cached)
            const before = tradeWrites
            return Effect.map(trades.history(accountId), (list) => {
              if (tradeWrites === before) keepHistory(accountId, list)
              return list
            })
          })
      }
      : {}

    const cachedTrades = TradeRepository.of({
      ...trades,
      ...soleWriterTrades,
      get: (accountId, id) => {
        const cached = terminalTrades.get(id)
        if (cached !== undefined) {
          return Effect.succeed(cached.accountId === accountId ? Option.some(cached) : Option.none())
        }
        return Effect.map(trades.get(accountId, id), keepIfFinal)
      },
      getById: (id) => {
        const cached = terminalTrades.get(id)
        return cached !== undefined ? Effect.succeed(Option.some(cached)) : Effect.map(trades.getById(id), keepIfFinal)
      },
      // A final trade is never written again; should one be, the cache follows the write.
      update: (trade) =>
        Effect.andThen(
          trades.update(trade),
          Effect.sync(() => {
            terminalTrades.delete(trade.id)
            if (options.soleWriter) followWrite(trade)
          })
        )
    })

    return Context.make(ApiKeyRepository, cachedKeys).pipe(
      Context.add(AccountRepository, cachedAccounts),
      Context.add(TradeRepository, cachedTrades),
      Context.add(AlertRepository, yield* AlertRepository),
      Context.add(OrderRepository, yield* OrderRepository),
      Context.add(WebhookRepository, yield* WebhookRepository),
      Context.add(WebhookDeliveryRepository, yield* WebhookDeliveryRepository),
      Context.add(IdempotencyStore, yield* IdempotencyStore)
    )
  }))

/** {@link layerCachedRepositoriesWith} for any number of processes: every lookup checks the revision. */
export const layerCachedRepositories = layerCachedRepositoriesWith({ soleWriter: false })
