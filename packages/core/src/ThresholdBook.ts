/**
 * A sorted multiset of thresholds, each carrying a value, kept in `(key, seq)` order as a list of
 * bounded chunks (the shape of a B+ tree's leaf level). An alert fires when the market reaches
 * its threshold, and "reached" is monotone in the key, so the entries that fire are always a
 * prefix: `takeWhile` answers them in O(log n + taken) and checks an observation that fires
 * nothing in O(1). Inserting or removing one entry costs O(log n + chunk size). Chunks keep the
 * memory per entry to one array slot plus the entry itself, where a balanced tree would add nodes.
 */

/** One threshold in a book. `seq` orders equal keys and is unique within the book. */
export interface ThresholdEntry<A> {
  readonly key: number
  readonly seq: number
  readonly value: A
}

/** Entries per chunk before it is split in two, by default. */
const CHUNK_MAX = 512

const before = <A>(a: ThresholdEntry<A>, key: number, seq: number): boolean =>
  a.key < key || (a.key === key && a.seq < seq)

export class ThresholdBook<A> {
  private readonly chunks: Array<Array<ThresholdEntry<A>>> = []
  private count = 0

  /** `chunkMax`: entries per chunk before it is split in two (small ones let tests reach every path). */
  private readonly chunkMax: number

  constructor(chunkMax: number = CHUNK_MAX) {
    this.chunkMax = chunkMax
  }

  get size(): number {
    return this.count
  }

  /** The lowest key, or undefined when the book is empty. */
  get lowestKey(): number | undefined {
    return this.chunks[0]?.[0]?.key
  }

  insert(entry: ThresholdEntry<A>): void {
    this.count++
    const chunks = this.chunks
    if (chunks.length === 0) {
      chunks.push([entry])
      return
    }
    const c = this.chunkFor(entry.key, entry.seq)
    const chunk = chunks[c]!
    chunk.splice(this.indexIn(chunk, entry.key, entry.seq), 0, entry)
    if (chunk.length > this.chunkMax) chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1))
  }

  /** Removes the entry with this key and seq; answers whether it was there. */
  remove(key: number, seq: number): boolean {
    if (this.chunks.length === 0) return false
    const c = this.chunkFor(key, seq)
    const chunk = this.chunks[c]!
    const i = this.indexIn(chunk, key, seq)
    const found = chunk[i]
    if (found === undefined || found.key !== key || found.seq !== seq) return false
    chunk.splice(i, 1)
    if (chunk.length === 0) this.chunks.splice(c, 1)
    this.count--
    return true
  }

  /**
   * Removes the entries whose key is `reached`, lowest first, and appends them to `into`.
   * `reached` must be monotone: once false for a key, false for every greater key.
   */
  takeWhile(reached: (key: number) => boolean, into: Array<ThresholdEntry<A>>): void {
    const chunks = this.chunks
    let whole = 0
    while (whole < chunks.length) {
      const chunk = chunks[whole]!
      if (!reached(chunk[0]!.key)) break
      if (reached(chunk[chunk.length - 1]!.key)) {
        for (const entry of chunk) into.push(entry)
        this.count -= chunk.length
        whole++
        continue
      }
      // The boundary lies inside this chunk: the first key not reached.
      let lo = 1, hi = chunk.length - 1
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (reached(chunk[mid]!.key)) lo = mid + 1
        else hi = mid
      }
      for (let i = 0; i < lo; i++) into.push(chunk[i]!)
      chunk.splice(0, lo)
      this.count -= lo
      break
    }
    if (whole > 0) chunks.splice(0, whole)
  }

  /** Every entry, in order (for snapshots, tests and diagnostics). */
  *entries(): IterableIterator<ThresholdEntry<A>> {
    for (const chunk of this.chunks) yield* chunk
  }

  /** The chunk that holds, or would hold, `(key, seq)`: the first whose last entry is not before it. */
  private chunkFor(key: number, seq: number): number {
    const chunks = this.chunks
    let lo = 0, hi = chunks.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const last = chunks[mid]!
      if (before(last[last.length - 1]!, key, seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The first index in `chunk` whose entry is not before `(key, seq)`. */
  private indexIn(chunk: ReadonlyArray<ThresholdEntry<A>>, key: number, seq: number): number {
    let lo = 0, hi = chunk.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (before(chunk[mid]!, key, seq)) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
