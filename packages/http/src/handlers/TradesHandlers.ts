/**
 * `/v1/trades` and `/v1/quote` on the `Trades` use cases, for the calling account. Trade creation
 * honours `Idempotency-Key`.
 */
import { quoteView, tradeCreatedView, tradeListView, Trades, tradeView } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import { makeIdempotency } from "../Idempotency.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Respond.ts"

export const TradesHandlers = ApiHandlers.group(Api, "trades", (handlers) =>
  Effect.gen(function*() {
    const { envelope, orApiError, respond, stableView } = yield* makeResponder
    const trades = yield* Trades
    const idempotent = yield* makeIdempotency
    const respondTrade = stableView(tradeView)
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(Principal, (p) =>
          idempotent({
            accountId: p.accountId,
            key: headers["idempotency-key"],
            operation: "POST /v1/trades",
            body: payload,
            successStatus: 201,
            work: orApiError(
              Effect.flatMap(trades.create(p.accountId, payload), (trade) => envelope(tradeCreatedView(trade)))
            )
          })))
      .handle("list", ({ query }) =>
        Effect.flatMap(Principal, (p) => respond(trades.list(p.accountId, query), tradeListView)))
      .handle("get", ({ params }) =>
        Effect.flatMap(Principal, (p) => respondTrade(trades.get(p.accountId, params.id))))
      .handle("quote", ({ query }) =>
        Effect.flatMap(Principal, (p) =>
          respond(trades.quote(p.accountId, query), quoteView)))
  }))
