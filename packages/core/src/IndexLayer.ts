/**
 * How the use cases' indexes (`AlertIndex`, `OrderIndex`) start: from the snapshot a restore put in
 * `RestoredIndexes`, or else rebuilt from the repositories.
 */
import { type Context, Effect, Layer } from "effect"
import { type IndexesSnapshot, RestoredIndexes } from "./RestoredIndexes.ts"

/**
 * The layer of one of the use cases' indexes: `restore`d from the snapshot when one was restored,
 * else `build` from the repositories.
 */
export const indexLayer = <Self, Index, R>(
  index: Context.Key<Self, Index>,
  restore: (snapshot: IndexesSnapshot) => Index,
  build: Effect.Effect<Index, never, R>
): Layer.Layer<Self, never, R> =>
  Layer.effect(
    index,
    Effect.flatMap(RestoredIndexes, (restored) => restored === undefined ? build : Effect.succeed(restore(restored)))
  )
