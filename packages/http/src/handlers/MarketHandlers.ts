/**
 * `/v1/market-data`, `/v1/market-data/trending` and `/v1/market-data/chart` on `MarketData`.
 * Extended market fields go to callers whose key has the `read` scope; anyone else gets the basic
 * record.
 */
import { MarketData, type MarketSnapshot } from "@swapdesk/core"
import { Effect, identity, Option } from "effect"
import { Api } from "../api/Api.ts"
import { MaybePrincipal } from "../api/Security.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Responder.ts"

/** `MarketApi` on the `MarketData` use cases. */
export const MarketHandlers = ApiHandlers.group(Api, "market", (handlers) =>
  Effect.gen(function*() {
    const { respond, stableView } = yield* makeResponder
    const market = yield* MarketData
    const respondRecord = stableView(identity<MarketSnapshot>)
    return handlers
      .handle("marketData", ({ query }) =>
        Effect.flatMap(MaybePrincipal, (caller) => {
          const extended = Option.exists(caller, (p) => p.scopes.includes("read"))
          return respondRecord(market.snapshot(query, extended))
        }))
      .handle("trending", ({ query }) => respond(market.trending(query), identity))
  }))

/** `ChartsApi` on the `MarketData` use cases. */
export const ChartsHandlers = ApiHandlers.group(Api, "charts", (handlers) =>
  Effect.gen(function*() {
    const { respond } = yield* makeResponder
    const market = yield* MarketData
    return handlers.handle("chart", ({ query }) => respond(market.chart(query), identity))
  }))
