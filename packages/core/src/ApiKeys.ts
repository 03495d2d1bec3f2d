/**
 * API key use cases (docs/api-keys.md): create, list and revoke an account's keys. A secret is
 * `sd_test_` (simulator) or `sd_live_` followed by 40 base62 characters from the id generator; it
 * is answered once, at creation, and only its SHA-256 is kept. A key may create keys only with a
 * subset of its own scopes; an account holds at most `API_KEYS_PER_ACCOUNT_MAX` usable keys; any
 * key with the `account` scope may revoke any of the account's keys, itself included.
 */
import { Context, Effect, Layer, Option } from "effect"
import type { ApiKeyRecord } from "./ApiKey.ts"
import { isUsable } from "./ApiKey.ts"
import { ApiKeyLimitExceeded, ApiKeyNotFound, InsufficientScope, invalid, type ValidationFailed } from "./Errors.ts"
import { IdGenerator } from "./Ids.ts"
import { API_KEYS_PER_ACCOUNT_MAX } from "./Limits.ts"
import { MarketClock } from "./MarketClock.ts"
import { ApiKeyRepository } from "./Repositories.ts"
import type { CreateApiKeyBody } from "./Requests.ts"
import { type ApiScope, scopes } from "./Scope.ts"
import { SecretHasher } from "./SecretHasher.ts"

/**
 * Where key secrets start: `sd_test_` on the simulator, `sd_live_` with real adapters
 * (docs/api-keys.md). Defaults to live; the simulator provides `"test"`.
 */
export const ApiKeyEnvironment = Context.Reference<"live" | "test">("@swapdesk/core/ApiKeyEnvironment", {
  defaultValue: () => "live"
})

/** Who asks: the account and the scopes of the key making the request. */
export interface KeyCaller {
  readonly accountId: string
  readonly scopes: ReadonlyArray<ApiScope>
}

/** A new key and its secret, which nothing keeps. */
export interface CreatedApiKey {
  readonly key: ApiKeyRecord
  readonly secret: string
}

/** Characters of the secret after its `sd_test_`/`sd_live_` prefix. */
export const API_KEY_SECRET_LENGTH = 40
/** Characters of the secret shown as `prefix`. */
export const API_KEY_PREFIX_LENGTH = 12

export class ApiKeys extends Context.Service<ApiKeys, {
  readonly create: (
    caller: KeyCaller,
    body: CreateApiKeyBody
  ) => Effect.Effect<CreatedApiKey, ValidationFailed | InsufficientScope | ApiKeyLimitExceeded>
  /** The account's unrevoked keys, newest first; expired keys stay listed until revoked. */
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>>
  /** Revokes at once: the next request with the key is refused. */
  readonly revoke: (accountId: string, id: string) => Effect.Effect<void, ApiKeyNotFound>
}>()("@swapdesk/core/ApiKeys") {
  static readonly layer = Layer.effect(
    ApiKeys,
    Effect.gen(function*() {
      const repository = yield* ApiKeyRepository
      const ids = yield* IdGenerator
      const clock = yield* MarketClock
      const hasher = yield* SecretHasher
      const environment = yield* ApiKeyEnvironment

      const create = Effect.fn("ApiKeys.create")(function*(caller: KeyCaller, body: CreateApiKeyBody) {
        const now = yield* clock.now
        const expiresAt = body.expiresAt === undefined ? null : Date.parse(body.expiresAt)
        if (expiresAt !== null && expiresAt <= now) return yield* invalid("expiresAt", "must be in the future")
        const beyond = body.scopes.find((scope) => !caller.scopes.includes(scope))
        if (beyond !== undefined) return yield* new InsufficientScope({ scope: beyond })
        const usable = (yield* repository.listByAccount(caller.accountId)).filter((k) => isUsable(k, now))
        if (usable.length >= API_KEYS_PER_ACCOUNT_MAX) {
          return yield* new ApiKeyLimitExceeded({ limit: API_KEYS_PER_ACCOUNT_MAX })
        }
        const secret = `sd_${environment}_${yield* ids.token(API_KEY_SECRET_LENGTH)}`
        const key: ApiKeyRecord = {
          id: yield* ids.next("apiKey"),
          accountId: caller.accountId,
          name: body.name,
          prefix: secret.slice(0, API_KEY_PREFIX_LENGTH),
          last4: secret.slice(-4),
          secretHash: hasher.sha256Hex(secret),
          // Each scope once, in the canonical order, whatever order the request named them in.
          scopes: scopes.filter((scope) => body.scopes.includes(scope)),
          createdAt: now,
          lastUsedAt: null,
          expiresAt,
          revokedAt: null
        }
        yield* repository.insert(key)
        return { key, secret }
      })

      const revoke = Effect.fn("ApiKeys.revoke")(function*(accountId: string, id: string) {
        const key = yield* repository.get(accountId, id)
        if (Option.isNone(key) || key.value.revokedAt !== null) return yield* new ApiKeyNotFound({ id })
        yield* repository.update({ ...key.value, revokedAt: yield* clock.now })
      })

      return { create, list: repository.listByAccount, revoke }
    })
  )
}
