/**
 * Where a restore starts the use cases' indexes from: the alert engine and the order book as a
 * snapshot of the simulation holds them, instead of the repositories' active alerts and open
 * orders. Both indexes decide ties by the order things arrived in, which the records alone do not
 * keep, so a restored server that rebuilt them from the records could tell two alerts, or fill two
 * orders, in another order than the run it restores (docs/storage.md#snapshots). Unset, as in
 * every deployment that does not restore a simulation, the indexes are built from the repositories.
 */
import { Context } from "effect"
import type { AlertEngineSnapshot } from "./AlertEngine.ts"
import type { OrderBookSnapshot } from "./OrderBook.ts"

/** The use cases' indexes as plain data. */
export interface IndexesSnapshot {
  readonly alerts: AlertEngineSnapshot
  readonly orders: OrderBookSnapshot
}

export const RestoredIndexes = Context.Reference<IndexesSnapshot | undefined>(
  "@swapdesk/core/RestoredIndexes",
  { defaultValue: () => undefined }
)
