/**
 * API key scopes (docs/reference/http-api.md#authentication-and-scopes): what each key may do.
 */
import { Schema } from "effect"

export const scopes = ["read", "trade", "alerts", "account"] as const
export const ApiScope = Schema.Literals(scopes)
export type ApiScope = typeof ApiScope.Type
