/**
 * `/v1/health`.
 */
import { MarketClock, toIso } from "@swapdesk/core"
import { Context, Effect } from "effect"
import { Api } from "../api/Api.ts"
import type { NetworkHealthView } from "../api/SystemApi.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { VERSION } from "../Version.ts"
import { makeResponder } from "./Responder.ts"

/**
 * What the service runs on, as `/v1/health` reports it: `"custom"` unless the server that composes
 * the routes names its backend (`@swapdesk/server` provides `"simulator"`).
 */
export const Backend = Context.Reference<string>("@swapdesk/http/Backend", {
  defaultValue: () => "custom"
})

/**
 * Each network's state, as `/v1/health` reports it under `networks`: none unless the server that
 * composes the routes serves networks of its own (the live server does).
 */
export const HealthNetworks = Context.Reference<
  Effect.Effect<Readonly<Record<string, NetworkHealthView>>> | undefined
>("@swapdesk/http/HealthNetworks", { defaultValue: () => undefined })

/** `SystemApi`: the health report. */
export const SystemHandlers = ApiHandlers.group(Api, "system", (handlers) =>
  Effect.gen(function*() {
    const backend = yield* Backend
    const { ok } = yield* makeResponder
    const clock = yield* MarketClock
    const networks = yield* HealthNetworks
    return handlers.handle("health", () =>
      networks === undefined
        ? Effect.flatMap(clock.now, (ms) => ok({ status: "ok" as const, version: VERSION, backend, time: toIso(ms) }))
        : Effect.flatMap(
          Effect.zip(clock.now, networks),
          ([ms, states]) => ok({ status: "ok" as const, version: VERSION, backend, time: toIso(ms), networks: states })
        ))
  }))
