/**
 * The chain index of every network of the live file as a service: one supervised fiber per network
 * (`runChainIndexer`) for the layer's lifetime, and where each one stands, which `GET /v1/health`
 * shows as `indexedBlock` and `lagBlocks`. It needs the store's client, its schema migrated.
 */
import { Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { EvmNetwork } from "../EvmNetwork.ts"
import type { LiveConfig } from "../LiveConfig.ts"
import { type ChainIndexerOptions, initialIndexState, type NetworkIndexState, runChainIndexer } from "./ChainIndexer.ts"
import { type IndexedNetwork, indexedNetworksOf } from "./IndexedNetwork.ts"
import { type IndexStore, makeIndexStore } from "./IndexStore.ts"

/** Where one network's index stands. */
export interface NetworkIndexStatus {
  readonly network: EvmNetwork
  /** The last indexed block; null before the first range is written. */
  readonly indexedBlock: number | null
  /** The node's head block as the indexer last read it; null before it did. */
  readonly headBlock: number | null
  /** `headBlock − indexedBlock`, null while either is unknown. */
  readonly lagBlocks: number | null
}

/** The index of every configured network. */
export class ChainIndex extends Context.Service<ChainIndex, {
  /** Every network, in the file's order. */
  readonly networks: Effect.Effect<ReadonlyArray<NetworkIndexStatus>>
  /** The network's indexer state, read live (undefined: not a network of the file). */
  readonly stateOf: (network: string) => NetworkIndexState | undefined
  /** The networks as the index reads them. */
  readonly indexed: ReadonlyArray<IndexedNetwork>
  /** The index's statements. */
  readonly store: IndexStore
}>()("@swapdesk/evm/ChainIndex") {}

const statusOf = (network: EvmNetwork, state: NetworkIndexState): NetworkIndexStatus => {
  const indexedBlock = state.indexedBlock === null ? null : Number(state.indexedBlock)
  const headBlock = state.headBlock === null ? null : Number(state.headBlock)
  return {
    network,
    indexedBlock,
    headBlock,
    lagBlocks: indexedBlock === null || headBlock === null ? null : Math.max(0, headBlock - indexedBlock)
  }
}

/** Starts one indexer fiber per network of `config`, interrupted when the layer's scope closes. */
export const layerChainIndex = (
  config: LiveConfig,
  options: ChainIndexerOptions = {}
): Layer.Layer<ChainIndex, never, SqlClient.SqlClient> =>
  Layer.effect(
    ChainIndex,
    Effect.gen(function*() {
      const store = yield* makeIndexStore
      const indexed = indexedNetworksOf(config)
      const states = new Map<string, NetworkIndexState>()
      for (const network of indexed) {
        const state = initialIndexState(options)
        const cursor = yield* Effect.orElseSucceed(store.cursor(network.network), () => undefined)
        state.indexedBlock = cursor?.number ?? null
        state.indexedTime = cursor?.time ?? null
        states.set(network.network, state)
        yield* Effect.forkScoped(runChainIndexer(network, store, state, options))
      }
      return ChainIndex.of({
        networks: Effect.sync(() => indexed.map((n) => statusOf(n.network, states.get(n.network)!))),
        stateOf: (network) => states.get(network),
        indexed,
        store
      })
    })
  )
