/**
 * The API key record. The secret is shown once, at creation; only its SHA-256 hash is kept.
 */
import type { ApiScope } from "./Scope.ts"

/** `sd_live_` (real adapters) or `sd_test_` (simulator), then 40 base62 characters. */
export const API_KEY_PATTERN = /^sd_(live|test)_[0-9A-Za-z]{40}$/

export interface ApiKeyRecord {
  readonly id: string
  readonly accountId: string
  readonly name: string
  /** First 12 characters of the secret, to recognise a key without revealing it. */
  readonly prefix: string
  readonly last4: string
  /** Lower-case hex SHA-256 of the whole secret. */
  readonly secretHash: string
  readonly scopes: ReadonlyArray<ApiScope>
  readonly createdAt: number
  readonly lastUsedAt: number | null
  readonly expiresAt: number | null
  readonly revokedAt: number | null
}

export const isUsable = (key: ApiKeyRecord, now: number): boolean =>
  key.revokedAt === null && (key.expiresAt === null || now < key.expiresAt)
