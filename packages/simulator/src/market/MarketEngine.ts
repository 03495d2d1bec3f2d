/**
 * The simulated market: prices, background trading, candles, 24 h statistics and trending for
 * every token, advanced second by second of market time. Plain synchronous code over typed
 * arrays, deterministic in its seed: the same seed and the same calls give the same numbers, and
 * nothing here reads the wall clock or `Math.random`.
 *
 * The engine composes one module per concern: the price processes (`PriceProcess.ts`), the pools
 * (`PairBook.ts`), the minute bars (`MinuteStore.ts`, which alone updates a bar's high, low and
 * close), the booking of trades (`TradeLedger.ts`), background swap arrivals (`SwapArrivals.ts`),
 * the history before the start (`MarketHistory.ts`), the 24 h figures (`MarketStatistics.ts`),
 * trending (`TrendingRankings.ts`) and exchange rates (`FxRates.ts`). What stays here is time:
 * which bucket is current, and the order in which one second moves prices and then trades.
 *
 * Construction generates the history before `startMs` at one-minute resolution with the same
 * price law and trading rules as live ticking, ending exactly at each token's configured price.
 * Live ticks then step every price each second, book the retail flow and emit discrete background
 * swaps. External events (`setPrice`, `applySwap`) happen inside the current second,
 * `[nowMs, nowMs + 1000)`.
 *
 * A token given a file of candles (`MarketConfig.history`) is replayed (`HistoryReplay.ts`): where
 * the file covers a second, its price is the file's path and its volume the file's; in gaps and
 * after the file it follows its model from the last close. A swap on it pays the pool's impact but
 * does not move its price, and `setPrice` refuses it.
 */
import {
  type Currency,
  type MarketStats,
  type MarketSwap,
  MINUTE_HISTORY_MS,
  type Network,
  networks,
  priceRangeUsd,
  simulatorCatalog,
  type Timeframe,
  timeframeMs,
  type TrendingRanking,
  type UsdCandle
} from "@swapdesk/core"
import { type CandleSeries, seriesRange } from "./CandleFile.ts"
import { buildCandles } from "./Candles.ts"
import { FxRates } from "./FxRates.ts"
import { HistoryReplay } from "./HistoryReplay.ts"
import { HourStore, type HourStoreSnapshot } from "./HourStore.ts"
import { writeHistory } from "./MarketHistory.ts"
import { defaultMarketParams, type TokenMarketParams } from "./MarketParams.ts"
import { MarketStatistics, type MarketTokens, WINDOW_SUMS_MINUTES } from "./MarketStatistics.ts"
import { MINUTE_MS, MinuteStore, type MinuteStoreSnapshot } from "./MinuteStore.ts"
import { PairBook } from "./PairBook.ts"
import { priceAfterSwap, swapToReach } from "./PoolImpact.ts"
import { PEG_BAND, PriceProcesses, type PriceProcessesSnapshot } from "./PriceProcess.ts"
import { SwapArrivals, type SwapArrivalsSnapshot } from "./SwapArrivals.ts"
import { buyShare } from "./TradeFlow.ts"
import { TradeLedger, type TradeLedgerSnapshot } from "./TradeLedger.ts"
import { TrendingRankings, type TrendingRankingsSnapshot } from "./TrendingRankings.ts"

/** How to build a market. */
export interface MarketConfig {
  /** Every random draw derives from it. */
  readonly seed: string | number
  /** When the market starts (a multiple of 1000). History covers at least `historyDays` before it. */
  readonly startMs: number
  /** Days of history before `startMs` (default 30), extended back to a UTC midnight. */
  readonly historyDays?: number
  /** The tokens and their calibration (default `defaultMarketParams`); symbols must be in the registry. */
  readonly tokens?: ReadonlyArray<TokenMarketParams>
  /** Overrides of `defaultFxRates`. */
  readonly fxRates?: Partial<Record<Currency, number>>
  /**
   * Tokens whose price is replayed from real candles, by symbol. `startMs` must fall inside each
   * series' range; a token that tracks another cannot have one (it follows its target's).
   */
  readonly history?: Readonly<Record<string, CandleSeries>>
}

/**
 * What a market snapshot assumes of the config it is restored with: the seed, the start, the
 * start of history, the tokens (in order) with their number of pools, a hash of their calibration
 * and the FX rates, and each replayed file's range. `restore` refuses a config that differs in any
 * of them.
 */
export interface MarketFingerprint {
  readonly seed: string
  readonly startMs: number
  readonly historyStartMs: number
  readonly tokens: ReadonlyArray<string>
  readonly pairs: number
  /** FNV-1a (32 bits, hex) of the tokens' params and the FX overrides as JSON. */
  readonly calibration: string
  /** Replayed tokens in symbol order, with their file's first open, end and candle count. */
  readonly replayed: ReadonlyArray<readonly [symbol: string, fromMs: number, toMs: number, candles: number]>
}

/**
 * Everything of a market that evolved since it was built, as plain data (typed arrays, numbers,
 * strings, arrays and objects), so that `structuredClone` and `v8.serialize` carry it unchanged:
 * the price processes and their random streams, swap arrivals, the minute and hour stores, the
 * holder counters and whale logs, the last trending rankings, where each replayed file is, and the
 * current second and minute. The config (params, candle files, FX rates) is not in it: `restore`
 * takes the same config beside it. Shares no memory with the engine it was taken from.
 */
export interface MarketSnapshot {
  readonly fingerprint: MarketFingerprint
  readonly nowMs: number
  readonly currentBucket: number
  /** Per process: the candle its replay was in at the last tick (−1 for none) and the minute's opening level. */
  readonly replayCandle: Int32Array
  readonly minuteOpenLevel: Float64Array
  /** Per process: its replay's position in its file, or −1 for a process not replayed. */
  readonly replayCursor: Int32Array
  readonly prices: PriceProcessesSnapshot
  readonly arrivals: SwapArrivalsSnapshot
  readonly minutes: MinuteStoreSnapshot
  readonly hours: HourStoreSnapshot
  readonly ledger: TradeLedgerSnapshot
  readonly trending: TrendingRankingsSnapshot
}

const SECOND_MS = 1_000
const DAY_MINUTES = 1_440
const DAY_MS = 86_400_000
/** Room for a week of live minutes before the first doubling. */
const LIVE_CAPACITY_MINUTES = 7 * DAY_MINUTES
/** Minutes always kept: the minute window candles shorter than an hour are served from. */
const WINDOW_MINUTES = MINUTE_HISTORY_MS / MINUTE_MS
/**
 * Whole days of minutes past the window that are rolled up into hours together, once they are all
 * past it: a week, so the arrays shift once a week of market time.
 */
const ROLL_UP_MINUTES = 7 * DAY_MINUTES
const SQRT_STEPS = Float64Array.from({ length: 61 }, (_, k) => Math.sqrt(k))

/** The simulated market of a list of tokens. */
export class MarketEngine {
  private readonly params: ReadonlyArray<TokenMarketParams>
  private readonly tokenIndex: ReadonlyMap<string, number>
  private readonly processes: PriceProcesses
  /** The price process of each token (a tracking token shares its target's). */
  private readonly processOf: Int32Array
  /** How many processes walk on their model (they come first; the rest are pegged, or replayed). */
  private readonly walkingCount: number
  /** The replay of each replayed process. */
  private readonly replays: ReadonlyArray<HistoryReplay | undefined>
  /** The token whose file each replayed process plays, or −1. */
  private readonly replayedToken: Int32Array
  /** The candle each replayed process is in at the last tick, or −1 (in a gap, after the file, not replayed). */
  private readonly replayCandle: Int32Array
  /** Each process's level at the open of the current minute, for the buy share. */
  private readonly minuteOpenLevel: Float64Array
  private readonly store: MinuteStore
  /** The minutes that left the window, by the hour. */
  private readonly hours: HourStore
  private readonly pairs: PairBook
  private readonly ledger: TradeLedger
  private readonly arrivals: SwapArrivals
  private readonly statistics: MarketStatistics
  private readonly trendingRankings: TrendingRankings
  private readonly fx: FxRates
  private readonly startHistoryMs: number
  private readonly fingerprint: MarketFingerprint
  /** The time of the last tick, and the minute bucket that holds it. */
  private now: number
  private currentBucket = -1
  private currentBucketStartMs = 0

  /**
   * Builds the market of `config`: its history up to `startMs`, then the start. Given a `snapshot`
   * of a market of the same config, continues from it instead, without generating anything (what
   * `MarketEngine.restore` does).
   */
  constructor(config: MarketConfig, snapshot?: MarketSnapshot) {
    if (!Number.isInteger(config.startMs) || config.startMs % SECOND_MS !== 0) {
      throw new RangeError(`market startMs must be a whole second, got ${config.startMs}`)
    }
    const historyDays = config.historyDays ?? 30
    if (!(historyDays >= 1)) throw new RangeError(`historyDays must be at least 1, got ${historyDays}`)
    const params = config.tokens ?? defaultMarketParams
    validate(params)
    validateHistory(params, config.history ?? {}, config.startMs)
    this.params = params
    this.tokenIndex = new Map(params.map((p, i) => [p.symbol, i]))
    this.fx = new FxRates(config.fxRates)
    this.now = config.startMs

    // Processes: every token that does not track another, walking ones first so that the market's
    // mean activity is known when history reaches the stablecoins.
    const own = params.map((p, i) => ({ p, i })).filter(({ p }) => p.tracks === undefined)
    const ordered = [...own.filter(({ p }) => p.peg === undefined), ...own.filter(({ p }) => p.peg !== undefined)]
    this.processes = new PriceProcesses(config.seed, ordered.map(({ p }) => p))
    const history = config.history ?? {}
    this.replays = ordered.map(({ p }) => {
      const series = history[p.symbol]
      return series === undefined ? undefined : new HistoryReplay(config.seed, p.symbol, series)
    })
    this.replayedToken = Int32Array.from(ordered, ({ i, p }) => (history[p.symbol] === undefined ? -1 : i))
    this.replayCandle = new Int32Array(ordered.length).fill(-1)
    this.walkingCount = ordered.filter(({ p }) => p.peg === undefined && history[p.symbol] === undefined).length
    const processOfSymbol = new Map(ordered.map(({ p }, k) => [p.symbol, k]))
    const processOf = Int32Array.from(params, (p) => processOfSymbol.get(p.tracks ?? p.symbol)!)
    this.processOf = processOf
    const tokensOfProcess = ordered.map((_, k) => params.flatMap((_, t) => (processOf[t] === k ? [t] : [])))
    this.minuteOpenLevel = new Float64Array(ordered.length)

    this.pairs = new PairBook(params)

    // History: whole UTC days, so that every timeframe's first candle is complete.
    this.startHistoryMs = Math.floor((config.startMs - historyDays * DAY_MS) / DAY_MS) * DAY_MS
    this.fingerprint = {
      seed: String(config.seed),
      startMs: config.startMs,
      historyStartMs: this.startHistoryMs,
      tokens: params.map((p) => p.symbol),
      pairs: this.pairs.count,
      calibration: fnv1a(JSON.stringify([params, config.fxRates ?? null])),
      replayed: Object.keys(history).sort().map((symbol) => {
        const series = history[symbol]!
        const { fromMs, toMs } = seriesRange(series)
        return [symbol, fromMs, toMs, series.openTimeMs.length] as const
      })
    }
    if (snapshot !== undefined) checkFingerprint(this.fingerprint, snapshot.fingerprint)
    const baseMinute = this.startHistoryMs / MINUTE_MS
    const startBucket = Math.floor(config.startMs / MINUTE_MS) - baseMinute
    this.store = new MinuteStore(
      baseMinute,
      ordered.length,
      this.pairs.count,
      // A restored store takes the snapshot's arrays: no room to allocate first.
      snapshot === undefined ? startBucket + LIVE_CAPACITY_MINUTES : 0,
      (process) => this.replays[process] !== undefined
    )
    const processOfPair = new Int32Array(this.pairs.count)
    params.forEach((_, t) => {
      for (const pair of this.pairs.ofToken[t]!) processOfPair[pair] = processOf[t]!
    })
    this.hours = new HourStore(ordered.length, processOfPair)
    this.ledger = new TradeLedger(this.store, this.pairs, params.length)
    this.arrivals = new SwapArrivals(config.seed, params, this.pairs, this.ledger)
    const tokens: MarketTokens = { params, processes: this.processes, processOf, pairs: this.pairs }
    this.statistics = new MarketStatistics(tokens, this.store, this.ledger)
    this.trendingRankings = new TrendingRankings(tokens, this.statistics)

    if (snapshot !== undefined) {
      this.continueFrom(snapshot)
      return
    }
    writeHistory({
      params,
      processes: this.processes,
      tokensOfProcess,
      walkingCount: this.walkingCount,
      replays: this.replays,
      replayedToken: this.replayedToken,
      store: this.store,
      arrivals: this.arrivals
    }, startBucket)
    // Holder figures start from the configured ones at `startMs`.
    this.ledger.resetSinceStart()
    this.enterBucket(startBucket)
    this.replayUntilStart(config.startMs)
    this.recomputeTrending(config.startMs)
  }

  /**
   * The market's state now, as plain data that shares nothing with the engine (see
   * `MarketSnapshot`). Costs a copy of the minute and hour stores; the engine goes on unchanged.
   */
  snapshot(): MarketSnapshot {
    const fingerprint = this.fingerprint
    return {
      fingerprint: {
        ...fingerprint,
        tokens: [...fingerprint.tokens],
        replayed: fingerprint.replayed.map((file) => [...file] as const)
      },
      nowMs: this.now,
      currentBucket: this.currentBucket,
      replayCandle: this.replayCandle.slice(),
      minuteOpenLevel: this.minuteOpenLevel.slice(),
      replayCursor: Int32Array.from(this.replays, (replay) => (replay === undefined ? -1 : replay.snapshot())),
      prices: this.processes.snapshot(),
      arrivals: this.arrivals.snapshot(),
      minutes: this.store.snapshot(this.currentBucket + 1, this.currentBucket - WINDOW_SUMS_MINUTES),
      hours: this.hours.snapshot(),
      ledger: this.ledger.snapshot(),
      trending: this.trendingRankings.snapshot()
    }
  }

  /**
   * The market `snapshot` was taken from, built from the same `config`, in time proportional to
   * the snapshot's size (no history is generated, no second re-run). Driven by the same calls, it
   * answers exactly as the original would have. Throws an `Error` naming the difference when the
   * config is not the one the snapshot was taken with (another seed, start, history length, token
   * list, calibration, FX rates or candle file).
   */
  static restore(config: MarketConfig, snapshot: MarketSnapshot): MarketEngine {
    return new MarketEngine(config, snapshot)
  }

  /** Time of the last tick (initially `startMs`). */
  get nowMs(): number {
    return this.now
  }

  /** Earliest time with history: a UTC midnight at least `historyDays` before the start. */
  get historyStartMs(): number {
    return this.startHistoryMs
  }

  /**
   * Earliest time with one-minute history (a UTC midnight): the minutes before it are kept by the
   * hour. At least `MINUTE_HISTORY_MS` before `nowMs`, at most a week more.
   */
  get minuteHistoryStartMs(): number {
    return this.store.startOf(this.store.firstBucket)
  }

  /**
   * Advances the market to `atMs` (a whole second, not before `nowMs`), stepping every price once
   * per second. Background swaps in `(nowMs, atMs]` are booked in volume and candles and returned
   * in time order (ties in token order).
   */
  tick(atMs: number): ReadonlyArray<MarketSwap> {
    const now = this.now
    if (!Number.isInteger(atMs) || atMs % SECOND_MS !== 0 || atMs < now) {
      throw new RangeError(`tick(${atMs}): must be a whole second not before nowMs ${now}`)
    }
    const swaps: Array<MarketSwap> = []
    this.statistics.invalidate()
    for (let second = now + SECOND_MS; second <= atMs; second += SECOND_MS) this.stepSecond(second, swaps)
    this.now = atMs
    return swaps
  }

  /** Whether the token's price is replayed from a file of candles (its own, or the token's it tracks). */
  isReplayed(symbol: string): boolean {
    return this.replays[this.processOf[this.token(symbol)]!] !== undefined
  }

  /** The token's current USD price (one price on every network). */
  priceUsd(symbol: string): number {
    return this.processes.price[this.processOf[this.token(symbol)]!]!
  }

  /**
   * Moves the token's price to `priceUsd` at `atMs` (inside the current second) as market activity:
   * the swap that moves its primary network's pool there is booked (volume, side, whale figures),
   * the current candle sees the new price, and the walk continues from it. A tracking token moves
   * with its target (setting WETH sets ETH). A stablecoin may be pushed off its peg this way; it
   * then reverts (half-life 30 minutes) and stays in its band once back. A price outside
   * `priceRangeUsd`, or a replayed token (`isReplayed`: its price is the file's), is a defect in
   * the caller.
   */
  setPrice(symbol: string, priceUsd: number, atMs: number): void {
    this.checkEventTime(atMs)
    if (!isQuotablePrice(priceUsd)) throw new RangeError(`setPrice(${symbol}): price ${priceUsd}`)
    const t = this.token(symbol)
    if (this.replays[this.processOf[t]!] !== undefined) {
      throw new RangeError(`setPrice(${symbol}): the price is replayed from a file of candles`)
    }
    this.statistics.invalidate()
    const process = this.processOf[t]!
    const pair = this.pairs.pricing[t]!
    const before = this.processes.price[process]!
    if (pair >= 0 && before !== priceUsd) {
      const swap = swapToReach(before, priceUsd, this.pairs.depth[pair]!)
      this.ledger.book(t, pair, atMs, swap.side === "buy", swap.valueUsd)
    }
    this.movePrice(process, priceUsd)
  }

  /**
   * An external swap (a user's trade, an injected whale) inside the current second: booked in
   * volume, buy/sell split, whale figures and candles, and moving the price by its impact on that
   * network's constant-product pool (`priceAfterSwap`: × (1 + V/D)² for a buy, ÷ for a sell). A
   * stablecoin inside its band stays inside it (mint/redeem arbitrage absorbs the rest). A replayed
   * token's price stays on its path: the swap is booked and pays its impact, but moves nothing. A
   * value of 0 books nothing; a negative one is a defect.
   */
  applySwap(swap: MarketSwap): void {
    this.checkEventTime(swap.at)
    if (!(swap.valueUsd >= 0 && Number.isFinite(swap.valueUsd))) {
      throw new RangeError(`applySwap: value ${swap.valueUsd}`)
    }
    // A dust trade can round to zero dollars: nothing to book, and no reason to fail the trade.
    if (swap.valueUsd === 0) return
    this.statistics.invalidate()
    const t = this.token(swap.symbol)
    const pair = this.pairs.pairOf(t, swap.network)
    if (pair < 0) throw new RangeError(`applySwap: ${swap.symbol} has no pool on ${swap.network}`)
    this.ledger.book(t, pair, swap.at, swap.side === "buy", swap.valueUsd)
    const process = this.processOf[t]!
    if (this.replays[process] !== undefined) return
    let price = priceAfterSwap(this.processes.price[process]!, swap.side, swap.valueUsd, this.pairs.depth[pair]!)
    const peg = this.params[t]!.peg
    if (peg !== undefined && this.processes.insideBand(process)) {
      price = Math.min(peg * (1 + PEG_BAND), Math.max(peg * (1 - PEG_BAND), price))
    }
    // A swap far larger than its pool would carry the price towards zero or overflow; the market
    // stops it at the edge of the quotable range, so every figure derived from it stays finite.
    price = Math.min(priceRangeUsd.max, Math.max(priceRangeUsd.min, price))
    this.movePrice(process, price)
  }

  /** Depth (USD reserve) of the token's pool on the network: a constant of its params, 0 where it does not trade. */
  poolDepthUsd(symbol: string, network: Network): number {
    const pair = this.pairs.pairOf(this.token(symbol), network)
    return pair >= 0 ? this.pairs.depth[pair]! : 0
  }

  /**
   * The token's 24 h picture as of `nowMs`. Volume windows are whole minute buckets: the last 24 h
   * is the current minute and the 1 439 before it. With a network, the volume figures (and whales)
   * are that network's only; price, change, market cap and holders are the token's.
   */
  stats(symbol: string, network?: Network): MarketStats {
    return this.statistics.stats(this.token(symbol), network, this.now, this.currentBucket)
  }

  /**
   * The token's rolling 1 h volume and its average hourly volume over the 24 h before, as `stats`
   * has them, without the rest of `stats`: what a volume alert compares at each whole minute.
   */
  hourlyVolumes(symbol: string): { readonly volume1hUsd: number; readonly averageHourlyVolume24hUsd: number } {
    return this.statistics.hourlyVolumes(this.token(symbol), this.currentBucket)
  }

  /**
   * Candles whose open time lies in `[fromMs, toMs)`, aligned to UTC multiples of the timeframe,
   * oldest first, from the start of history up to the current (partial) period. A period without
   * trades (on the network, when one is given) is flat at the previous close with volume 0.
   */
  candles(
    symbol: string,
    timeframe: Timeframe,
    fromMs: number,
    toMs: number,
    network?: Network
  ): ReadonlyArray<UsdCandle> {
    const t = this.token(symbol)
    return buildCandles(
      this.store,
      this.hours,
      this.processOf[t]!,
      this.pairs.scope(t, network),
      timeframeMs[timeframe],
      fromMs,
      toMs,
      this.currentBucket
    )
  }

  /**
   * Recomputes the trending rankings (all tokens, and each network's) from the market as of
   * `nowMs`, stamped `atMs`. The score is `trendingScore` (the core's `TrendingScore.ts`).
   */
  recomputeTrending(atMs: number): void {
    this.trendingRankings.recompute(atMs, this.now, this.currentBucket)
  }

  /** The last computed ranking, best first: all tokens, or the tokens tradable on `network`. */
  trending(network?: Network): TrendingRanking {
    return this.trendingRankings.ranking(network)
  }

  /** Units of `currency` per US dollar. */
  fxRate(currency: Currency): number {
    return this.fx.rate(currency)
  }

  /** Takes the evolving state of `snapshot` (its fingerprint already checked). */
  private continueFrom(snapshot: MarketSnapshot): void {
    const count = this.processes.count
    if (snapshot.replayCandle.length !== count || snapshot.replayCursor.length !== count) {
      throw new Error(`market snapshot of ${snapshot.replayCandle.length} price processes, the market has ${count}`)
    }
    this.processes.restore(snapshot.prices)
    this.arrivals.restore(snapshot.arrivals)
    this.store.restore(snapshot.minutes)
    this.hours.restore(snapshot.hours)
    this.ledger.restore(snapshot.ledger)
    this.trendingRankings.restore(snapshot.trending)
    this.replays.forEach((replay, process) => replay?.restore(snapshot.replayCursor[process]!))
    this.replayCandle.set(snapshot.replayCandle)
    this.minuteOpenLevel.set(snapshot.minuteOpenLevel)
    this.now = snapshot.nowMs
    this.currentBucket = snapshot.currentBucket
    this.currentBucketStartMs = this.store.startOf(snapshot.currentBucket)
  }

  // -- Live ticking -------------------------------------------------------------------------------

  /**
   * Starts a minute bucket: its open (and so far high, low and close) is the current price, or for a
   * replayed price inside its file, the path's price at the minute's start.
   */
  private enterBucket(bucket: number): void {
    const store = this.store
    store.seal(bucket)
    this.retire(bucket)
    store.ensureCapacity(bucket)
    const processes = this.processes
    const startMs = store.startOf(bucket)
    for (let process = 0; process < processes.count; process++) {
      const replay = this.replays[process]
      const candle = replay === undefined ? -1 : replay.candleAt(startMs)
      store.openBucket(process, bucket, candle >= 0 ? replay!.priceAt(candle, startMs) : processes.price[process]!)
      this.minuteOpenLevel[process] = processes.level[process]!
    }
    this.currentBucket = bucket
    this.currentBucketStartMs = startMs
  }

  /**
   * Keeps the minute window bounded: once a week of whole days lies before the window of `bucket`
   * (the current minute), those days are rolled up into hours and leave the minute store. Market
   * time alone decides when, so a run replays the same.
   */
  private retire(bucket: number): void {
    const store = this.store
    const windowStart = bucket - WINDOW_MINUTES
    if (windowStart - store.firstBucket < ROLL_UP_MINUTES) return
    const until = Math.floor(windowStart / DAY_MINUTES) * DAY_MINUTES
    this.hours.absorb(store, until)
    store.dropBefore(until)
  }

  /**
   * A replayed price at the start: the start minute so far is the path's up to `startMs` (the
   * start need not be on a minute), and the price is the path's at `startMs`; in a gap, the model's
   * from the last close, which the history left it at.
   */
  private replayUntilStart(startMs: number): void {
    for (let process = 0; process < this.processes.count; process++) {
      const replay = this.replays[process]
      if (replay === undefined) continue
      for (let second = this.currentBucketStartMs; second <= startMs; second += SECOND_MS) {
        const candle = replay.candleAt(second)
        if (candle < 0) continue
        const price = replay.priceAt(candle, second)
        this.store.recordPrice(process, this.currentBucket, price)
        if (second === startMs) {
          this.processes.setPrice(process, price)
          this.replayCandle[process] = candle
        }
      }
    }
  }

  /** The second ending at `second`: every price steps, then every token trades. */
  private stepSecond(second: number, swaps: Array<MarketSwap>): void {
    const store = this.store
    const processes = this.processes
    if (second >= this.currentBucketStartMs + MINUTE_MS) this.enterBucket(store.bucketOf(second))
    const bucket = this.currentBucket
    const rootSteps = SQRT_STEPS[(second - this.currentBucketStartMs) / SECOND_MS + 1]!
    let activitySum = 0
    for (let process = 0; process < processes.count; process++) {
      const replay = this.replays[process]
      if (replay !== undefined) {
        const candle = replay.candleAt(second)
        this.replayCandle[process] = candle
        if (candle >= 0) {
          const price = replay.priceAt(candle, second)
          processes.setPrice(process, price)
          store.recordPrice(process, bucket, price)
          continue
        }
      }
      processes.stepSecond(process)
      store.recordPrice(process, bucket, processes.price[process]!)
      if (processes.pegged[process] === 0 && replay === undefined) {
        activitySum += processes.stepScale[process]! / processes.meanStepScale[process]!
      }
    }
    const marketActivity = this.walkingCount > 0 ? activitySum / this.walkingCount : 1
    const firstSwap = swaps.length
    const windowStartMs = second - SECOND_MS
    for (let t = 0; t < this.params.length; t++) {
      const process = this.processOf[t]!
      const scale = processes.stepScale[process]!
      const activity = processes.pegged[process] === 1 ? marketActivity : scale / processes.meanStepScale[process]!
      const share = buyShare((processes.level[process]! - this.minuteOpenLevel[process]!) / (scale * rootSteps))
      const candle = this.replayCandle[process]!
      if (candle >= 0 && this.replayedToken[process] === t) {
        const volumeUsd = this.replays[process]!.volumeUsdPerSecond(candle)
        this.arrivals.tradeReplayed(t, bucket, 1, volumeUsd, share, windowStartMs, "closedRight", swaps)
      } else this.arrivals.trade(t, bucket, 1, activity, share, windowStartMs, "closedRight", swaps)
    }
    // Insertion sort of this second's few swaps by time (stable: ties stay in token order).
    for (let i = firstSwap + 1; i < swaps.length; i++) {
      const swap = swaps[i]!
      let j = i - 1
      while (j >= firstSwap && swaps[j]!.at > swap.at) {
        swaps[j + 1] = swaps[j]!
        j--
      }
      swaps[j + 1] = swap
    }
  }

  /** Moves a process's price now; the current candle sees it. */
  private movePrice(process: number, priceUsd: number): void {
    this.processes.setPrice(process, priceUsd)
    this.store.recordPrice(process, this.currentBucket, priceUsd)
  }

  // -- Queries ------------------------------------------------------------------------------------

  private token(symbol: string): number {
    const t = this.tokenIndex.get(symbol)
    if (t === undefined) throw new RangeError(`the market has no token ${symbol}`)
    return t
  }

  private checkEventTime(atMs: number): void {
    const now = this.now
    if (!(atMs >= now && atMs < now + SECOND_MS)) {
      throw new RangeError(
        `market event at ${atMs} is outside the current second [${now}, ${now + SECOND_MS}): tick first`
      )
    }
  }
}

const isQuotablePrice = (priceUsd: number): boolean => priceUsd >= priceRangeUsd.min && priceUsd <= priceRangeUsd.max

/** FNV-1a of a string's UTF-16 code units, as 8 hex digits: enough to tell two calibrations apart. */
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, "0")
}

/** A snapshot assumes `want` of the config, which has `have`. */
const refuseSnapshot = (what: string, have: unknown, want: unknown): never => {
  throw new Error(
    `the market snapshot is of another config: its ${what} is ${JSON.stringify(want)}, the config's ${
      JSON.stringify(have)
    }`
  )
}

/** Throws naming the first thing a snapshot assumes of its config that `actual` does not have. */
const checkFingerprint = (actual: MarketFingerprint, assumed: MarketFingerprint): void => {
  if (actual.seed !== assumed.seed) refuseSnapshot("seed", actual.seed, assumed.seed)
  if (actual.startMs !== assumed.startMs) refuseSnapshot("start", actual.startMs, assumed.startMs)
  if (actual.historyStartMs !== assumed.historyStartMs) {
    refuseSnapshot("start of history", actual.historyStartMs, assumed.historyStartMs)
  }
  if (actual.tokens.join(",") !== assumed.tokens.join(",")) refuseSnapshot("token list", actual.tokens, assumed.tokens)
  if (actual.pairs !== assumed.pairs) refuseSnapshot("number of pools", actual.pairs, assumed.pairs)
  if (actual.calibration !== assumed.calibration) {
    refuseSnapshot("hash of the token params and FX rates", actual.calibration, assumed.calibration)
  }
  if (JSON.stringify(actual.replayed) !== JSON.stringify(assumed.replayed)) {
    refuseSnapshot("replayed files [symbol, from, to, candles]", actual.replayed, assumed.replayed)
  }
}

/** Rejects history the engine cannot replay (the scenario's decoding refuses it first, naming the file). */
const validateHistory = (
  params: ReadonlyArray<TokenMarketParams>,
  history: Readonly<Record<string, CandleSeries>>,
  startMs: number
): void => {
  for (const [symbol, series] of Object.entries(history)) {
    const p = params.find((q) => q.symbol === symbol)
    if (p === undefined) throw new RangeError(`history for ${symbol}, which the market does not have`)
    if (p.tracks !== undefined) throw new RangeError(`history for ${symbol}, which tracks ${p.tracks}`)
    const { fromMs, toMs } = seriesRange(series)
    if (!(startMs >= fromMs && startMs < toMs)) {
      throw new RangeError(`history for ${symbol} covers [${fromMs}, ${toMs}), not the start ${startMs}`)
    }
  }
}

/** Rejects a calibration the engine cannot honour (a defect in the caller's data). */
const validate = (params: ReadonlyArray<TokenMarketParams>): void => {
  const symbols = new Set<string>()
  for (const p of params) {
    if (symbols.has(p.symbol)) throw new RangeError(`market params list ${p.symbol} twice`)
    symbols.add(p.symbol)
    const registry = simulatorCatalog.tokenOf(p.symbol)
    if (!isQuotablePrice(p.priceUsd)) throw new RangeError(`${p.symbol}: priceUsd ${p.priceUsd} is out of range`)
    if (!(p.annualVolatility > 0)) throw new RangeError(`${p.symbol}: annualVolatility must be positive`)
    for (const network of networks) {
      if ((p.liquidityUsd[network] ?? 0) > 0 && !simulatorCatalog.isTradableOn(registry, network)) {
        throw new RangeError(`${p.symbol}: liquidity on ${network}, where the registry has no address`)
      }
    }
  }
  for (const p of params) {
    if (p.tracks === undefined) continue
    const target = params.find((q) => q.symbol === p.tracks)
    if (target === undefined || target.tracks !== undefined) {
      throw new RangeError(`${p.symbol} tracks ${p.tracks}, which is not a token with its own price`)
    }
  }
}
