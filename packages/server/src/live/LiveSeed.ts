/**
 * The live file's accounts and API keys, written into the store at every start
 * (docs/decisions.md, "Live accounts and keys from the file"). The file is the truth for what it
 * states: an account's plan, and each of its keys' name and scopes. What the API changes is kept:
 * notification settings once stored, keys created or revoked through the API. A key is given as
 * its secret (`key`) or as the lowercase hex SHA-256 of it (`keyHash`); only the hash is stored.
 */
import {
  AccountRepository,
  ApiKeyRepository,
  IdGenerator,
  MarketClock,
  noNotifications,
  SecretHasher
} from "@swapdesk/core"
import type { LiveConfig } from "@swapdesk/evm"
import { Effect, Layer, Option } from "effect"
import { StartupFailure } from "../StartupFailure.ts"

/** What a key given by its hash shows of its secret: the live prefix, and no last characters. */
const HASHED_KEY_PREFIX = "sd_live_"
const HASHED_KEY_LAST4 = "****"

/** Seeds the file's accounts and keys; run once the repositories are open, before the server answers. */
export const layerLiveSeed = (config: LiveConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const accounts = yield* AccountRepository
    const keys = yield* ApiKeyRepository
    const ids = yield* IdGenerator
    const hasher = yield* SecretHasher
    const now = yield* (yield* MarketClock).now
    for (const account of config.accounts) {
      const stored = yield* accounts.get(account.id)
      yield* accounts.save({
        id: account.id,
        plan: account.plan ?? "free",
        notifications: Option.isSome(stored)
          ? stored.value.notifications
          : { ...noNotifications, ...account.notifications }
      })
      for (const apiKey of account.apiKeys ?? []) {
        const secretHash = apiKey.key === undefined ? apiKey.keyHash! : hasher.sha256Hex(apiKey.key)
        const existing = yield* keys.findByHash(secretHash)
        if (Option.isSome(existing)) {
          if (existing.value.accountId !== account.id) {
            return yield* new StartupFailure({
              message: `the live file gives ${account.id} the API key ${existing.value.id}, which the database ` +
                `holds for ${existing.value.accountId}: a key belongs to one account`
            })
          }
          yield* keys.update({ ...existing.value, name: apiKey.name, scopes: apiKey.scopes })
          continue
        }
        yield* keys.insert({
          id: yield* ids.next("apiKey"),
          accountId: account.id,
          name: apiKey.name,
          prefix: apiKey.key === undefined ? HASHED_KEY_PREFIX : apiKey.key.slice(0, 12),
          last4: apiKey.key === undefined ? HASHED_KEY_LAST4 : apiKey.key.slice(-4),
          secretHash,
          scopes: apiKey.scopes,
          createdAt: now,
          lastUsedAt: null,
          expiresAt: null,
          revokedAt: null
        })
      }
    }
  }))
