/**
 * Record ids kept sorted under named keys (an account, an account and a status, ...), in the list
 * order every collection shares (docs/decisions.md, "Lists"): newest first, then id descending. A
 * page is cut by position and a `createdAt` range by binary search, so reading one costs
 * O(log n + page) however long the key's history is. Ids are stored oldest first, so a record
 * that is the newest so far (nearly every insert) is appended in O(1).
 */

interface Entry {
  readonly createdAt: number
  readonly id: string
}

/** Ascending list order: older first, then lower id. */
const ascending = (a: Entry, b: Entry): number => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** The first position in `entries` whose entry is not before `probe`. */
const lowerBound = (entries: ReadonlyArray<Entry>, probe: Entry): number => {
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (ascending(entries[middle]!, probe) < 0) low = middle + 1
    else high = middle
  }
  return low
}

/** The positions `[start, end)` of the entries with `fromMs <= createdAt <= toMs`. */
const rangeOf = (entries: ReadonlyArray<Entry>, fromMs: number | undefined, toMs: number | undefined) => {
  const start = fromMs === undefined ? 0 : lowerBound(entries, { createdAt: fromMs, id: "" })
  // Every id sorts after "" so the probe (toMs + 1, "") lands just past the last entry at toMs.
  const end = toMs === undefined ? entries.length : lowerBound(entries, { createdAt: toMs + 1, id: "" })
  return { start, end: Math.max(start, end) }
}

/** A `createdAt` window, bounds inclusive. */
export interface TimeRange {
  readonly fromMs?: number | undefined
  readonly toMs?: number | undefined
}

/** One page of ids, newest first, and how many the key holds in the range. */
export interface IdPage {
  readonly total: number
  readonly ids: ReadonlyArray<string>
}

export class ListIndex {
  private readonly lists = new Map<string, Array<Entry>>()

  /** Files `id` under `key`; filing the same record twice keeps one entry. */
  add(key: string, createdAt: number, id: string): void {
    let entries = this.lists.get(key)
    if (entries === undefined) this.lists.set(key, entries = [])
    const entry = { createdAt, id }
    const last = entries[entries.length - 1]
    if (last === undefined || ascending(last, entry) < 0) {
      entries.push(entry)
      return
    }
    const at = lowerBound(entries, entry)
    if (at < entries.length && ascending(entries[at]!, entry) === 0) return
    entries.splice(at, 0, entry)
  }

  /** Takes `id` out of `key`, if it is there. */
  remove(key: string, createdAt: number, id: string): void {
    const entries = this.lists.get(key)
    if (entries === undefined) return
    const entry = { createdAt, id }
    const at = lowerBound(entries, entry)
    if (at < entries.length && ascending(entries[at]!, entry) === 0) {
      entries.splice(at, 1)
      if (entries.length === 0) this.lists.delete(key)
    }
  }

  /** How many ids `key` holds in the range. */
  count(key: string, range: TimeRange = {}): number {
    const entries = this.lists.get(key)
    if (entries === undefined) return 0
    const { end, start } = rangeOf(entries, range.fromMs, range.toMs)
    return end - start
  }

  /** The page `[offset, offset + limit)` of `key`'s ids in the range, newest first. */
  page(key: string, range: TimeRange, offset: number, limit: number): IdPage {
    const entries = this.lists.get(key)
    if (entries === undefined) return { total: 0, ids: [] }
    const { end, start } = rangeOf(entries, range.fromMs, range.toMs)
    const ids: Array<string> = []
    for (let i = end - 1 - offset; i >= start && ids.length < limit; i--) ids.push(entries[i]!.id)
    return { total: end - start, ids }
  }

  /** `key`'s ids in the range, newest first. */
  *newestFirst(key: string, range: TimeRange = {}): Generator<string> {
    const entries = this.lists.get(key)
    if (entries === undefined) return
    const { end, start } = rangeOf(entries, range.fromMs, range.toMs)
    for (let i = end - 1; i >= start; i--) yield entries[i]!.id
  }

  /** `key`'s ids, oldest first. */
  *oldestFirst(key: string): Generator<string> {
    const entries = this.lists.get(key)
    if (entries === undefined) return
    for (const entry of entries) yield entry.id
  }
}

/**
 * Cuts one page from the smallest of `candidates` (index keys each holding a superset of the
 * matches): when `exact` says that key holds exactly the matches, by position; otherwise by a
 * newest-first walk that checks `keep`, O(size of that key).
 */
export const pageFrom = <A>(
  index: ListIndex,
  candidates: ReadonlyArray<{ readonly key: string; readonly exact: boolean }>,
  range: TimeRange,
  rows: ReadonlyMap<string, A>,
  keep: (record: A) => boolean,
  page: { readonly offset: number; readonly limit: number }
): { readonly total: number; readonly items: ReadonlyArray<A> } => {
  let best = candidates[0]!
  let bestSize = index.count(best.key, range)
  for (const candidate of candidates.slice(1)) {
    const size = index.count(candidate.key, range)
    if (size < bestSize || (size === bestSize && candidate.exact && !best.exact)) {
      best = candidate
      bestSize = size
    }
  }
  if (best.exact) {
    const { ids, total } = index.page(best.key, range, page.offset, page.limit)
    return { total, items: ids.map((id) => rows.get(id)!) }
  }
  let total = 0
  const items: Array<A> = []
  for (const id of index.newestFirst(best.key, range)) {
    const record = rows.get(id)!
    if (!keep(record)) continue
    if (total >= page.offset && items.length < page.limit) items.push(record)
    total++
  }
  return { total, items }
}
