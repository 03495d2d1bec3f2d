/**
 * The two shapes every list answer takes, built once: a page (`total`, `limit`, `offset`, then the
 * items under the resource's key) and a whole collection (`total`, then the items). Each resource's
 * view module names its lists with these, so the pagination fields, their rules and their order on
 * the wire are written in one place, for the schema and for the function that builds the answer.
 */
import { Schema } from "effect"
import type { Page } from "./Page.ts"

/** A count on a list answer (`total`, `limit`, `offset`): a whole number, never negative. */
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** The items of a list under the resource's own key (`alerts`, `trades`, …). */
type ItemsField<Key extends string, Item extends Schema.Top> = { readonly [K in Key]: Schema.$Array<Item> }

const itemsField = <Key extends string, Item extends Schema.Top>(key: Key, item: Item) =>
  ({ [key]: Schema.Array(item) }) as ItemsField<Key, Item>

/** The schema of a page of `item`s: `{ total, limit, offset, [key]: item[] }`. */
export const PageView = <const Key extends string, Item extends Schema.Top>(key: Key, item: Item) =>
  Schema.Struct({ total: Count, limit: Count, offset: Count, ...itemsField(key, item) })

/** The schema of a whole collection of `item`s: `{ total, [key]: item[] }`. */
export const CollectionView = <const Key extends string, Item extends Schema.Top>(key: Key, item: Item) =>
  Schema.Struct({ total: Count, ...itemsField(key, item) })

/** A page answer as built: the pagination, then the items under the resource's key. */
type BuiltPage<Key extends string, V> =
  & { readonly total: number; readonly limit: number; readonly offset: number }
  & { readonly [K in Key]: ReadonlyArray<V> }

/** A collection answer as built: the count, then the items under the resource's key. */
type BuiltCollection<Key extends string, V> = { readonly total: number } & { readonly [K in Key]: ReadonlyArray<V> }

/** A page of records as its list answer shows it, each item through `view`. */
export const pageView =
  <const Key extends string, A, V>(key: Key, view: (record: A) => V) => (page: Page<A>): BuiltPage<Key, V> =>
    ({
      total: page.total,
      limit: page.limit,
      offset: page.offset,
      [key]: page.items.map((record) => view(record))
    }) as BuiltPage<Key, V>

/** A whole collection of records as its list answer shows it, each item through `view`. */
export const collectionView =
  <const Key extends string, A, V>(key: Key, view: (record: A) => V) =>
  (records: ReadonlyArray<A>): BuiltCollection<Key, V> =>
    ({ total: records.length, [key]: records.map((record) => view(record)) }) as BuiltCollection<Key, V>
