/**
 * `/v1/trades` and `/v1/quote` on the `Trades` use cases, for the calling account. Trade creation
 * honours `Idempotency-Key`.
 */
import { quoteView, TokenRegistry, tradeCreatedView, tradeListView, Trades, tradeView } from "@swapdesk/core"
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
    const tokens = yield* TokenRegistry
    const idempotent = yield* makeIdempotency
    const respondTrade = stableView(tradeView(tokens))
    const createdView = tradeCreatedView(tokens)
    const listView = tradeListView(tokens)
    const quoteViewOf = quoteView(tokens)
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
              Effect.flatMap(trades.create(p.accountId, payload), (trade) => envelope(createdView(trade)))
            )
          })))
      .handle(
        "list",
        ({ query }) => Effect.flatMap(Principal, (p) => respond(trades.list(p.accountId, query), listView))
      )
      .handle("get", ({ params }) => Effect.flatMap(Principal, (p) => respondTrade(trades.get(p.accountId, params.id))))
      .handle(
        "quote",
        ({ query }) => Effect.flatMap(Principal, (p) => respond(trades.quote(p.accountId, query), quoteViewOf))
      )
  }))
