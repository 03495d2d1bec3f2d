/**
 * Who is signed in, and what the server offers (and, on the simulator, how its clock runs): the key lives in `sessionStorage` only (gone when
 * the tab closes, never in `localStorage` or a cookie); the capabilities come from `GET /v1/health`
 * (is this the simulator?) and the OpenAPI document (which routes exist), so the interface offers
 * only the screens the server behind it can serve.
 */
import { signal } from "@preact/signals"
import { apiKey, controlKey, get } from "./api/Api.ts"
import type { Health } from "./api/Types.ts"
import { clockMode } from "./Clock.ts"

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

/** The `/v1` paths (as the OpenAPI document writes them) the server serves; null until read. */
export const routes = signal<ReadonlySet<string> | null>(null)

export const serves = (path: string): boolean => routes.value?.has(path) ?? false

export const isSimulator = (): boolean => health.value?.backend === "simulator"

export const restoreSession = () => {
  apiKey.value = sessionStorage.getItem(STORAGE_KEY)
  controlKey.value = sessionStorage.getItem(CONTROL_STORAGE_KEY)
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

/** Checks the key with the server (an invalid key is `401` even on a public route), then keeps it. */
export const signIn = async (key: string) => {
  health.value = await get<Health>("/health", undefined, { key })
  sessionStorage.setItem(STORAGE_KEY, key)
  apiKey.value = key
}

export const signOut = () => {
  sessionStorage.removeItem(STORAGE_KEY)
  apiKey.value = null
  setControlKey(null)
}

/** Reads the server's status and route list; a failure leaves the optional screens hidden. */
export const discover = async () => {
  const [status, document] = await Promise.allSettled([
    get<Health>("/health", undefined, { anonymous: true }),
    fetch(new URL("/v1/openapi.json", location.href), { credentials: "omit" }).then((response) =>
      response.ok ? (response.json() as Promise<{ readonly paths?: Record<string, unknown> }>) : { paths: {} }
    )
  ])
  if (status.status === "fulfilled") health.value = status.value
  if (isSimulator()) {
    const clock = await get<{ readonly mode: "realtime" | "manual" }>("/sim/clock", undefined, { control: true })
      .catch(
        () => null
      )
    clockMode.value = clock?.mode ?? null
  }
  routes.value = new Set(document.status === "fulfilled" ? Object.keys(document.value.paths ?? {}) : [])
}
