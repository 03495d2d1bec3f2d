/**
 * What the interface can truthfully say about the key this tab is signed in with: how to name it
 * (a demo key by its account and scopes: the four demo keys share their first 12 and last 4
 * characters), which of the account's listed keys it is, and its plan when that is known. The API
 * does not say an account's plan; the interface knows it for the demo keys (their accounts' plans
 * are published, README "Demo accounts and keys") and learns it from an `ALERT_LIMIT_EXCEEDED`,
 * which only the Free plan answers. Otherwise the plan is unknown and no limit is claimed.
 */
import { signal } from "@preact/signals"
import { apiKey } from "./api/Api.ts"
import type { ApiKey } from "./api/Types.ts"
import { demoKeys } from "./Session.ts"

export type Plan = "free" | "pro"

/** The first characters of a key the API lists as its `prefix` (contract: the first 12). */
const PREFIX_LENGTH = 12

const learned = signal<Readonly<Record<string, Plan>>>({})

/** The plan of the key in use, or undefined when the interface cannot know it. */
export const planInUse = (): Plan | undefined => {
  const key = apiKey.value
  if (key === null) return undefined
  const demo = demoKeys.find((entry) => entry.key === key)
  if (demo !== undefined) return /^Demo Pro\b/.test(demo.label) ? "pro" : "free"
  return learned.value[key]
}

/** Records what a refusal proved about the key in use (`ALERT_LIMIT_EXCEEDED`: the Free plan). */
export const learnPlan = (plan: Plan) => {
  const key = apiKey.value
  if (key !== null) learned.value = { ...learned.value, [key]: plan }
}

/** The key as the API lists keys: its prefix and last four characters. */
export const keyShort = (key: string): string => `${key.slice(0, PREFIX_LENGTH)}…${key.slice(-4)}`

/** How the header names the key in use: a demo key by its account and scopes, any other by prefix and last four. */
export const keyLabel = (key: string): string => demoKeys.find((entry) => entry.key === key)?.label ?? keyShort(key)

/**
 * Which of the listed keys is the one in use, or undefined when the list cannot tell: its prefix
 * and last four match, it has the `account` scope (the list is only served to such a key), and,
 * among keys that still share all that (the demo keys share prefix and last four), it is the one
 * used last, since the list was read with it. A tie (a manual market clock stands still) marks none.
 */
export const keyInUseId = (keys: ReadonlyArray<ApiKey>): string | undefined => {
  const key = apiKey.value
  if (key === null) return undefined
  const candidates = keys
    .filter((listed) => listed.prefix === key.slice(0, PREFIX_LENGTH) && listed.last4 === key.slice(-4))
    .filter((listed) => listed.scopes.includes("account"))
    .toSorted((a, b) => (b.lastUsedAt ?? "").localeCompare(a.lastUsedAt ?? ""))
  const [first, second] = candidates
  return first !== undefined && (second === undefined || (second.lastUsedAt ?? "") < (first.lastUsedAt ?? ""))
    ? first.id
    : undefined
}
