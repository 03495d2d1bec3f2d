/**
 * Tells the domain what the chain did, as the simulator's event loop does: on each new head block
 * of a network, and each range the index writes, one `MarketReactor.onMarket` observation carrying
 * the swaps indexed since the last one (whale and volume alerts) and the tokens' current prices
 * (price and portfolio alerts), at the latest head block time. The first observation in each new
 * minute of head block time also asks for the hourly and daily aggregates (volume and portfolio
 * alerts): block times rarely land on the whole minute the core checks them at by default. History
 * indexed before the layer started is not replayed.
 */
import { MarketReactor, type MarketSwap, type Network, PriceFeed } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { liveTokensOf } from "../live/LiveTokens.ts"
import type { LiveConfig } from "../LiveConfig.ts"
import { ChainIndex } from "./ChainIndex.ts"

const minute = 60_000

/** Settings that tests change. */
export interface LiveMarketObserverOptions {
  /** How often the index is looked at: 1 s when absent. */
  readonly intervalMs?: number
}

/** One fiber observing every network's index for the layer's lifetime. */
export const layerLiveMarketObserver = (
  config: LiveConfig,
  options: LiveMarketObserverOptions = {}
): Layer.Layer<never, never, MarketReactor | ChainIndex | PriceFeed> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const reactor = yield* MarketReactor
    const index = yield* ChainIndex
    const feed = yield* PriceFeed
    const symbols = liveTokensOf(config).map((t) => t.symbol)
    const seen = new Map<string, { indexed: bigint; head: bigint | null }>()
    /** The minute of head block time whose aggregates were last asked for. */
    let aggregatedMinute = Number.NEGATIVE_INFINITY
    for (const n of index.indexed) {
      const state = index.stateOf(n.network)!
      seen.set(n.network, { indexed: state.indexedBlock ?? BigInt(n.startBlock) - 1n, head: state.headBlock })
    }

    const observe = Effect.gen(function*() {
      const swaps: Array<MarketSwap> = []
      let changed = false
      let at = 0
      for (const n of index.indexed) {
        const state = index.stateOf(n.network)!
        const last = seen.get(n.network)!
        at = Math.max(at, state.headTime ?? 0)
        const indexed = state.indexedBlock ?? last.indexed
        // A roll-back moves the index below what was observed: its swaps were told once already.
        if (indexed > last.indexed) {
          const rows = yield* index.store.swapsBetween(n.network, last.indexed, indexed).pipe(Effect.orDie)
          for (const row of rows) {
            swaps.push({
              at: Number(row.at),
              symbol: row.token,
              network: n.network as Network,
              side: row.side,
              valueUsd: Number(row.value_usd)
            })
          }
        }
        if (indexed !== last.indexed || state.headBlock !== last.head) changed = true
        seen.set(n.network, { indexed: indexed > last.indexed ? indexed : last.indexed, head: state.headBlock })
      }
      if (!changed || at === 0) return
      const prices = new Map<string, number>()
      for (const symbol of symbols) {
        const price = yield* feed.priceUsd(symbol).pipe(Effect.catchCause(() => Effect.succeed(undefined)))
        if (price !== undefined) prices.set(symbol, price.toNumber())
      }
      const aggregates = Math.floor(at / minute) > aggregatedMinute
      if (aggregates) aggregatedMinute = Math.floor(at / minute)
      yield* reactor.onMarket({
        at,
        swaps,
        prices: { priceUsd: (symbol) => prices.get(symbol) ?? Number.NaN },
        aggregates
      })
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("live market observation failed", cause)))

    yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(options.intervalMs ?? 1_000), observe)))
  }))
