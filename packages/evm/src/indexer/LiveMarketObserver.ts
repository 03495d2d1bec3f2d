/**
 * Tells the domain what the chain did, as the simulator's event loop does: on each new head block
 * of a network, and each range the index writes, one `MarketReactor.onMarket` observation carrying
 * the swaps indexed since the last one (whale and volume alerts) and the tokens' current prices
 * (price and portfolio alerts), at the latest head block time. The first observation in each new
 * minute of head block time also asks for the hourly and daily aggregates (volume and portfolio
 * alerts): block times rarely land on the whole minute the core checks them at by default. History
 * indexed before the layer started is not replayed. When a reorganisation rolls the index back
 * (`rolledBackTo`), the swaps from there are read again and told, except those moving the same
 * amounts as a swap told from the removed blocks: a transaction mined again is told once.
 */
import { MarketReactor, type MarketSwap, type Network, PriceFeed } from "@swapdesk/core"
import { Effect, Layer } from "effect"
import { liveTokensOf } from "../live/LiveTokens.ts"
import type { LiveConfig } from "../LiveConfig.ts"
import { ChainIndex } from "./ChainIndex.ts"

const minute = 60_000
/** How many of the last blocks' told swaps are remembered: deeper reorganisations than this are not expected. */
const keptBlocks = 128n

/** What was told of one network. */
interface Told {
  /** The last block whose swaps were read. */
  reported: bigint
  /** The head block at the last look. */
  head: bigint | null
  /** The swaps told from the last `keptBlocks` blocks, in chain order, by what they moved. */
  recent: Array<{ readonly block: bigint; readonly key: string }>
  /** Swaps told from blocks a roll-back removed: a swap moving the same amounts is the same one mined again. */
  replaced: Array<{ readonly block: bigint; readonly key: string }>
}

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
    const seen = new Map<string, Told>()
    /** The minute of head block time whose aggregates were last asked for. */
    let aggregatedMinute = Number.NEGATIVE_INFINITY
    for (const n of index.indexed) {
      const state = index.stateOf(n.network)!
      state.rolledBackTo = null
      seen.set(n.network, {
        reported: state.indexedBlock ?? BigInt(n.startBlock) - 1n,
        head: state.headBlock,
        recent: [],
        replaced: []
      })
    }

    const observe = Effect.gen(function*() {
      const swaps: Array<MarketSwap> = []
      let changed = false
      let at = 0
      for (const n of index.indexed) {
        const state = index.stateOf(n.network)!
        const told = seen.get(n.network)!
        at = Math.max(at, state.headTime ?? 0)
        const rolledBackTo = state.rolledBackTo
        state.rolledBackTo = null
        if (rolledBackTo !== null && rolledBackTo < told.reported) {
          // What was told above it may be gone or replaced, even with the index back at the same
          // height: read again from there, the swaps told kept aside so that one the new chain
          // holds too (a transaction mined again) is not told twice.
          told.replaced.push(...told.recent.filter((s) => s.block > rolledBackTo))
          told.recent = told.recent.filter((s) => s.block <= rolledBackTo)
          told.reported = rolledBackTo
          changed = true
        }
        const indexed = state.indexedBlock ?? told.reported
        if (indexed > told.reported) {
          const rows = yield* index.store.swapsBetween(n.network, told.reported, indexed).pipe(Effect.orDie)
          for (const row of rows) {
            const block = BigInt(String(row.block_number))
            const key = `${row.token}:${row.side}:${row.amount}:${row.value_usd}`
            told.recent.push({ block, key })
            const again = told.replaced.length === 0 ? -1 : told.replaced.findIndex((s) => s.key === key)
            if (again >= 0) {
              told.replaced.splice(again, 1)
              continue
            }
            swaps.push({
              at: Number(row.at),
              symbol: row.token,
              network: n.network as Network,
              side: row.side,
              valueUsd: Number(row.value_usd)
            })
          }
          told.reported = indexed
          changed = true
          const horizon = indexed - keptBlocks
          let old = 0
          while (old < told.recent.length && told.recent[old]!.block <= horizon) old++
          if (old > 0) told.recent.splice(0, old)
          if (told.replaced.length > 0) told.replaced = told.replaced.filter((s) => s.block > horizon)
        }
        if (state.headBlock !== told.head) {
          told.head = state.headBlock
          changed = true
        }
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
