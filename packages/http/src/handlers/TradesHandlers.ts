/**
 * `/v1/trades` and `/v1/quote` on the `Trades` use cases, for the calling account. Trade creation
 * honours `Idempotency-Key`.
 */
import { quoteView, TokenRegistry, tradeCreatedView, tradeListView, Trades, tradeView } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeIdempotentCreate } from "./IdempotentCreate.ts"
import { forAccount, makeResponder } from "./Respond.ts"

export const TradesHandlers = ApiHandlers.group(Api, "trades", (handlers) =>
  Effect.gen(function*() {
    const { respond, stableView } = yield* makeResponder
    const trades = yield* Trades
    const tokens = yield* TokenRegistry
    const create = yield* makeIdempotentCreate
    const respondTrade = stableView(tradeView(tokens))
    const listView = tradeListView(tokens)
    const quoteViewOf = quoteView(tokens)
    return handlers
      .handle("create", (request) => create("POST /v1/trades", request, trades.create, tradeCreatedView(tokens)))
      .handle("list", ({ query }) => forAccount((account) => respond(trades.list(account, query), listView)))
      .handle("get", ({ params }) => forAccount((account) => respondTrade(trades.get(account, params.id))))
      .handle("quote", ({ query }) => forAccount((account) => respond(trades.quote(account, query), quoteViewOf)))
  }))
