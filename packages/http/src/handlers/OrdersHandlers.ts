/**
 * `/v1/orders` on the `Orders` use cases, for the calling account. Placing an order honours
 * `Idempotency-Key` as trade creation does.
 */
import { orderListView, Orders, orderView, TokenRegistry } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeIdempotentCreate } from "./IdempotentCreate.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** `OrdersApi` on the `Orders` use cases. */
export const OrdersHandlers = ApiHandlers.group(Api, "orders", (handlers) =>
  Effect.gen(function*() {
    const { respond } = yield* makeResponder
    const orders = yield* Orders
    const tokens = yield* TokenRegistry
    const viewOf = orderView(tokens)
    const listView = orderListView(tokens)
    const create = yield* makeIdempotentCreate
    return handlers
      .handle("create", (request) => create("POST /v1/orders", request, orders.create, viewOf))
      .handle("list", ({ query }) => forAccount((account) => respond(orders.list(account, query), listView)))
      .handle("get", ({ params }) => forAccount((account) => respond(orders.get(account, params.id), viewOf)))
      .handle("signature", ({ params, payload }) =>
        forAccount((account) =>
          respond(orders.submitSignature(account, params.id, payload.signature), viewOf)
        ))
      .handle("cancel", ({ params }) => forAccount((account) => respond(orders.cancel(account, params.id), viewOf)))
  }))
