/**
 * `/v1/trades` and `/v1/quote` on the `Trades` use cases, for the calling account. Trade creation
 * honours `Idempotency-Key`.
 */
import {
  quoteView,
  TokenRegistry,
  type TradeApprovalBody,
  tradeCreatedView,
  type TradeDecision,
  tradeDetailView,
  tradeListView,
  type TradeRecord,
  Trades,
  tradeView
} from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeIdempotentCreate } from "./IdempotentCreate.ts"
import { forAccount, makeResponder } from "./Responder.ts"

const decisionOf = (body: TradeApprovalBody): TradeDecision =>
  "signedTransaction" in body
    ? { _tag: "SignedTransaction", signedTransaction: body.signedTransaction }
    : "txHash" in body
    ? { _tag: "TransactionHash", txHash: body.txHash }
    : { _tag: "Reject" }

/** `TradesApi` on the `Trades` use cases. */
export const TradesHandlers = ApiHandlers.group(Api, "trades", (handlers) =>
  Effect.gen(function*() {
    const { respond, stableView } = yield* makeResponder
    const trades = yield* Trades
    const tokens = yield* TokenRegistry
    const create = yield* makeIdempotentCreate
    const respondTrade = stableView(tradeDetailView(tokens))
    const viewOf = tradeView(tokens)
    // A trade awaiting its wallet carries what the wallet must sign, read afresh on every request.
    const detailOf = (trade: TradeRecord) =>
      trade.stage === "awaiting_approval"
        ? Effect.map(trades.approvalOf(trade), (approval) => approval === undefined ? trade : { trade, approval })
        : Effect.succeed(trade)
    const listView = tradeListView(tokens)
    const quoteViewOf = quoteView(tokens)
    return handlers
      .handle("create", (request) => create("POST /v1/trades", request, trades.create, tradeCreatedView(tokens)))
      .handle("list", ({ query }) => forAccount((account) => respond(trades.list(account, query), listView)))
      .handle("get", ({ params }) =>
        forAccount((account) => respondTrade(Effect.flatMap(trades.get(account, params.id), detailOf))))
      .handle("approval", ({ params, payload }) =>
        forAccount((account) =>
          respond(trades.answer(account, params.id, decisionOf(payload)), viewOf)
        ))
      .handle("quote", ({ query }) =>
        forAccount((account) =>
          respond(trades.quote(account, query), quoteViewOf)
        ))
  }))
