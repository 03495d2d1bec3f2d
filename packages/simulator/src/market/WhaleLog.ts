/**
 * Every whale swap (≥ $100k) of one token, in a compact append-only log: whales are rare (a few a
 * day for a small token, a few thousand for SOL), so a list answers the 24 h figures exactly to the
 * millisecond where per-minute arrays would mostly hold zeros.
 */

/** Whale count and net flow (buys minus sells) in a window. */
export interface WhaleSummary {
  transactions: number
  netFlowUsd: number
}

export class WhaleLog {
  private times = new Float64Array(64)
  /** Positive for a buy, negative for a sell. */
  private signedValues = new Float64Array(64)
  private networks = new Uint8Array(64)
  private size = 0
  /** Entries arrive in time order up to this much disorder (a second's swaps are appended token by token). */
  private static readonly DISORDER_MS = 60_000

  add(atMs: number, networkIndex: number, signedValueUsd: number): void {
    if (this.size === this.times.length) {
      const capacity = this.size * 2
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
    this.times[this.size] = atMs
    this.signedValues[this.size] = signedValueUsd
    this.networks[this.size] = networkIndex
    this.size++
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
