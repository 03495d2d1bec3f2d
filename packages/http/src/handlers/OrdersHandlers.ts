/**
 * `/v1/orders` on the `Orders` use cases, for the calling account. Placing an order honours
 * `Idempotency-Key` as trade creation does.
 */
import { orderListView, Orders, orderView, TokenRegistry } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import { makeIdempotency } from "../Idempotency.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Respond.ts"

export const OrdersHandlers = ApiHandlers.group(Api, "orders", (handlers) =>
  Effect.gen(function*() {
    const { envelope, orApiError, respond } = yield* makeResponder
    const orders = yield* Orders
    const tokens = yield* TokenRegistry
    const viewOf = orderView(tokens)
    const listView = orderListView(tokens)
    const idempotent = yield* makeIdempotency
    return handlers
      .handle("create", ({ headers, payload }) =>
        Effect.flatMap(Principal, (p) =>
          idempotent({
            accountId: p.accountId,
            key: headers["idempotency-key"],
            operation: "POST /v1/orders",
            body: payload,
            successStatus: 201,
            work: orApiError(Effect.flatMap(orders.create(p.accountId, payload), (order) => envelope(viewOf(order))))
          })))
      .handle(
        "list",
        ({ query }) => Effect.flatMap(Principal, (p) => respond(orders.list(p.accountId, query), listView))
      )
      .handle(
        "get",
        ({ params }) => Effect.flatMap(Principal, (p) => respond(orders.get(p.accountId, params.id), viewOf))
      )
      .handle(
        "cancel",
        ({ params }) => Effect.flatMap(Principal, (p) => respond(orders.cancel(p.accountId, params.id), viewOf))
      )
  }))
