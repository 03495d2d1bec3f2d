/**
 * The market's recent memory: one bucket per minute. Prices are stored per price process (high,
 * low, close; a bucket's open is the previous close, so it is not stored) and volumes per (token,
 * network) pair (all swaps, and the buying part of them). Larger timeframes are aggregated from
 * these on query.
 *
 * A token replayed from a file of candles also stores each bucket's open: the file's candles open
 * where the exchange's first trade was, not at the previous close.
 *
 * Buckets are numbered from the start of history, but the arrays hold only the buckets from
 * `firstBucket` on: `dropBefore` shifts the older ones out once they are rolled up into hours
 * (`HourStore`), so live ticking keeps a bounded window of minutes (docs/simulator.md#retention).
 * Plain `Float64Array`s, grown by doubling up to that window; live ticking appends without
 * allocating.
 */

export const MINUTE_MS = 60_000

/**
 * The minute store's contents: every array cut to the buckets in use (from `firstBucket` to the
 * last written one), plus what sets its layout. Buy volume and the prefix sums are only ever read
 * over the last hours (`sum` serves the rolling windows of the statistics), so they are kept from
 * `recentFrom` on; a store restored from it refuses to sum them further back. Prefix sums are kept
 * as they are rather than recomputed, because a swap stamped in the last second of a minute may be
 * booked after that minute was sealed, and the figures read must stay those the store had.
 */
export interface MinuteStoreSnapshot {
  readonly firstBucket: number
  readonly sealed: number
  readonly capacityMinutes: number
  /** The first bucket whose buy volume and prefix sums are kept (`recent*` start there). */
  readonly recentFrom: number
  readonly firstOpen: Float64Array
  readonly high: ReadonlyArray<Float64Array>
  readonly low: ReadonlyArray<Float64Array>
  readonly close: ReadonlyArray<Float64Array>
  /** `null` for a process that stores no opens. */
  readonly open: ReadonlyArray<Float64Array | null>
  readonly volume: ReadonlyArray<Float64Array>
  readonly recentBuyVolume: ReadonlyArray<Float64Array>
  /** Prefix entries `recentFrom - firstBucket .. sealed - firstBucket`. */
  readonly recentVolumePrefix: ReadonlyArray<Float64Array>
  readonly recentBuyPrefix: ReadonlyArray<Float64Array>
}

/** Replaces each array of `list` by a new one of `length` holding `from`'s at `offset`. */
const fillFrom = (list: Array<Float64Array>, from: ReadonlyArray<Float64Array>, length: number, offset: number) => {
  for (let i = 0; i < list.length; i++) {
    const values = new Float64Array(length)
    values.set(from[i]!, offset)
    list[i] = values
  }
}

export class MinuteStore {
  /** Absolute minute number (ms / 60 000) of bucket 0. */
  readonly baseMinute: number
  /** The oldest bucket the arrays hold, at index 0: bucket `b` is at `b - firstBucket`. */
  firstBucket = 0
  /** The price before bucket 0 (the open of the very first candle), per process. */
  readonly firstOpen: Float64Array
  readonly high: Array<Float64Array>
  readonly low: Array<Float64Array>
  readonly close: Array<Float64Array>
  /** Each bucket's open, for the processes that store one (replayed ones); `undefined` for the rest. */
  readonly open: Array<Float64Array | undefined>
  readonly volume: Array<Float64Array>
  readonly buyVolume: Array<Float64Array>
  private capacityMinutes: number
  /** Buckets before `sealed` are closed: nothing books into them any more. */
  private sealed = 0
  /** Buy volume and prefix sums are held from this bucket on (0, except in a restored store). */
  private recentFrom = 0
  /**
   * prefix[pair][i] = sum of series[pair] over the indices before i, for i <= sealed - firstBucket,
   * plus whatever the dropped buckets summed to (differences are what is read).
   */
  private readonly volumePrefix: Array<Float64Array>
  private readonly buyPrefix: Array<Float64Array>

  constructor(
    baseMinute: number,
    processCount: number,
    pairCount: number,
    capacityMinutes: number,
    storesOpen: (process: number) => boolean = () => false
  ) {
    this.baseMinute = baseMinute
    this.capacityMinutes = capacityMinutes
    this.firstOpen = new Float64Array(processCount)
    const arrays = (count: number): Array<Float64Array> =>
      Array.from({ length: count }, () => new Float64Array(capacityMinutes))
    this.high = arrays(processCount)
    this.low = arrays(processCount)
    this.close = arrays(processCount)
    this.open = Array.from(
      { length: processCount },
      (_, process) => (storesOpen(process) ? new Float64Array(capacityMinutes) : undefined)
    )
    this.volume = arrays(pairCount)
    this.buyVolume = arrays(pairCount)
    this.volumePrefix = Array.from({ length: pairCount }, () => new Float64Array(capacityMinutes + 1))
    this.buyPrefix = Array.from({ length: pairCount }, () => new Float64Array(capacityMinutes + 1))
  }

  /**
   * A copy of the buckets before `endBucket` (nothing is written from there on) and of the layout,
   * with buy volume and prefix sums from `recentFrom` on (or as far back as they are held).
   */
  snapshot(endBucket: number, recentFrom: number): MinuteStoreSnapshot {
    const first = this.firstBucket
    const recent = Math.max(first, this.recentFrom, Math.min(recentFrom, this.sealed))
    const cut = (values: Float64Array): Float64Array => values.slice(0, endBucket - first)
    const cutRecent = (values: Float64Array): Float64Array => values.slice(recent - first, endBucket - first)
    const cutPrefix = (values: Float64Array): Float64Array => values.slice(recent - first, this.sealed - first + 1)
    return {
      firstBucket: first,
      sealed: this.sealed,
      capacityMinutes: this.capacityMinutes,
      recentFrom: recent,
      firstOpen: this.firstOpen.slice(),
      high: this.high.map(cut),
      low: this.low.map(cut),
      close: this.close.map(cut),
      open: this.open.map((values) => (values === undefined ? null : cut(values))),
      volume: this.volume.map(cut),
      recentBuyVolume: this.buyVolume.map(cutRecent),
      recentVolumePrefix: this.volumePrefix.map(cutPrefix),
      recentBuyPrefix: this.buyPrefix.map(cutPrefix)
    }
  }

  /** Takes the contents of `snapshot`, from a store of the same processes and pairs, in new arrays. */
  restore(snapshot: MinuteStoreSnapshot): void {
    if (snapshot.high.length !== this.high.length || snapshot.volume.length !== this.volume.length) {
      throw new Error(
        `minute snapshot of ${snapshot.high.length} processes and ${snapshot.volume.length} pairs, the market has ${this.high.length} and ${this.volume.length}`
      )
    }
    const capacity = snapshot.capacityMinutes
    const recentIndex = snapshot.recentFrom - snapshot.firstBucket
    fillFrom(this.high, snapshot.high, capacity, 0)
    fillFrom(this.low, snapshot.low, capacity, 0)
    fillFrom(this.close, snapshot.close, capacity, 0)
    fillFrom(this.volume, snapshot.volume, capacity, 0)
    fillFrom(this.buyVolume, snapshot.recentBuyVolume, capacity, recentIndex)
    fillFrom(this.volumePrefix, snapshot.recentVolumePrefix, capacity + 1, recentIndex)
    fillFrom(this.buyPrefix, snapshot.recentBuyPrefix, capacity + 1, recentIndex)
    for (let i = 0; i < this.open.length; i++) {
      const opens = snapshot.open[i]
      if ((opens === null) !== (this.open[i] === undefined)) {
        throw new Error(`minute snapshot: process ${i} opens differ`)
      }
      if (opens === null || opens === undefined) continue
      const values = new Float64Array(capacity)
      values.set(opens)
      this.open[i] = values
    }
    this.firstOpen.set(snapshot.firstOpen)
    this.firstBucket = snapshot.firstBucket
    this.sealed = snapshot.sealed
    this.recentFrom = snapshot.recentFrom
    this.capacityMinutes = capacity
  }

  /** Where bucket `bucket` is in the arrays. */
  indexOf(bucket: number): number {
    return bucket - this.firstBucket
  }

  /** Marks buckets before `bucket` closed and extends the prefix sums over them. */
  seal(bucket: number): void {
    const first = this.firstBucket
    for (let pair = 0; pair < this.volume.length; pair++) {
      const v = this.volume[pair]!, vp = this.volumePrefix[pair]!
      const b = this.buyVolume[pair]!, bp = this.buyPrefix[pair]!
      for (let i = this.sealed - first; i < bucket - first; i++) {
        vp[i + 1] = vp[i]! + v[i]!
        bp[i + 1] = bp[i]! + b[i]!
      }
    }
    if (bucket > this.sealed) this.sealed = bucket
  }

  /**
   * Forgets the buckets before `bucket` (sealed ones, already rolled up by the caller): every array
   * shifts down in place, so the arrays keep their identity and their size.
   */
  dropBefore(bucket: number): void {
    const shift = bucket - this.firstBucket
    if (shift <= 0) return
    if (bucket > this.sealed) throw new RangeError(`dropBefore(${bucket}): buckets from ${this.sealed} are open`)
    const kept = this.capacityMinutes - shift
    for (const list of [this.high, this.low, this.close, this.volume, this.buyVolume, this.open]) {
      for (const values of list) {
        if (values === undefined) continue
        values.copyWithin(0, shift)
        values.fill(0, kept)
      }
    }
    for (const list of [this.volumePrefix, this.buyPrefix]) {
      for (const values of list) {
        values.copyWithin(0, shift)
        values.fill(0, kept + 1)
      }
    }
    this.firstBucket = bucket
  }

  /** The bucket holding time `ms` (may be negative: before history). */
  bucketOf(ms: number): number {
    return Math.floor(ms / MINUTE_MS) - this.baseMinute
  }

  /** Open time of a bucket. */
  startOf(bucket: number): number {
    return (this.baseMinute + bucket) * MINUTE_MS
  }

  /** Makes room for `bucket`, doubling every array when needed (callers re-read the arrays after). */
  ensureCapacity(bucket: number): void {
    const index = bucket - this.firstBucket
    if (index < this.capacityMinutes) return
    let capacity = this.capacityMinutes
    while (capacity <= index) capacity *= 2
    for (const list of [this.high, this.low, this.close, this.volume, this.buyVolume]) {
      for (let i = 0; i < list.length; i++) {
        const grown = new Float64Array(capacity)
        grown.set(list[i]!)
        list[i] = grown
      }
    }
    for (let i = 0; i < this.open.length; i++) {
      const opens = this.open[i]
      if (opens === undefined) continue
      const grown = new Float64Array(capacity)
      grown.set(opens)
      this.open[i] = grown
    }
    for (const list of [this.volumePrefix, this.buyPrefix]) {
      for (let i = 0; i < list.length; i++) {
        const grown = new Float64Array(capacity + 1)
        grown.set(list[i]!)
        list[i] = grown
      }
    }
    this.capacityMinutes = capacity
  }

  /** Starts a price process's bucket at `priceUsd`: its open, and its high, low and close so far. */
  openBucket(process: number, bucket: number, priceUsd: number): void {
    const i = bucket - this.firstBucket
    const opens = this.open[process]
    if (opens !== undefined) opens[i] = priceUsd
    this.high[process]![i] = priceUsd
    this.low[process]![i] = priceUsd
    this.close[process]![i] = priceUsd
  }

  /** A price process's price moves within a bucket: it is the close so far, and may be a new extreme. */
  recordPrice(process: number, bucket: number, priceUsd: number): void {
    const i = bucket - this.firstBucket
    const highs = this.high[process]!
    const lows = this.low[process]!
    this.close[process]![i] = priceUsd
    if (priceUsd > highs[i]!) highs[i] = priceUsd
    if (priceUsd < lows[i]!) lows[i] = priceUsd
  }

  /** Traded volume of bucket `bucket` summed over `pairs`. */
  volumeOf(bucket: number, pairs: ReadonlyArray<number>): number {
    const i = bucket - this.firstBucket
    let sum = 0
    for (const pair of pairs) sum += this.volume[pair]![i]!
    return sum
  }

  /** Sum of `series[pair]` over buckets `from..to` (inclusive, clipped at `firstBucket`) over `pairs`. */
  sum(series: ReadonlyArray<Float64Array>, pairs: ReadonlyArray<number>, from: number, to: number): number {
    const first = this.firstBucket
    let total = 0
    const start = Math.max(0, from - first)
    const end = to - first
    const sealed = this.sealed - first
    // Only a restored store lacks old buy volume and prefix sums; raw volume it has in full.
    const recent = start + first >= this.recentFrom
    if (!recent && series === this.buyVolume) {
      throw new RangeError(`sum of buy volume from bucket ${from}: this store holds it from ${this.recentFrom}`)
    }
    const prefix = !recent
      ? undefined
      : series === this.volume
      ? this.volumePrefix
      : series === this.buyVolume
      ? this.buyPrefix
      : undefined
    if (prefix !== undefined && start <= sealed) {
      const closedEnd = Math.min(end + 1, sealed)
      for (const pair of pairs) {
        const p = prefix[pair]!
        if (closedEnd > start) total += p[closedEnd]! - p[start]!
        const values = series[pair]!
        for (let i = Math.max(start, closedEnd); i <= end; i++) total += values[i]!
      }
      return total
    }
    for (const pair of pairs) {
      const values = series[pair]!
      for (let i = start; i <= end; i++) total += values[i]!
    }
    return total
  }
}
