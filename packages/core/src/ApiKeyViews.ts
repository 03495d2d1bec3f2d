/**
 * API keys on the wire (docs/reference/http-api.md#api-keys): a listed key never shows its secret
 * or its hash; the creation form is the one response that carries the secret. The wire's value
 * rules are in `WireFormats`.
 */
import { Schema } from "effect"
import type { ApiKeyRecord } from "./ApiKey.ts"
import { CollectionView, collectionView } from "./ListViews.ts"
import { toIso } from "./MarketClock.ts"
import { ApiScope } from "./Scope.ts"
import { IsoDateTime, isoOrNull } from "./WireFormats.ts"

/** A key in `GET /auth/api-keys`: never the secret or its hash. */
export const ApiKeyView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  prefix: Schema.String,
  last4: Schema.String,
  scopes: Schema.Array(ApiScope),
  createdAt: IsoDateTime,
  lastUsedAt: Schema.NullOr(IsoDateTime),
  expiresAt: Schema.NullOr(IsoDateTime)
})
export type ApiKeyView = typeof ApiKeyView.Type

/** `POST /auth/api-keys` `data`: the one response that carries the secret (`key`). */
export const ApiKeyCreatedView = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  key: Schema.String,
  prefix: Schema.String,
  scopes: Schema.Array(ApiScope),
  createdAt: IsoDateTime,
  expiresAt: Schema.NullOr(IsoDateTime)
})
export type ApiKeyCreatedView = typeof ApiKeyCreatedView.Type

/** `GET /auth/api-keys` `data`. */
export const ApiKeyListView = CollectionView("keys", ApiKeyView)
export type ApiKeyListView = typeof ApiKeyListView.Type

/** A key as `GET /auth/api-keys` lists it. */
export const apiKeyView = (key: ApiKeyRecord): ApiKeyView => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  last4: key.last4,
  scopes: key.scopes,
  createdAt: toIso(key.createdAt),
  lastUsedAt: isoOrNull(key.lastUsedAt),
  expiresAt: isoOrNull(key.expiresAt)
})

/** The creation form; `secret` is the whole key, which only this response ever shows. */
export const apiKeyCreatedView = (key: ApiKeyRecord, secret: string): ApiKeyCreatedView => ({
  id: key.id,
  name: key.name,
  key: secret,
  prefix: key.prefix,
  scopes: key.scopes,
  createdAt: toIso(key.createdAt),
  expiresAt: isoOrNull(key.expiresAt)
})

/** `GET /auth/api-keys`: the keys given (the caller passes only unrevoked ones). */
export const apiKeyListView: (keys: ReadonlyArray<ApiKeyRecord>) => ApiKeyListView = collectionView(
  "keys",
  apiKeyView
)
