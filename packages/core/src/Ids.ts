/**
 * Resource identifiers: a type prefix and a URL-safe random body. Where the randomness comes from
 * is a port: a CSPRNG in production, the scenario seed on the simulator (so a run replays exactly).
 */
import { Context, Effect } from "effect"

export const idPrefixes = {
  alert: "alrt_",
  trade: "trd_",
  order: "ord_",
  apiKey: "key_",
  webhook: "whk_",
  account: "acct_",
  /** One webhook delivery attempt (derived from its message's id, never drawn). */
  delivery: "dlv_",
  /** One webhook message: its `webhook-id`, the same on every attempt. */
  message: "msg_"
} as const
export type IdKind = keyof typeof idPrefixes

export class IdGenerator extends Context.Service<IdGenerator, {
  /** A fresh id of the kind, e.g. `trd_4fQx…`. */
  readonly next: (kind: IdKind) => Effect.Effect<string>
  /** A fresh opaque token of `length` base62 characters (key secrets, webhook secrets, tx hashes). */
  readonly token: (length: number) => Effect.Effect<string>
}>()("@swapdesk/core/IdGenerator") {}

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
