/**
 * The recent whale swaps (≥ $100k) of one token, in a compact append-only log: whales are rare (a
 * few a day for a small token, a few thousand for SOL), so a list answers the 24 h figures exactly
 * to the millisecond where per-minute arrays would mostly hold zeros. Only the 24 h figures read it,
 * so when it is full the entries older than `KEEP_MS` leave before it grows: a long run holds
 * about two days of whales (docs/simulator.md#retention).
 */

/** Whale count and net flow (buys minus sells) in a window. */
export interface WhaleSummary {
  transactions: number
  netFlowUsd: number
}

/** The entries held, oldest first, and the capacity (which decides when old entries are forgotten). */
export interface WhaleLogSnapshot {
  readonly capacity: number
  readonly times: Float64Array
  readonly signedValues: Float64Array
  readonly networks: Uint8Array
}

export class WhaleLog {
  private times = new Float64Array(64)
  /** Positive for a buy, negative for a sell. */
  private signedValues = new Float64Array(64)
  private networks = new Uint8Array(64)
  private size = 0
  /** Entries arrive in time order up to this much disorder (a second's swaps are appended token by token). */
  private static readonly DISORDER_MS = 60_000

  /** How far back entries are kept once the log is full: the 24 h window, with room. */
  private static readonly KEEP_MS = 2 * 86_400_000

  /** How many entries are held. */
  get length(): number {
    return this.size
  }

  /** A copy of the entries held. */
  snapshot(): WhaleLogSnapshot {
    return {
      capacity: this.times.length,
      times: this.times.slice(0, this.size),
      signedValues: this.signedValues.slice(0, this.size),
      networks: this.networks.slice(0, this.size)
    }
  }

  /** Holds exactly the entries of `snapshot`, in new arrays of its capacity. */
  restore(snapshot: WhaleLogSnapshot): void {
    const size = snapshot.times.length
    this.times = new Float64Array(snapshot.capacity)
    this.times.set(snapshot.times)
    this.signedValues = new Float64Array(snapshot.capacity)
    this.signedValues.set(snapshot.signedValues)
    this.networks = new Uint8Array(snapshot.capacity)
    this.networks.set(snapshot.networks)
    this.size = size
  }

  add(atMs: number, networkIndex: number, signedValueUsd: number): void {
    // Full: forget what no window reads any more, and grow only if that freed less than a quarter.
    if (this.size === this.times.length) {
      this.forgetBefore(atMs - WhaleLog.KEEP_MS)
      if (this.size > this.times.length * 0.75) this.grow()
    }
    this.times[this.size] = atMs
    this.signedValues[this.size] = signedValueUsd
    this.networks[this.size] = networkIndex
    this.size++
  }

  private grow(): void {
    const capacity = this.times.length * 2
    const times = new Float64Array(capacity)
    times.set(this.times)
    this.times = times
    const values = new Float64Array(capacity)
    values.set(this.signedValues)
    this.signedValues = values
    const networks = new Uint8Array(capacity)
    networks.set(this.networks)
    this.networks = networks
  }

  /** Drops the entries at or before `cutoffMs` (they are in time order, give or take `DISORDER_MS`). */
  private forgetBefore(cutoffMs: number): void {
    let drop = 0
    while (drop < this.size && this.times[drop]! <= cutoffMs - WhaleLog.DISORDER_MS) drop++
    if (drop === 0) return
    this.times.copyWithin(0, drop, this.size)
    this.signedValues.copyWithin(0, drop, this.size)
    this.networks.copyWithin(0, drop, this.size)
    this.size -= drop
  }

  /** Whales with time in (`fromMs`, `toMs`], on one network (its index) or all (−1). */
  summarise(fromMs: number, toMs: number, networkIndex: number, into: WhaleSummary): WhaleSummary {
    into.transactions = 0
    into.netFlowUsd = 0
    for (let i = this.size - 1; i >= 0; i--) {
      const at = this.times[i]!
      if (at <= fromMs - WhaleLog.DISORDER_MS) break
      if (at <= fromMs || at > toMs) continue
      if (networkIndex >= 0 && this.networks[i] !== networkIndex) continue
      into.transactions++
      into.netFlowUsd += this.signedValues[i]!
    }
    return into
  }
}
