/**
 * The running `OrderBook` as a service: `Orders` adds the orders it opens and takes out the ones
 * that close, and a snapshot of the simulation reads it. Built from the repository's open orders,
 * so a durable repository's orders are watched again after a restart, or from `RestoredIndexes`.
 */
import { Context, Effect } from "effect"
import { indexLayer } from "./IndexLayer.ts"
import { isOpen, limitPriceOf } from "./Order.ts"
import { OrderBook } from "./OrderBook.ts"
import { OrderRepository } from "./Repositories.ts"
import { TokenRegistry } from "./TokenRegistry.ts"

export class OrderIndex extends Context.Service<OrderIndex, OrderBook>()("@swapdesk/core/OrderIndex") {
  static readonly layer = indexLayer(
    OrderIndex,
    (restored) => OrderBook.restore(restored.orders),
    Effect.gen(function*() {
      const tokens = yield* TokenRegistry
      const book = new OrderBook()
      for (const order of yield* (yield* OrderRepository).open) {
        if (isOpen(order)) book.add({ ...order, limitPrice: limitPriceOf(order, tokens) })
      }
      return book
    })
  )
}
