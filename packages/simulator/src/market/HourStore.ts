/**
 * The market's older memory: the minutes that left the minute window (`MinuteStore.dropBefore`),
 * rolled up into hours (docs/simulator.md#retention). Hour `h` covers buckets `60h .. 60h + 59`
 * from the start of history (which is a UTC midnight, so hours are UTC hours).
 *
 * What is kept is exactly what a candle of an hour or more needs, so such a candle reads the same
 * before and after its minutes are rolled up:
 *
 * - per price process: the hour's open (first minute's open), high, low and close over all its
 *   minutes, for prices replayed from a file (every one of their minutes counts as traded);
 * - per pair: the hour's volume, and over the minutes in which the pair traded, their highest high,
 *   lowest low, the last one's close and its minute within the hour (−1 when the pair did not trade
 *   in the hour). A scope of several pairs trades in a minute when any of its pairs does, so its
 *   figures are the max of the pairs' highs, the min of their lows and the close of the pair whose
 *   last traded minute is latest.
 *
 * Buy volume is not kept: only the last 25 hours' is ever read, and those are always minutes.
 */
import { MINUTE_MS, type MinuteStore } from "./MinuteStore.ts"

export const HOUR_MINUTES = 60
export const HOUR_MS = HOUR_MINUTES * MINUTE_MS

const arrays = (count: number): Array<Float64Array> => Array.from({ length: count }, () => new Float64Array(0))

/** Grows `values` to `capacity` (a new array holding the old values). */
const grown = (values: Float64Array, capacity: number): Float64Array => {
  const next = new Float64Array(capacity)
  next.set(values)
  return next
}

/** Every series an hour store keeps, per process (the `process…` ones) or per pair. */
const SERIES = [
  "processOpen",
  "processHigh",
  "processLow",
  "processClose",
  "volume",
  "high",
  "low",
  "close",
  "lastTraded"
] as const

type HourSeries = (typeof SERIES)[number]

/** The hours held (every array cut to `count`), and the capacity the arrays had. */
export interface HourStoreSnapshot extends Readonly<Record<HourSeries, ReadonlyArray<Float64Array>>> {
  readonly count: number
  readonly capacity: number
}

export class HourStore {
  /** How many hours are held: hours [0, count). */
  count = 0
  readonly processOpen: Array<Float64Array>
  readonly processHigh: Array<Float64Array>
  readonly processLow: Array<Float64Array>
  readonly processClose: Array<Float64Array>
  readonly volume: Array<Float64Array>
  readonly high: Array<Float64Array>
  readonly low: Array<Float64Array>
  readonly close: Array<Float64Array>
  /** Minute within the hour of the pair's last traded minute, −1 for none. */
  readonly lastTraded: Array<Float64Array>
  private capacity = 0
  /** The price process of each pair. */
  private readonly processOfPair: Int32Array

  constructor(processCount: number, processOfPair: Int32Array) {
    this.processOfPair = processOfPair
    this.processOpen = arrays(processCount)
    this.processHigh = arrays(processCount)
    this.processLow = arrays(processCount)
    this.processClose = arrays(processCount)
    const pairCount = processOfPair.length
    this.volume = arrays(pairCount)
    this.high = arrays(pairCount)
    this.low = arrays(pairCount)
    this.close = arrays(pairCount)
    this.lastTraded = arrays(pairCount)
  }

  /** A copy of the hours held. */
  snapshot(): HourStoreSnapshot {
    const cut = (values: Float64Array): Float64Array => values.slice(0, this.count)
    const series = {} as Record<HourSeries, ReadonlyArray<Float64Array>>
    for (const name of SERIES) series[name] = this[name].map(cut)
    return { count: this.count, capacity: this.capacity, ...series }
  }

  /** Takes the hours of `snapshot`, from a store of the same processes and pairs, in new arrays. */
  restore(snapshot: HourStoreSnapshot): void {
    if (snapshot.processOpen.length !== this.processOpen.length || snapshot.volume.length !== this.volume.length) {
      throw new Error("hour snapshot of other processes or pairs than the market's")
    }
    for (const series of SERIES) {
      const list = this[series]
      for (let i = 0; i < list.length; i++) list[i] = grown(snapshot[series][i]!, snapshot.capacity)
    }
    this.count = snapshot.count
    this.capacity = snapshot.capacity
  }

  /** The hour holding bucket `bucket`. */
  static hourOf(bucket: number): number {
    return Math.floor(bucket / HOUR_MINUTES)
  }

  /**
   * Rolls up the whole hours of `store` from hour `count` up to (not including) the one holding
   * bucket `untilBucket` (a multiple of 60): afterwards the store may drop those minutes.
   */
  absorb(store: MinuteStore, untilBucket: number): void {
    const until = untilBucket / HOUR_MINUTES
    if (!Number.isInteger(until)) throw new RangeError(`absorb(${untilBucket}): not a whole hour`)
    if (until <= this.count) return
    if (until > this.capacity) this.grow(Math.max(until, this.capacity * 2, 24 * 31))
    for (let h = this.count; h < until; h++) {
      const from = store.indexOf(h * HOUR_MINUTES)
      if (from < 0) throw new RangeError(`absorb: hour ${h} has already left the minute store`)
      const to = from + HOUR_MINUTES
      for (let process = 0; process < this.processOpen.length; process++) {
        const highs = store.high[process]!, lows = store.low[process]!
        let high = highs[from]!, low = lows[from]!
        for (let i = from + 1; i < to; i++) {
          if (highs[i]! > high) high = highs[i]!
          if (lows[i]! < low) low = lows[i]!
        }
        const opens = store.open[process]
        this.processOpen[process]![h] = opens === undefined ? Number.NaN : opens[from]!
        this.processHigh[process]![h] = high
        this.processLow[process]![h] = low
        this.processClose[process]![h] = store.close[process]![to - 1]!
      }
      for (let pair = 0; pair < this.volume.length; pair++) {
        const process = this.processOfPair[pair]!
        const volumes = store.volume[pair]!
        const highs = store.high[process]!, lows = store.low[process]!, closes = store.close[process]!
        let volume = 0, high = Number.NEGATIVE_INFINITY, low = Number.POSITIVE_INFINITY, close = 0, last = -1
        for (let i = from; i < to; i++) {
          const v = volumes[i]!
          if (!(v > 0)) continue
          volume += v
          if (highs[i]! > high) high = highs[i]!
          if (lows[i]! < low) low = lows[i]!
          close = closes[i]!
          last = i - from
        }
        this.volume[pair]![h] = volume
        this.high[pair]![h] = high
        this.low[pair]![h] = low
        this.close[pair]![h] = close
        this.lastTraded[pair]![h] = last
      }
    }
    this.count = until
  }

  private grow(capacity: number): void {
    for (const series of SERIES) {
      const list = this[series]
      for (let i = 0; i < list.length; i++) list[i] = grown(list[i]!, capacity)
    }
    this.capacity = capacity
  }
}
