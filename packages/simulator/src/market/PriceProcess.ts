/**
 * Every simulated token's USD price as one stochastic process, steppable by a second (live) or by
 * a minute (history) with the same law, so that a month of generated history and a day of live
 * ticks are statistically the same market.
 *
 * Walking tokens: log price with drift, stochastic volatility and compound-Poisson jumps.
 * - Volatility: log σ follows an Ornstein–Uhlenbeck process (half-life one hour). Unlike GARCH, whose
 *   per-second and per-minute versions are different models (GARCH is not closed under temporal
 *   aggregation), an OU process discretises exactly at any step, so per-minute variance is exactly
 *   60 × per-second variance. Its mean is set so that E[σ²] equals the configured diffusion
 *   variance; the lognormal mixing gives fat tails and volatility clustering.
 * - Jumps: Poisson arrivals at `jumpsPerDay`, normal sizes carrying a fixed share of the variance.
 * - Returns are a martingale difference (the −σ²/2 and jump compensators keep E[price] growing at
 *   the drift), so log returns have no autocorrelation: there is no mean reversion in prices.
 * Pegged tokens: the deviation from the peg is an OU process (half-life 30 minutes) kept inside a
 * ±0.4% band, which is how fiat-backed stablecoins trade while mint and redeem arbitrage works.
 *
 * State lives in `Float64Array`s indexed by process: the engine steps ~20 processes per second of
 * market time and must not allocate while doing it.
 */
import { Prng, type PrngState } from "../Prng.ts"
import type { TokenMarketParams } from "./MarketParams.ts"

/** Crypto trades every day: a year is 365 × 86 400 seconds of market time. */
export const SECONDS_PER_YEAR = 365 * 86_400
/** Half-life of a volatility shock: a busy hour tends to be followed by a busy hour. */
export const VOLATILITY_HALF_LIFE_SECONDS = 3_600
/** Stationary standard deviation of log σ: the Gaussian part's kurtosis is 3·e^(4·0.25) ≈ 8.2. */
export const LOG_VOLATILITY_STD = 0.5
/** Share of a walking token's variance carried by jumps (when it has any). */
export const JUMP_VARIANCE_SHARE = 0.2
/** Half-life of a stablecoin's deviation from its peg. */
export const PEG_HALF_LIFE_SECONDS = 1_800
/** A stablecoin's noise never takes it further than this fraction from its peg. */
export const PEG_BAND = 0.004
/**
 * Broadie–Glasserman: the maximum of a Brownian path seen once per Δt lies about 0.5826·σ·√Δt below
 * the continuous maximum. History candles use it so their wicks match live candles built from
 * one-second ticks.
 */
const DISCRETE_MONITORING_SHIFT = 0.5826

const decayOver = (halfLifeSeconds: number, seconds: number): number => Math.exp(-Math.LN2 * seconds / halfLifeSeconds)

const VOLATILITY_DECAY_SECOND = decayOver(VOLATILITY_HALF_LIFE_SECONDS, 1)
const VOLATILITY_DECAY_MINUTE = decayOver(VOLATILITY_HALF_LIFE_SECONDS, 60)
const VOLATILITY_NOISE_SECOND = LOG_VOLATILITY_STD * Math.sqrt(1 - VOLATILITY_DECAY_SECOND ** 2)
const VOLATILITY_NOISE_MINUTE = LOG_VOLATILITY_STD * Math.sqrt(1 - VOLATILITY_DECAY_MINUTE ** 2)
const PEG_DECAY_SECOND = decayOver(PEG_HALF_LIFE_SECONDS, 1)
const PEG_DECAY_MINUTE = decayOver(PEG_HALF_LIFE_SECONDS, 60)
const PEG_NOISE_SECOND = Math.sqrt(1 - PEG_DECAY_SECOND ** 2)
const PEG_NOISE_MINUTE = Math.sqrt(1 - PEG_DECAY_MINUTE ** 2)
const SQRT_60 = Math.sqrt(60)

/** The named PRNG stream a token's price draws from. */
export const priceStreamName = (symbol: string): string => `market/price/${symbol}`

/**
 * What the price processes carry from one second to the next, indexed by process: the rest of their
 * state is a function of the params. `minuteHighLevel`/`minuteLowLevel` are scratch of history
 * generation and not part of it.
 */
export interface PriceProcessesSnapshot {
  readonly price: Float64Array
  readonly level: Float64Array
  readonly stepScale: Float64Array
  readonly logVolatility: Float64Array
  readonly secondsToJump: Float64Array
  readonly prngs: ReadonlyArray<PrngState>
}

/** The price processes of a list of tokens (pegged and walking), stepped in place. */
export class PriceProcesses {
  readonly count: number
  readonly symbols: ReadonlyArray<string>
  /** 1 for a pegged token. */
  readonly pegged: Uint8Array
  /** Current USD price. */
  readonly price: Float64Array
  /** The stepped quantity: log price for a walking token, relative deviation from the peg for a pegged one. */
  readonly level: Float64Array
  /** Current per-second standard deviation of `level` steps (σ for walking tokens, noise for pegged). */
  readonly stepScale: Float64Array
  /** E[stepScale]: dividing by it gives the token's activity (1 on average, higher when volatile). */
  readonly meanStepScale: Float64Array
  /** The last `stepMinute`'s intraminute extremes, in level units (scratch, to avoid allocating). */
  minuteHighLevel = 0
  minuteLowLevel = 0

  private readonly logVolatility: Float64Array
  private readonly meanLogVolatility: Float64Array
  private readonly driftPerSecond: Float64Array
  private readonly jumpStd: Float64Array
  private readonly jumpGapSeconds: Float64Array
  private readonly secondsToJump: Float64Array
  private readonly peg: Float64Array
  private readonly pegStationaryStd: Float64Array
  private prngs: ReadonlyArray<Prng>

  constructor(seed: string | number, params: ReadonlyArray<TokenMarketParams>) {
    const n = params.length
    this.count = n
    this.symbols = params.map((p) => p.symbol)
    this.pegged = new Uint8Array(n)
    this.price = new Float64Array(n)
    this.level = new Float64Array(n)
    this.stepScale = new Float64Array(n)
    this.meanStepScale = new Float64Array(n)
    this.logVolatility = new Float64Array(n)
    this.meanLogVolatility = new Float64Array(n)
    this.driftPerSecond = new Float64Array(n)
    this.jumpStd = new Float64Array(n)
    this.jumpGapSeconds = new Float64Array(n)
    this.secondsToJump = new Float64Array(n)
    this.peg = new Float64Array(n)
    this.pegStationaryStd = new Float64Array(n)
    this.prngs = params.map((p) => Prng.stream(seed, priceStreamName(p.symbol)))

    for (let i = 0; i < n; i++) {
      const p = params[i]!
      const prng = this.prngs[i]!
      const variancePerSecond = p.annualVolatility ** 2 / SECONDS_PER_YEAR
      if (p.peg !== undefined) {
        this.pegged[i] = 1
        this.peg[i] = p.peg
        // The OU's stationary spread given its instantaneous volatility: σ / √(2κ).
        const kappaPerSecond = Math.LN2 / PEG_HALF_LIFE_SECONDS
        this.pegStationaryStd[i] = Math.sqrt(variancePerSecond / (2 * kappaPerSecond))
        this.stepScale[i] = Math.sqrt(variancePerSecond)
        this.meanStepScale[i] = this.stepScale[i]!
        this.level[i] = 0
        this.price[i] = p.peg
        this.jumpGapSeconds[i] = Number.POSITIVE_INFINITY
        this.secondsToJump[i] = Number.POSITIVE_INFINITY
        continue
      }
      const jumpsPerSecond = p.jumpsPerDay / 86_400
      const jumpShare = jumpsPerSecond > 0 ? JUMP_VARIANCE_SHARE : 0
      // E[e^(2h)] = e^(2m + 2s²) must equal the diffusion variance per second.
      const mean = 0.5 * Math.log((1 - jumpShare) * variancePerSecond) - LOG_VOLATILITY_STD ** 2
      this.meanLogVolatility[i] = mean
      this.meanStepScale[i] = Math.exp(mean + LOG_VOLATILITY_STD ** 2 / 2)
      const jumpStd = jumpsPerSecond > 0 ? Math.sqrt(jumpShare * variancePerSecond / jumpsPerSecond) : 0
      this.jumpStd[i] = jumpStd
      this.jumpGapSeconds[i] = jumpsPerSecond > 0 ? 1 / jumpsPerSecond : Number.POSITIVE_INFINITY
      this.driftPerSecond[i] = p.annualDrift / SECONDS_PER_YEAR - jumpsPerSecond * Math.expm1(jumpStd ** 2 / 2)
      // Start in the stationary regime, so the first hours are not special.
      const h = mean + LOG_VOLATILITY_STD * prng.normal()
      this.logVolatility[i] = h
      this.stepScale[i] = Math.exp(h)
      this.secondsToJump[i] = jumpsPerSecond > 0 ? prng.exponential(this.jumpGapSeconds[i]!) : Number.POSITIVE_INFINITY
      this.level[i] = Math.log(p.priceUsd)
      this.price[i] = p.priceUsd
    }
  }

  /** A copy of the evolving state (see `PriceProcessesSnapshot`). */
  snapshot(): PriceProcessesSnapshot {
    return {
      price: this.price.slice(),
      level: this.level.slice(),
      stepScale: this.stepScale.slice(),
      logVolatility: this.logVolatility.slice(),
      secondsToJump: this.secondsToJump.slice(),
      prngs: this.prngs.map((prng) => prng.state())
    }
  }

  /** Continues from `snapshot`, taken from processes built with the same params. */
  restore(snapshot: PriceProcessesSnapshot): void {
    if (snapshot.price.length !== this.count || snapshot.prngs.length !== this.count) {
      throw new Error(`price snapshot of ${snapshot.price.length} processes, the market has ${this.count}`)
    }
    this.price.set(snapshot.price)
    this.level.set(snapshot.level)
    this.stepScale.set(snapshot.stepScale)
    this.logVolatility.set(snapshot.logVolatility)
    this.secondsToJump.set(snapshot.secondsToJump)
    this.prngs = snapshot.prngs.map(Prng.restore)
  }

  /**
   * The part of a step that a second and a minute share, after the diffusion's draw: moves process
   * `i`'s log-volatility on (mean-reverting with `decay`, shocked with `noise`), then adds to
   * `logReturn` each jump due within the step's `seconds`, one at a time in draw order (a replay
   * depends on the rounding of exactly this sum). Answers the step's log-return.
   */
  private volatilityAndJumps(
    i: number,
    prng: Prng,
    decay: number,
    noise: number,
    seconds: number,
    logReturn: number
  ): number {
    const mean = this.meanLogVolatility[i]!
    const h = mean + (this.logVolatility[i]! - mean) * decay + noise * prng.normal()
    this.logVolatility[i] = h
    this.stepScale[i] = Math.exp(h)
    let untilJump = this.secondsToJump[i]! - seconds
    let total = logReturn
    while (untilJump <= 0) {
      total += this.jumpStd[i]! * prng.normal()
      untilJump += prng.exponential(this.jumpGapSeconds[i]!)
    }
    this.secondsToJump[i] = untilJump
    return total
  }

  /** Advances process `i` by one second of market time and updates its price. */
  stepSecond(i: number): void {
    const prng = this.prngs[i]!
    if (this.pegged[i] === 1) {
      const before = this.level[i]!
      const std = this.pegStationaryStd[i]!
      let deviation = before * PEG_DECAY_SECOND + std * PEG_NOISE_SECOND * prng.normal()
      if (Math.abs(before) <= PEG_BAND) deviation = clampBand(deviation)
      this.level[i] = deviation
      this.price[i] = this.peg[i]! * (1 + deviation)
      return
    }
    const sigma = this.stepScale[i]!
    const diffusion = this.driftPerSecond[i]! - 0.5 * sigma * sigma + sigma * prng.normal()
    const logReturn = this.volatilityAndJumps(i, prng, VOLATILITY_DECAY_SECOND, VOLATILITY_NOISE_SECOND, 1, diffusion)
    const level = this.level[i]! + logReturn
    this.level[i] = level
    this.price[i] = Math.exp(level)
  }

  /**
   * Advances process `i` by one minute with the same law (volatility held over the minute, whose
   * half-life is an hour), leaving the minute's extremes in `minuteHighLevel`/`minuteLowLevel`.
   * Only `level` moves: history is generated in level units and priced afterwards (see `rebase`).
   */
  stepMinute(i: number): void {
    const prng = this.prngs[i]!
    const before = this.level[i]!
    let after: number
    let bridgeVariance: number
    let monitoringShift: number
    if (this.pegged[i] === 1) {
      const std = this.pegStationaryStd[i]!
      after = before * PEG_DECAY_MINUTE + std * PEG_NOISE_MINUTE * prng.normal()
      if (Math.abs(before) <= PEG_BAND) after = clampBand(after)
      const scale = this.stepScale[i]!
      bridgeVariance = scale * scale * 60
      monitoringShift = DISCRETE_MONITORING_SHIFT * scale
    } else {
      const sigma = this.stepScale[i]!
      const sigmaMinute = sigma * SQRT_60
      const diffusion = 60 * this.driftPerSecond[i]! - 0.5 * sigmaMinute * sigmaMinute + sigmaMinute * prng.normal()
      after = before +
        this.volatilityAndJumps(i, prng, VOLATILITY_DECAY_MINUTE, VOLATILITY_NOISE_MINUTE, 60, diffusion)
      bridgeVariance = sigmaMinute * sigmaMinute
      monitoringShift = DISCRETE_MONITORING_SHIFT * sigma
    }
    // Extremes of a Brownian bridge from `before` to `after`, sampled exactly by inverting
    // P(max ≥ m) = exp(−2(m − a)(m − b) / σ²T), then pulled in to what one-second ticks would see.
    const gap = after - before
    const top = 0.5 * (before + after + Math.sqrt(gap * gap - 2 * bridgeVariance * Math.log(1 - prng.next())))
    const bottom = 0.5 * (before + after - Math.sqrt(gap * gap - 2 * bridgeVariance * Math.log(1 - prng.next())))
    let high = Math.max(before, after, top - monitoringShift)
    let low = Math.min(before, after, bottom + monitoringShift)
    if (this.pegged[i] === 1 && Math.abs(before) <= PEG_BAND) {
      high = clampBand(high)
      low = clampBand(low)
    }
    this.level[i] = after
    this.minuteHighLevel = high
    this.minuteLowLevel = low
  }

  /**
   * Makes the current price exactly `priceUsd` (a walking token) or re-prices the peg deviation
   * (a pegged one), and answers the shift that maps earlier levels to prices with `priceOfLevel`.
   */
  rebase(i: number, priceUsd: number): number {
    if (this.pegged[i] === 1) {
      this.price[i] = this.peg[i]! * (1 + this.level[i]!)
      return 0
    }
    const shift = Math.log(priceUsd) - this.level[i]!
    this.level[i] = Math.log(priceUsd)
    this.price[i] = priceUsd
    return shift
  }

  /** The price of a level produced before a `rebase` that answered `shift`. */
  priceOfLevel(i: number, level: number, shift: number): number {
    return this.pegged[i] === 1 ? this.peg[i]! * (1 + level) : Math.exp(level + shift)
  }

  /** Puts the price at `priceUsd` (an external move); the process continues from there. */
  setPrice(i: number, priceUsd: number): void {
    this.price[i] = priceUsd
    this.level[i] = this.pegged[i] === 1 ? priceUsd / this.peg[i]! - 1 : Math.log(priceUsd)
  }

  /** Whether a pegged token is inside its band (an external move may have pushed it out). */
  insideBand(i: number): boolean {
    return Math.abs(this.level[i]!) <= PEG_BAND
  }
}

const clampBand = (deviation: number): number => Math.min(PEG_BAND, Math.max(-PEG_BAND, deviation))

/**
 * The per-second random walks alone: the same processes, PRNG streams and log-return math as the
 * engine's live ticks, with no candles, volume or swaps. Answers a checksum of the final levels so
 * the work cannot be optimised away. The benchmark divides the engine's ticks per second by this.
 */
export const bareRandomWalks = (
  seed: string | number,
  tokens: ReadonlyArray<TokenMarketParams>,
  seconds: number
): number => {
  const processes = new PriceProcesses(seed, tokens.filter((t) => t.tracks === undefined))
  for (let s = 0; s < seconds; s++) {
    for (let i = 0; i < processes.count; i++) processes.stepSecond(i)
  }
  let checksum = 0
  for (let i = 0; i < processes.count; i++) checksum += processes.level[i]!
  return checksum
}
