/**
 * A token's price replayed from a file of real candles (docs/simulator.md, "Replaying history").
 *
 * Inside each candle the price follows a path at the market's tick resolution (one point per
 * second of the candle): it starts at `open` on the candle's open time, reaches `high` and `low`
 * at two seconds drawn from the seed (a rising candle more often dips first, a falling one more
 * often spikes first), and ends at `close` on the candle's last second. Between those four anchors
 * it wanders as a Brownian bridge in log price, scaled to the candle's range and clamped into
 * `[low, high]`. So a one-minute candle of the market is exactly the file's candle, coarser ones
 * aggregate them, and the path never leaves the candle's bounds.
 *
 * Each candle's path draws from its own stream (`market/history/<SYMBOL>/<openTimeMs>`), so a
 * candle's path is the same whatever the scenario's start, its history days or the gaps around it.
 * Volume follows the file: a candle's volume × its close, in USD, spread evenly over its seconds.
 */
import { Prng } from "../Prng.ts"
import type { CandleSeries } from "./CandleFile.ts"

const SECOND_MS = 1_000
const MINUTE_MS = 60_000
/** How often a candle that closes up visits its low before its high (and a falling one the reverse). */
const DIP_FIRST_WHEN_RISING = 0.7

/** The named PRNG stream a candle's path draws from. */
export const candleStreamName = (symbol: string, openTimeMs: number): string => `market/history/${symbol}/${openTimeMs}`

/** The replay of one token's candle file. */
export class HistoryReplay {
  readonly series: CandleSeries
  /** Seconds per candle: the length of a path. */
  readonly secondsPerCandle: number
  private readonly seed: string | number
  private readonly symbol: string
  /** The candle whose path `path` holds (−1: none yet). */
  private pathCandle = -1
  private readonly path: Float64Array
  /** The candle the last lookup found, where the next one usually is. */
  private cursor = 0

  constructor(seed: string | number, symbol: string, series: CandleSeries) {
    this.seed = seed
    this.symbol = symbol
    this.series = series
    this.secondsPerCandle = series.resolutionMs / SECOND_MS
    this.path = new Float64Array(this.secondsPerCandle)
  }

  /**
   * Where the replay is in its file: the candle the last lookup found. The path through a candle is
   * not part of it: it is a function of the seed and the candle, drawn again when next needed.
   */
  snapshot(): number {
    return this.cursor
  }

  /** Continues from a `snapshot` of the replay of the same file. */
  restore(cursor: number): void {
    if (!(Number.isInteger(cursor) && cursor >= 0 && cursor < this.series.openTimeMs.length)) {
      throw new Error(`replay snapshot of ${this.symbol}: candle ${cursor} is not in its file`)
    }
    this.cursor = cursor
  }

  /** The first time the file covers. */
  get fromMs(): number {
    return this.series.openTimeMs[0]!
  }

  /** The end of the file's last candle. */
  get toMs(): number {
    const times = this.series.openTimeMs
    return times[times.length - 1]! + this.series.resolutionMs
  }

  /** The candle covering `timeMs`, or −1 in a gap, before the file or after it. */
  candleAt(timeMs: number): number {
    const times = this.series.openTimeMs
    const resolution = this.series.resolutionMs
    const n = times.length
    if (timeMs < times[0]!) return -1
    let i = this.cursor
    if (times[i]! > timeMs) i = this.search(timeMs)
    else if (i + 1 < n && times[i + 1]! <= timeMs) {
      // Time moves forward a candle at a time: the next candle answers almost always.
      i++
      if (i + 1 < n && times[i + 1]! <= timeMs) i = this.search(timeMs)
    }
    this.cursor = i
    return timeMs < times[i]! + resolution ? i : -1
  }

  /** The price of the path at `timeMs` (a whole second inside candle `candle`). */
  priceAt(candle: number, timeMs: number): number {
    if (candle !== this.pathCandle) this.drawPath(candle)
    return this.path[(timeMs - this.series.openTimeMs[candle]!) / SECOND_MS]!
  }

  /** USD volume per second of candle `candle`: its volume × close, spread over its seconds. */
  volumeUsdPerSecond(candle: number): number {
    return this.series.volume[candle]! * this.series.close[candle]! / this.secondsPerCandle
  }

  /**
   * The one-minute bar of the path that starts at `minuteStartMs` inside candle `candle`, in
   * `into` as [open, high, low, close]. A one-minute candle is its own bar, with no path drawn.
   */
  minuteBar(candle: number, minuteStartMs: number, into: Float64Array): void {
    const s = this.series
    if (s.resolutionMs === MINUTE_MS) {
      into[0] = s.open[candle]!
      into[1] = s.high[candle]!
      into[2] = s.low[candle]!
      into[3] = s.close[candle]!
      return
    }
    if (candle !== this.pathCandle) this.drawPath(candle)
    const first = (minuteStartMs - s.openTimeMs[candle]!) / SECOND_MS
    let high = this.path[first]!
    let low = high
    for (let k = first + 1; k < first + 60; k++) {
      const price = this.path[k]!
      if (price > high) high = price
      if (price < low) low = price
    }
    into[0] = this.path[first]!
    into[1] = high
    into[2] = low
    into[3] = this.path[first + 59]!
  }

  private search(timeMs: number): number {
    const times = this.series.openTimeMs
    let lo = 0
    let hi = times.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1
      if (times[mid]! <= timeMs) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Draws candle `candle`'s path into `path`. */
  private drawPath(candle: number): void {
    const s = this.series
    const open = s.open[candle]!
    const high = s.high[candle]!
    const low = s.low[candle]!
    const close = s.close[candle]!
    const n = this.secondsPerCandle
    const path = this.path
    this.pathCandle = candle
    if (high === low) {
      path.fill(open)
      return
    }
    const prng = Prng.stream(this.seed, candleStreamName(this.symbol, s.openTimeMs[candle]!))
    const rising = close >= open
    const dipFirst = prng.next() < (rising ? DIP_FIRST_WHEN_RISING : 1 - DIP_FIRST_WHEN_RISING)
    // Two distinct seconds strictly inside the candle, uniformly.
    const p = 1 + Math.floor(prng.next() * (n - 2))
    let q = 1 + Math.floor(prng.next() * (n - 3))
    if (q >= p) q++
    const first = Math.min(p, q)
    const second = Math.max(p, q)
    const anchors = [0, first, second, n - 1]
    const values = [open, dipFirst ? low : high, dipFirst ? high : low, close]
    // Per-second scale: the candle's log range spread over its seconds, as a random walk would.
    const sigma = Math.log(high / low) / Math.sqrt(n)
    for (let k = 0; k < 3; k++) {
      const from = anchors[k]!
      const to = anchors[k + 1]!
      const fromLog = Math.log(values[k]!)
      const toLog = Math.log(values[k + 1]!)
      const steps = to - from
      // A Brownian bridge: a walk from 0, less the straight line to its end, on the straight line between the anchors.
      let walk = 0
      for (let j = 1; j < steps; j++) {
        walk += prng.normal()
        path[from + j] = walk
      }
      const end = walk + prng.normal()
      for (let j = 1; j < steps; j++) {
        const bridge = path[from + j]! - end * j / steps
        const price = Math.exp(fromLog + (toLog - fromLog) * j / steps + sigma * bridge)
        path[from + j] = price > high ? high : price < low ? low : price
      }
      path[from] = values[k]!
    }
    path[n - 1] = close
  }
}
