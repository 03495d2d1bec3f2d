/**
 * Who is signed in, and what the server offers (and, on the simulator, how its clock runs): the key
 * lives in `sessionStorage` only (gone when the tab closes, never in `localStorage` or a cookie).
 * The server that serves this interface serves the whole contract, so every screen's routes exist;
 * `GET /v1/health` says whether it runs on the simulator, whose panel is offered only there. The
 * OpenAPI document is not read for this: it is most of a first load's bytes (docs/decisions.md).
 */
import { signal } from "@preact/signals"
import { apiKey, controlKey, get } from "./api/Api.ts"
import type { Health } from "./api/Types.ts"
import { clockMode } from "./Clock.ts"
import { tokenCatalogue, tokenInfoOf, tokensLoaded, tokensProblem, type TokenView } from "./Tokens.ts"

const STORAGE_KEY = "swapdesk.apiKey"
const CONTROL_STORAGE_KEY = "swapdesk.simControlKey"

/**
 * The demo scenario's keys (README, "Demo accounts and keys"), offered only when the server says
 * it runs on the simulator; they open nothing else.
 */
export const demoKeys: ReadonlyArray<{ readonly label: string; readonly key: string }> = [
  { label: "Demo Free, all scopes", key: "sd_test_DemoFreeAllScopes00000000000000000000000" },
  { label: "Demo Free, read only", key: "sd_test_DemoFreeReadOnly000000000000000000000000" },
  { label: "Demo Pro, all scopes", key: "sd_test_DemoProAllScopes000000000000000000000000" },
  { label: "Demo Pro, read only", key: "sd_test_DemoProReadOnly0000000000000000000000000" }
]

export const health = signal<Health | null>(null)

/**
 * Whether the server serves the `/v1` route `path`: every route of the contract, which is what any
 * swapdesk server serves (`@swapdesk/http`'s `Api`); the simulator's control routes only there.
 */
export const serves = (path: string): boolean => !path.startsWith("/v1/sim/") || isSimulator()

export const isSimulator = (): boolean => health.value?.backend === "simulator"

export const restoreSession = () => {
  apiKey.value = sessionStorage.getItem(STORAGE_KEY)
  controlKey.value = sessionStorage.getItem(CONTROL_STORAGE_KEY)
  if (apiKey.value !== null) void loadTokens()
}

/**
 * Keeps the simulator's control key for this tab (null forgets it): what the `/v1/sim` routes take
 * when the server listens off loopback.
 */
export const setControlKey = (key: string | null) => {
  if (key === null) sessionStorage.removeItem(CONTROL_STORAGE_KEY)
  else sessionStorage.setItem(CONTROL_STORAGE_KEY, key)
  controlKey.value = key
}

/**
 * Checks the key with the server (an invalid key is `401` even on a public route), reads the token
 * catalogue with it, then keeps it.
 */
export const signIn = async (key: string) => {
  health.value = await get<Health>("/health", undefined, { key })
  await loadTokens(key)
  sessionStorage.setItem(STORAGE_KEY, key)
  apiKey.value = key
}

export const signOut = () => {
  sessionStorage.removeItem(STORAGE_KEY)
  apiKey.value = null
  setControlKey(null)
  forgetTokens()
}

/** Reads the server's status (and the simulator's clock); a failure leaves the simulator's panel hidden. */
export const discover = async () => {
  const status = await get<Health>("/health", undefined, { anonymous: true }).catch(() => null)
  if (status !== null) health.value = status
  if (isSimulator()) {
    const clock = await get<{ readonly mode: "realtime" | "manual" }>("/sim/clock", undefined, { control: true })
      .catch(
        () => null
      )
    clockMode.value = clock?.mode ?? null
  }
}

/**
 * Reads the server's catalogue with `key` (at sign-in, or when a tab restores its key). The route is
 * public, so any valid key reads it; when the read fails the pickers say why instead of offering none.
 */
export const loadTokens = async (key?: string): Promise<void> => {
  try {
    const views = await get<ReadonlyArray<TokenView>>("/tokens", undefined, key === undefined ? {} : { key })
    tokenCatalogue.value = views.map(tokenInfoOf)
    tokensProblem.value = null
  } catch (error) {
    tokenCatalogue.value = []
    tokensProblem.value = error instanceof Error ? error.message : String(error)
  }
  tokensLoaded.value = true
}

/** Forgets the catalogue (signing out): the next key reads it again. */
export const forgetTokens = () => {
  tokenCatalogue.value = []
  tokensProblem.value = null
  tokensLoaded.value = false
}
