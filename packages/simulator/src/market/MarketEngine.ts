/**
 * The simulated market: prices, background trading, candles, 24 h statistics and trending for
 * every token, advanced second by second of market time. Plain synchronous code over typed
 * arrays, deterministic in its seed: the same seed and the same calls give the same numbers, and
 * nothing here reads the wall clock or `Math.random`.
 *
 * Construction generates the history before `startMs` at one-minute resolution with the same
 * price law and trading rules as live ticking (see `PriceProcess.ts`, `TradeFlow.ts`), ending
 * exactly at each token's configured price. Live ticks then step every price each second, book
 * the retail flow and emit discrete background swaps. External events (`setPrice`, `applySwap`)
 * happen inside the current second, `[nowMs, nowMs + 1000)`.
 */
import {
  type Currency,
  isTradableOn,
  type MarketStats,
  type MarketSwap,
  MoneyDecimal,
  type Network,
  networks,
  priceRangeUsd,
  type Timeframe,
  timeframeMs,
  tokenOf,
  type TrendingEntry,
  type TrendingRanking,
  type UsdCandle
} from "@swapdesk/core"
import { Prng } from "../Prng.ts"
import { buildCandles } from "./Candles.ts"
import { holdersCount, top10Percent } from "./Holders.ts"
import { defaultFxRates, defaultMarketParams, type TokenMarketParams } from "./MarketParams.ts"
import { MINUTE_MS, MinuteStore } from "./MinuteStore.ts"
import { priceAfterSwap, swapToReach } from "./PoolImpact.ts"
import { PEG_BAND, PriceProcesses } from "./PriceProcess.ts"
import { buyShare, flowPlan, SWAP_SIZE_LOG_STD, swapStreamName, WHALE_THRESHOLD_USD } from "./TradeFlow.ts"
import { trendingScore } from "./Trending.ts"
import { WhaleLog, type WhaleSummary } from "./WhaleLog.ts"

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
}

const SECOND_MS = 1_000
const HOUR_MINUTES = 60
const DAY_MINUTES = 1_440
const DAY_MS = 86_400_000
/** Room for a week of live minutes before the first doubling. */
const LIVE_CAPACITY_MINUTES = 7 * DAY_MINUTES
const SQRT_STEPS = Float64Array.from({ length: 61 }, (_, k) => Math.sqrt(k))

/** Rolling-window sums of one scope (a pair or a token's pairs). */
interface WindowSums {
  volume24h: number
  buy24h: number
  volume1h: number
  buy1h: number
  /** Average hourly volume over the 24 h before the last hour. */
  averageHourly: number
}

const emptySums = (): WindowSums => ({ volume24h: 0, buy24h: 0, volume1h: 0, buy1h: 0, averageHourly: 0 })

/** The simulated market of a list of tokens. */
export class MarketEngine {
  private readonly params: ReadonlyArray<TokenMarketParams>
  private readonly tokenIndex: ReadonlyMap<string, number>
  private readonly processes: PriceProcesses
  /** The price process of each token (a tracking token shares its target's). */
  private readonly processOf: Int32Array
  /** Token indices that use each process. */
  private readonly tokensOfProcess: ReadonlyArray<ReadonlyArray<number>>
  private readonly store: MinuteStore
  private readonly fx: Record<Currency, number>

  // Pairs: one per (token, network with liquidity), contiguous per token.
  private readonly pairsOfToken: ReadonlyArray<ReadonlyArray<number>>
  /** Pair of token t on network n at `t * networks.length + n`, or −1. */
  private readonly pairAt: Int32Array
  private readonly pairNetwork: Uint8Array
  private readonly pairShare: Float64Array
  private readonly pairDepth: Float64Array
  /** The pair a `setPrice` trades on: the primary network's, else the deepest. */
  private readonly pricingPair: Int32Array

  // Background trading, per token.
  private readonly flowUsdPerSecond: Float64Array
  private readonly swapsPerSecond: Float64Array
  private readonly swapSizeLogMean: Float64Array
  private readonly swapPrngs: ReadonlyArray<Prng>
  /** Integrated swap intensity, and the level at which the next discrete swap happens. */
  private readonly swapClock: Float64Array
  private readonly nextSwapAt: Float64Array
  private readonly whales: ReadonlyArray<WhaleLog>
  /** Trading since `startMs`, for the holder figures. */
  private readonly volumeSinceStart: Float64Array
  private readonly netBuySinceStart: Float64Array
  private readonly whaleNetSinceStart: Float64Array

  private readonly minuteOpenLevel: Float64Array
  private readonly walkingCount: number
  private currentBucket = -1
  private currentBucketStartMs = 0
  private now: number
  private readonly startHistoryMs: number
  private rankings = new Map<Network | "all", TrendingRanking>()
  private readonly whaleScratch: WhaleSummary = { transactions: 0, netFlowUsd: 0 }
  /** `stats` answers since the market last changed (a tick, a price set, a swap), by scope. */
  private readonly statsCache = new Map<string, MarketStats>()

  constructor(config: MarketConfig) {
    if (!Number.isInteger(config.startMs) || config.startMs % SECOND_MS !== 0) {
      throw new RangeError(`market startMs must be a whole second, got ${config.startMs}`)
    }
    const historyDays = config.historyDays ?? 30
    if (!(historyDays >= 1)) throw new RangeError(`historyDays must be at least 1, got ${historyDays}`)
    const params = config.tokens ?? defaultMarketParams
    validate(params)
    this.params = params
    this.tokenIndex = new Map(params.map((p, i) => [p.symbol, i]))
    this.fx = { ...defaultFxRates, ...config.fxRates }
    this.now = config.startMs

    // Processes: every token that does not track another, walking ones first so that the market's
    // mean activity is known when history reaches the stablecoins.
    const own = params.map((p, i) => ({ p, i })).filter(({ p }) => p.tracks === undefined)
    const ordered = [...own.filter(({ p }) => p.peg === undefined), ...own.filter(({ p }) => p.peg !== undefined)]
    this.processes = new PriceProcesses(config.seed, ordered.map(({ p }) => p))
    this.walkingCount = ordered.filter(({ p }) => p.peg === undefined).length
    const processOfSymbol = new Map(ordered.map(({ p }, k) => [p.symbol, k]))
    this.processOf = Int32Array.from(params, (p) => processOfSymbol.get(p.tracks ?? p.symbol)!)
    this.tokensOfProcess = ordered.map((_, k) => params.flatMap((_, t) => (this.processOf[t] === k ? [t] : [])))
    this.minuteOpenLevel = new Float64Array(ordered.length)

    // Pairs.
    const pairNetwork: Array<number> = []
    const pairShare: Array<number> = []
    const pairDepth: Array<number> = []
    this.pairAt = new Int32Array(params.length * networks.length).fill(-1)
    this.pairsOfToken = params.map((p, t) => {
      const total = networks.reduce((sum, n) => sum + (p.liquidityUsd[n] ?? 0), 0)
      const pairs: Array<number> = []
      networks.forEach((n, k) => {
        const depth = p.liquidityUsd[n] ?? 0
        if (!(depth > 0)) return
        const pair = pairNetwork.length
        pairNetwork.push(k)
        pairShare.push(depth / total)
        pairDepth.push(depth)
        this.pairAt[t * networks.length + k] = pair
        pairs.push(pair)
      })
      return pairs
    })
    this.pairNetwork = Uint8Array.from(pairNetwork)
    this.pairShare = Float64Array.from(pairShare)
    this.pairDepth = Float64Array.from(pairDepth)
    this.pricingPair = Int32Array.from(params, (p, t) => {
      const primary = this.pairAt[t * networks.length + networks.indexOf(tokenOf(p.symbol).primaryNetwork)]!
      if (primary >= 0) return primary
      const pairs = this.pairsOfToken[t]!
      return pairs.reduce((best, pair) => (best < 0 || pairDepth[pair]! > pairDepth[best]! ? pair : best), -1)
    })

    // Background trading.
    const plans = params.map(flowPlan)
    this.flowUsdPerSecond = Float64Array.from(plans, (f) => f.flowUsdPerSecond)
    this.swapsPerSecond = Float64Array.from(plans, (f) => f.swapsPerSecond)
    this.swapSizeLogMean = Float64Array.from(plans, (f) => f.swapSizeLogMean)
    this.swapPrngs = params.map((p) => Prng.stream(config.seed, swapStreamName(p.symbol)))
    this.swapClock = new Float64Array(params.length)
    this.nextSwapAt = Float64Array.from(this.swapPrngs, (prng) => prng.exponential(1))
    this.whales = params.map(() => new WhaleLog())
    this.volumeSinceStart = new Float64Array(params.length)
    this.netBuySinceStart = new Float64Array(params.length)
    this.whaleNetSinceStart = new Float64Array(params.length)

    // History: whole UTC days, so that every timeframe's first candle is complete.
    this.startHistoryMs = Math.floor((config.startMs - historyDays * DAY_MS) / DAY_MS) * DAY_MS
    const baseMinute = this.startHistoryMs / MINUTE_MS
    const startBucket = Math.floor(config.startMs / MINUTE_MS) - baseMinute
    this.store = new MinuteStore(baseMinute, ordered.length, pairNetwork.length, startBucket + LIVE_CAPACITY_MINUTES)
    this.generateHistory(startBucket)
    // Holder figures start from the configured ones at `startMs`.
    this.volumeSinceStart.fill(0)
    this.netBuySinceStart.fill(0)
    this.whaleNetSinceStart.fill(0)
    this.enterBucket(startBucket)
    this.recomputeTrending(config.startMs)
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
   * Advances the market to `atMs` (a whole second, not before `nowMs`), stepping every price once
   * per second. Background swaps in `(nowMs, atMs]` are booked in volume and candles and returned
   * in time order (ties in token order).
   */
  tick(atMs: number): ReadonlyArray<MarketSwap> {
    if (!Number.isInteger(atMs) || atMs % SECOND_MS !== 0 || atMs < this.now) {
      throw new RangeError(`tick(${atMs}): must be a whole second not before nowMs ${this.now}`)
    }
    const swaps: Array<MarketSwap> = []
    this.statsCache.clear()
    for (let second = this.now + SECOND_MS; second <= atMs; second += SECOND_MS) this.stepSecond(second, swaps)
    this.now = atMs
    return swaps
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
   * `priceRangeUsd` is a defect in the caller.
   */
  setPrice(symbol: string, priceUsd: number, atMs: number): void {
    this.checkEventTime(atMs)
    if (!isQuotablePrice(priceUsd)) throw new RangeError(`setPrice(${symbol}): price ${priceUsd}`)
    const t = this.token(symbol)
    this.statsCache.clear()
    const process = this.processOf[t]!
    const pair = this.pricingPair[t]!
    const before = this.processes.price[process]!
    if (pair >= 0 && before !== priceUsd) {
      const swap = swapToReach(before, priceUsd, this.pairDepth[pair]!)
      this.book(t, pair, atMs, swap.side === "buy", swap.valueUsd)
    }
    this.movePrice(process, priceUsd)
  }

  /**
   * An external swap (a user's trade, an injected whale) inside the current second: booked in
   * volume, buy/sell split, whale figures and candles, and moving the price by its impact on that
   * network's constant-product pool (`priceAfterSwap`: × (1 + V/D)² for a buy, ÷ for a sell). A
   * stablecoin inside its band stays inside it (mint/redeem arbitrage absorbs the rest). A value of
   * 0 books nothing; a negative one is a defect.
   */
  applySwap(swap: MarketSwap): void {
    this.checkEventTime(swap.at)
    if (!(swap.valueUsd >= 0 && Number.isFinite(swap.valueUsd))) {
      throw new RangeError(`applySwap: value ${swap.valueUsd}`)
    }
    // A dust trade can round to zero dollars: nothing to book, and no reason to fail the trade.
    if (swap.valueUsd === 0) return
    this.statsCache.clear()
    const t = this.token(swap.symbol)
    const pair = this.pairAt[t * networks.length + networks.indexOf(swap.network)]!
    if (pair < 0) throw new RangeError(`applySwap: ${swap.symbol} has no pool on ${swap.network}`)
    this.book(t, pair, swap.at, swap.side === "buy", swap.valueUsd)
    const process = this.processOf[t]!
    let price = priceAfterSwap(this.processes.price[process]!, swap.side, swap.valueUsd, this.pairDepth[pair]!)
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
    const pair = this.pairAt[this.token(symbol) * networks.length + networks.indexOf(network)]!
    return pair >= 0 ? this.pairDepth[pair]! : 0
  }

  /**
   * The token's 24 h picture as of `nowMs`. Volume windows are whole minute buckets: the last 24 h
   * is the current minute and the 1 439 before it. With a network, the volume figures (and whales)
   * are that network's only; price, change, market cap and holders are the token's.
   */
  stats(symbol: string, network?: Network): MarketStats {
    const key = network === undefined ? symbol : `${symbol}/${network}`
    const cached = this.statsCache.get(key)
    if (cached !== undefined) return cached
    const computed = this.computeStats(symbol, network)
    this.statsCache.set(key, computed)
    return computed
  }

  /**
   * The token's rolling 1 h volume and its average hourly volume over the 24 h before, as `stats`
   * has them, without the rest of `stats`: what a volume alert compares at each whole minute.
   */
  hourlyVolumes(symbol: string): { readonly volume1hUsd: number; readonly averageHourlyVolume24hUsd: number } {
    const sums = this.windowSums(this.scopePairs(this.token(symbol), undefined), emptySums())
    return { volume1hUsd: sums.volume1h, averageHourlyVolume24hUsd: sums.averageHourly }
  }

  private computeStats(symbol: string, network?: Network): MarketStats {
    const t = this.token(symbol)
    const process = this.processOf[t]!
    const params = this.params[t]!
    const price = this.processes.price[process]!
    const pairs = this.scopePairs(t, network)
    const sums = this.windowSums(pairs, emptySums())
    const volumeByNetworkUsd: Partial<Record<Network, number>> = {}
    if (network !== undefined) volumeByNetworkUsd[network] = sums.volume24h
    else {
      for (const pair of pairs) {
        volumeByNetworkUsd[networks[this.pairNetwork[pair]!]!] = this.windowSums([pair], emptySums()).volume24h
      }
    }
    // Events of the current second (`setPrice`, `applySwap` at [nowMs, nowMs + 1000)) count already.
    const whales = this.whales[t]!.summarise(
      this.now - DAY_MS,
      this.now + SECOND_MS - 1,
      network === undefined ? -1 : networks.indexOf(network),
      this.whaleScratch
    )
    return {
      symbol: params.symbol,
      priceUsd: new MoneyDecimal(price),
      change24hPercent: this.change24hPercent(process),
      volume24hUsd: sums.volume24h,
      marketCapUsd: price * params.circulatingSupply,
      volumeByNetworkUsd,
      buyVolume24hUsd: sums.buy24h,
      sellVolume24hUsd: Math.max(0, sums.volume24h - sums.buy24h),
      holders: {
        count: holdersCount(
          params.holders,
          this.volumeSinceStart[t]!,
          this.netBuySinceStart[t]!,
          params.dailyVolumeUsd
        ),
        top10Percent: top10Percent(params.top10Percent, this.whaleNetSinceStart[t]!, params.dailyVolumeUsd)
      },
      whaleActivity: { transactions24h: whales.transactions, netFlow24hUsd: whales.netFlowUsd },
      volume1hUsd: sums.volume1h,
      averageHourlyVolume24hUsd: sums.averageHourly
    }
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
      this.processOf[t]!,
      this.scopePairs(t, network),
      timeframeMs[timeframe],
      fromMs,
      toMs,
      this.currentBucket
    )
  }

  /**
   * Recomputes the trending rankings (all tokens, and each network's) from the market as of
   * `nowMs`, stamped `atMs`. The score is `trendingScore` (see `Trending.ts`).
   */
  recomputeTrending(atMs: number): void {
    const pairSums = Array.from(this.pairNetwork, (_, pair) => this.windowSums([pair], emptySums()))
    const rankings = new Map<Network | "all", TrendingRanking>()
    const rank = (scope: Network | undefined): TrendingRanking => {
      const entries: Array<TrendingEntry> = []
      this.params.forEach((params, t) => {
        const registry = tokenOf(params.symbol)
        if (scope !== undefined && !isTradableOn(registry, scope)) return
        const sums = emptySums()
        for (const pair of this.scopePairs(t, scope)) {
          const s = pairSums[pair]!
          sums.volume24h += s.volume24h
          sums.volume1h += s.volume1h
          sums.buy1h += s.buy1h
          sums.averageHourly += s.averageHourly
        }
        const process = this.processOf[t]!
        const change24hPercent = this.change24hPercent(process)
        entries.push({
          symbol: params.symbol,
          priceUsd: this.processes.price[process]!,
          change24hPercent,
          volume24hUsd: sums.volume24h,
          network: scope ?? registry.primaryNetwork,
          score: trendingScore({
            volume1hUsd: sums.volume1h,
            buyVolume1hUsd: sums.buy1h,
            averageHourlyVolume24hUsd: sums.averageHourly,
            change24hPercent,
            pegged: this.processes.pegged[process] === 1
          })
        })
      })
      entries.sort((a, b) =>
        b.score - a.score || b.volume24hUsd - a.volume24hUsd || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)
      )
      return { updatedAt: atMs, entries }
    }
    rankings.set("all", rank(undefined))
    for (const network of networks) rankings.set(network, rank(network))
    this.rankings = rankings
  }

  /** The last computed ranking, best first: all tokens, or the tokens tradable on `network`. */
  trending(network?: Network): TrendingRanking {
    return this.rankings.get(network ?? "all")!
  }

  /** Units of `currency` per US dollar. */
  fxRate(currency: Currency): number {
    return this.fx[currency]
  }

  // -- History ------------------------------------------------------------------------------------

  /** Fills buckets [0, `minutes`) minute by minute, process by process, then prices them. */
  private generateHistory(minutes: number): void {
    const processes = this.processes
    const store = this.store
    const marketActivity = new Float64Array(minutes)
    for (let process = 0; process < processes.count; process++) {
      const pegged = processes.pegged[process] === 1
      const highs = store.high[process]!
      const lows = store.low[process]!
      const closes = store.close[process]!
      const openLevel = processes.level[process]!
      const tokens = this.tokensOfProcess[process]!
      for (let b = 0; b < minutes; b++) {
        const before = processes.level[process]!
        const scale = processes.stepScale[process]!
        processes.stepMinute(process)
        highs[b] = processes.minuteHighLevel
        lows[b] = processes.minuteLowLevel
        closes[b] = processes.level[process]!
        let activity: number
        if (pegged) activity = this.walkingCount > 0 ? marketActivity[b]! / this.walkingCount : 1
        else {
          activity = scale / processes.meanStepScale[process]!
          marketActivity[b] = marketActivity[b]! + activity
        }
        const share = buyShare((processes.level[process]! - before) / (scale * SQRT_STEPS[60]!))
        for (const t of tokens) this.tradeHistoryMinute(t, b, activity, share)
      }
      // Price the levels so that the last close is exactly the configured price.
      const startPrice = this.params[this.tokensOfProcess[process]![0]!]!.priceUsd
      const shift = processes.rebase(process, startPrice)
      store.firstOpen[process] = processes.priceOfLevel(process, openLevel, shift)
      for (let b = 0; b < minutes; b++) {
        highs[b] = processes.priceOfLevel(process, highs[b]!, shift)
        lows[b] = processes.priceOfLevel(process, lows[b]!, shift)
        closes[b] = processes.priceOfLevel(process, closes[b]!, shift)
      }
      if (minutes > 0) {
        const price = processes.price[process]!
        closes[minutes - 1] = price
        highs[minutes - 1] = Math.max(highs[minutes - 1]!, price)
        lows[minutes - 1] = Math.min(lows[minutes - 1]!, price)
      }
    }
  }

  /** One history minute of token `t`'s trading. */
  private tradeHistoryMinute(t: number, bucket: number, activity: number, share: number): void {
    this.bookFlow(t, bucket, this.flowUsdPerSecond[t]! * 60 * activity, share)
    const before = this.swapClock[t]!
    const after = before + this.swapsPerSecond[t]! * 60 * activity
    const minuteStart = this.store.startOf(bucket)
    const prng = this.swapPrngs[t]!
    while (this.nextSwapAt[t]! <= after) {
      const fraction = (this.nextSwapAt[t]! - before) / (after - before)
      const at = minuteStart + Math.min(MINUTE_MS - 1, Math.floor(fraction * MINUTE_MS))
      this.drawSwap(t, at, share, prng)
      this.nextSwapAt[t] = this.nextSwapAt[t]! + prng.exponential(1)
    }
    this.swapClock[t] = after
  }

  // -- Live ticking -------------------------------------------------------------------------------

  /** Starts a minute bucket: its open (and so far high, low and close) is the current price. */
  private enterBucket(bucket: number): void {
    this.store.ensureCapacity(bucket)
    this.store.seal(bucket)
    const processes = this.processes
    for (let process = 0; process < processes.count; process++) {
      const price = processes.price[process]!
      this.store.high[process]![bucket] = price
      this.store.low[process]![bucket] = price
      this.store.close[process]![bucket] = price
      this.minuteOpenLevel[process] = processes.level[process]!
    }
    this.currentBucket = bucket
    this.currentBucketStartMs = this.store.startOf(bucket)
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
      processes.stepSecond(process)
      const price = processes.price[process]!
      const highs = store.high[process]!
      const lows = store.low[process]!
      store.close[process]![bucket] = price
      if (price > highs[bucket]!) highs[bucket] = price
      if (price < lows[bucket]!) lows[bucket] = price
      if (processes.pegged[process] === 0) {
        activitySum += processes.stepScale[process]! / processes.meanStepScale[process]!
      }
    }
    const marketActivity = this.walkingCount > 0 ? activitySum / this.walkingCount : 1
    const firstSwap = swaps.length
    for (let t = 0; t < this.params.length; t++) {
      const process = this.processOf[t]!
      const scale = processes.stepScale[process]!
      const activity = processes.pegged[process] === 1 ? marketActivity : scale / processes.meanStepScale[process]!
      const share = buyShare((processes.level[process]! - this.minuteOpenLevel[process]!) / (scale * rootSteps))
      this.bookFlow(t, bucket, this.flowUsdPerSecond[t]! * activity, share)
      const before = this.swapClock[t]!
      const after = before + this.swapsPerSecond[t]! * activity
      if (this.nextSwapAt[t]! <= after) {
        const prng = this.swapPrngs[t]!
        while (this.nextSwapAt[t]! <= after) {
          const fraction = (this.nextSwapAt[t]! - before) / (after - before)
          const at = second - SECOND_MS + Math.max(1, Math.ceil(fraction * SECOND_MS))
          swaps.push(this.drawSwap(t, at, share, prng))
          this.nextSwapAt[t] = this.nextSwapAt[t]! + prng.exponential(1)
        }
      }
      this.swapClock[t] = after
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

  // -- Booking ------------------------------------------------------------------------------------

  /** Books aggregate retail flow of token `t` in a bucket, split over its networks by liquidity. */
  private bookFlow(t: number, bucket: number, valueUsd: number, share: number): void {
    if (valueUsd === 0) return
    const store = this.store
    for (const pair of this.pairsOfToken[t]!) {
      const value = valueUsd * this.pairShare[pair]!
      store.volume[pair]![bucket] = store.volume[pair]![bucket]! + value
      store.buyVolume[pair]![bucket] = store.buyVolume[pair]![bucket]! + value * share
    }
    this.volumeSinceStart[t] = this.volumeSinceStart[t]! + valueUsd
    this.netBuySinceStart[t] = this.netBuySinceStart[t]! + valueUsd * (2 * share - 1)
  }

  /** Draws one discrete background swap of token `t` (size, network, side) and books it. */
  private drawSwap(t: number, at: number, share: number, prng: Prng): MarketSwap {
    const size = Math.exp(this.swapSizeLogMean[t]! + SWAP_SIZE_LOG_STD * prng.normal())
    const valueUsd = Math.max(0.01, Math.round(size * 100) / 100)
    const pairs = this.pairsOfToken[t]!
    let pick = prng.next()
    let pair = pairs[pairs.length - 1]!
    for (const candidate of pairs) {
      pick -= this.pairShare[candidate]!
      if (pick < 0) {
        pair = candidate
        break
      }
    }
    const buy = prng.next() < share
    this.book(t, pair, at, buy, valueUsd)
    return {
      at,
      symbol: this.params[t]!.symbol,
      network: networks[this.pairNetwork[pair]!]!,
      side: buy ? "buy" : "sell",
      valueUsd
    }
  }

  /** Books one swap in its minute's volume, the holder counters and (if large) the whale log. */
  private book(t: number, pair: number, at: number, buy: boolean, valueUsd: number): void {
    const store = this.store
    const bucket = store.bucketOf(at)
    store.volume[pair]![bucket] = store.volume[pair]![bucket]! + valueUsd
    if (buy) store.buyVolume[pair]![bucket] = store.buyVolume[pair]![bucket]! + valueUsd
    const signed = buy ? valueUsd : -valueUsd
    this.volumeSinceStart[t] = this.volumeSinceStart[t]! + valueUsd
    this.netBuySinceStart[t] = this.netBuySinceStart[t]! + signed
    if (valueUsd >= WHALE_THRESHOLD_USD) {
      this.whales[t]!.add(at, this.pairNetwork[pair]!, signed)
      this.whaleNetSinceStart[t] = this.whaleNetSinceStart[t]! + signed
    }
  }

  /** Moves a process's price now; the current candle sees it. */
  private movePrice(process: number, priceUsd: number): void {
    this.processes.setPrice(process, priceUsd)
    const bucket = this.currentBucket
    const highs = this.store.high[process]!
    const lows = this.store.low[process]!
    this.store.close[process]![bucket] = priceUsd
    if (priceUsd > highs[bucket]!) highs[bucket] = priceUsd
    if (priceUsd < lows[bucket]!) lows[bucket] = priceUsd
  }

  // -- Queries ------------------------------------------------------------------------------------

  private token(symbol: string): number {
    const t = this.tokenIndex.get(symbol)
    if (t === undefined) throw new RangeError(`the market has no token ${symbol}`)
    return t
  }

  private scopePairs(t: number, network: Network | undefined): ReadonlyArray<number> {
    if (network === undefined) return this.pairsOfToken[t]!
    const pair = this.pairAt[t * networks.length + networks.indexOf(network)]!
    return pair >= 0 ? [pair] : []
  }

  private checkEventTime(atMs: number): void {
    if (!(atMs >= this.now && atMs < this.now + SECOND_MS)) {
      throw new RangeError(
        `market event at ${atMs} is outside the current second [${this.now}, ${this.now + SECOND_MS}): tick first`
      )
    }
  }

  /** Percent change of a process's price against its price 24 h ago (the open of that minute). */
  private change24hPercent(process: number): number {
    const bucket = this.store.bucketOf(this.now - DAY_MS)
    const then = bucket <= 0 ? this.store.firstOpen[process]! : this.store.close[process]![bucket - 1]!
    return (this.processes.price[process]! / then - 1) * 100
  }

  /** The window sums of a scope as of the current bucket. */
  private windowSums(pairs: ReadonlyArray<number>, into: WindowSums): WindowSums {
    const store = this.store
    const current = this.currentBucket
    into.volume24h = store.sum(store.volume, pairs, current - DAY_MINUTES + 1, current)
    into.buy24h = store.sum(store.buyVolume, pairs, current - DAY_MINUTES + 1, current)
    into.volume1h = store.sum(store.volume, pairs, current - HOUR_MINUTES + 1, current)
    into.buy1h = store.sum(store.buyVolume, pairs, current - HOUR_MINUTES + 1, current)
    const priorFirst = Math.max(0, current - HOUR_MINUTES - DAY_MINUTES + 1)
    const priorLast = current - HOUR_MINUTES
    const priorMinutes = priorLast - priorFirst + 1
    into.averageHourly = priorMinutes > 0
      ? store.sum(store.volume, pairs, priorFirst, priorLast) / (priorMinutes / HOUR_MINUTES)
      : 0
    return into
  }
}

const isQuotablePrice = (priceUsd: number): boolean => priceUsd >= priceRangeUsd.min && priceUsd <= priceRangeUsd.max

/** Rejects a calibration the engine cannot honour (a defect in the caller's data). */
const validate = (params: ReadonlyArray<TokenMarketParams>): void => {
  const symbols = new Set<string>()
  for (const p of params) {
    if (symbols.has(p.symbol)) throw new RangeError(`market params list ${p.symbol} twice`)
    symbols.add(p.symbol)
    const registry = tokenOf(p.symbol)
    if (!isQuotablePrice(p.priceUsd)) throw new RangeError(`${p.symbol}: priceUsd ${p.priceUsd} is out of range`)
    if (!(p.annualVolatility > 0)) throw new RangeError(`${p.symbol}: annualVolatility must be positive`)
    for (const network of networks) {
      if ((p.liquidityUsd[network] ?? 0) > 0 && !isTradableOn(registry, network)) {
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
