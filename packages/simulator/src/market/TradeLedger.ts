/**
 * Where the market's trading is written down: every swap and every second's aggregate retail flow
 * goes into its minute's volume (per pair, with the buying part), into the counters the holder
 * figures drift with (`Holders.ts`), and, from `WHALE_THRESHOLD_USD`, into the token's whale log.
 */
import type { MinuteStore } from "./MinuteStore.ts"
import type { PairBook } from "./PairBook.ts"
import { WHALE_THRESHOLD_USD } from "./TradeFlow.ts"
import { WhaleLog, type WhaleLogSnapshot } from "./WhaleLog.ts"

/** The holder counters and whale logs of every token. */
export interface TradeLedgerSnapshot {
  readonly volumeSinceStart: Float64Array
  readonly netBuySinceStart: Float64Array
  readonly whaleNetSinceStart: Float64Array
  readonly whales: ReadonlyArray<WhaleLogSnapshot>
}

/** The trading of every token, booked into the minute store and the holder and whale figures. */
export class TradeLedger {
  /** Trading since the market's start, per token, for the holder figures. */
  readonly volumeSinceStart: Float64Array
  readonly netBuySinceStart: Float64Array
  readonly whaleNetSinceStart: Float64Array
  /** Every whale swap of each token. */
  readonly whales: ReadonlyArray<WhaleLog>
  private readonly store: MinuteStore
  private readonly pairsOfToken: ReadonlyArray<ReadonlyArray<number>>
  private readonly pairShare: Float64Array
  private readonly pairNetwork: Uint8Array

  constructor(store: MinuteStore, pairs: PairBook, tokenCount: number) {
    this.store = store
    this.pairsOfToken = pairs.ofToken
    this.pairShare = pairs.share
    this.pairNetwork = pairs.network
    this.volumeSinceStart = new Float64Array(tokenCount)
    this.netBuySinceStart = new Float64Array(tokenCount)
    this.whaleNetSinceStart = new Float64Array(tokenCount)
    this.whales = Array.from({ length: tokenCount }, () => new WhaleLog())
  }

  /**
   * A copy of what the ledger holds beside the minute store (whose volumes are the store's to
   * snapshot).
   */
  snapshot(): TradeLedgerSnapshot {
    return {
      volumeSinceStart: this.volumeSinceStart.slice(),
      netBuySinceStart: this.netBuySinceStart.slice(),
      whaleNetSinceStart: this.whaleNetSinceStart.slice(),
      whales: this.whales.map((log) => log.snapshot())
    }
  }

  /** Continues from `snapshot`, taken from a ledger of the same tokens. */
  restore(snapshot: TradeLedgerSnapshot): void {
    if (snapshot.whales.length !== this.whales.length) {
      throw new Error(`ledger snapshot of ${snapshot.whales.length} tokens, the market has ${this.whales.length}`)
    }
    this.volumeSinceStart.set(snapshot.volumeSinceStart)
    this.netBuySinceStart.set(snapshot.netBuySinceStart)
    this.whaleNetSinceStart.set(snapshot.whaleNetSinceStart)
    this.whales.forEach((log, t) => log.restore(snapshot.whales[t]!))
  }

  /** Books aggregate retail flow of token `t` in a bucket, split over its networks by liquidity. */
  bookFlow(t: number, bucket: number, valueUsd: number, share: number): void {
    if (valueUsd === 0) return
    const store = this.store
    const pairShare = this.pairShare
    const i = store.indexOf(bucket)
    for (const pair of this.pairsOfToken[t]!) {
      const value = valueUsd * pairShare[pair]!
      store.volume[pair]![i] = store.volume[pair]![i]! + value
      store.buyVolume[pair]![i] = store.buyVolume[pair]![i]! + value * share
    }
    this.volumeSinceStart[t] = this.volumeSinceStart[t]! + valueUsd
    this.netBuySinceStart[t] = this.netBuySinceStart[t]! + valueUsd * (2 * share - 1)
  }

  /** Books one swap in its minute's volume, the holder counters and (if large) the whale log. */
  book(t: number, pair: number, at: number, buy: boolean, valueUsd: number): void {
    const store = this.store
    const i = store.indexOf(store.bucketOf(at))
    store.volume[pair]![i] = store.volume[pair]![i]! + valueUsd
    if (buy) store.buyVolume[pair]![i] = store.buyVolume[pair]![i]! + valueUsd
    const signed = buy ? valueUsd : -valueUsd
    this.volumeSinceStart[t] = this.volumeSinceStart[t]! + valueUsd
    this.netBuySinceStart[t] = this.netBuySinceStart[t]! + signed
    if (valueUsd >= WHALE_THRESHOLD_USD) this.bookWhale(t, pair, at, signed)
  }

  /**
   * A swap of `signedValueUsd` (negative for a sell) in the whale figures, if it is a whale's. Alone,
   * for a swap whose volume is already booked: a replayed token's background swaps are samples of
   * the file's volume, which its flow books.
   */
  bookWhale(t: number, pair: number, at: number, signedValueUsd: number): void {
    if (Math.abs(signedValueUsd) >= WHALE_THRESHOLD_USD) {
      this.whales[t]!.add(at, this.pairNetwork[pair]!, signedValueUsd)
      this.whaleNetSinceStart[t] = this.whaleNetSinceStart[t]! + signedValueUsd
    }
  }

  /** Forgets the trading so far in the holder counters: the holder figures start from the configured ones. */
  resetSinceStart(): void {
    this.volumeSinceStart.fill(0)
    this.netBuySinceStart.fill(0)
    this.whaleNetSinceStart.fill(0)
  }
}
