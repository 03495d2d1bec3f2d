/**
 * The active alerts, indexed so that an observation costs O(log n + fired) however many alerts
 * watch the market (docs/alerts.md). Every active alert sits in one `ThresholdBook`, keyed so that
 * the alerts an observation fires are a prefix of it:
 *
 * | alert             | book per      | key            | fires when the key is reached by   |
 * |-------------------|---------------|----------------|------------------------------------|
 * | price, `above`    | token         | `targetPrice`  | key <= price                       |
 * | price, `below`    | token         | `-targetPrice` | key <= -price                      |
 * | whale             | token         | `minValueUsd`  | key <= the swap's USD value        |
 * | volume            | token         | `multiplier`   | 1 h volume >= key x hourly average |
 * | portfolio         | account       | `changePercent`| key <= the 24 h change, in percent |
 *
 * The engine is plain synchronous code: arming, disarming and taking fired alerts are each one
 * atomic step, so an alert created, disabled, re-armed or deleted between two observations is seen
 * correctly by the next one. An alert leaves the engine when it fires; firing it again needs a
 * re-arm. `seq` numbers arming order, which is the order alerts fired by one observation are told.
 */
import type { Decimal } from "decimal.js"
import type { AlertRecord } from "./Alert.ts"
import { ThresholdBook, type ThresholdEntry } from "./ThresholdBook.ts"

export type ArmedAlert = ThresholdEntry<AlertRecord>

/** Which book of which map an alert belongs in, and its key there. */
const placeOf = (alert: AlertRecord): { readonly group: Group; readonly name: string; readonly key: number } => {
  const rule = alert.rule
  switch (rule.type) {
    case "price":
      return rule.condition === "above"
        ? { group: "above", name: rule.token, key: rule.targetPrice }
        : { group: "below", name: rule.token, key: -rule.targetPrice }
    case "whale":
      return { group: "whale", name: rule.token, key: rule.minValueUsd }
    case "volume":
      return { group: "volume", name: rule.token, key: rule.multiplier }
    case "portfolio":
      return { group: "portfolio", name: alert.accountId, key: rule.changePercent }
  }
}

type Group = "above" | "below" | "whale" | "volume" | "portfolio"

const groups: ReadonlyArray<Group> = ["above", "below", "whale", "volume", "portfolio"]

/**
 * An engine as plain data, for a snapshot of the simulation: per group, the books in the order
 * they were made (the order tokens are checked in) with their entries in `(key, seq)` order.
 */
export interface AlertEngineSnapshot {
  readonly books: Readonly<Record<Group, ReadonlyArray<readonly [string, ReadonlyArray<ArmedAlert>]>>>
  readonly nextSeq: number
}

/**
 * How an exact price compares with the double nearest to it: the sign of `exact - nearest`. A
 * price feed with more precision than a double passes it, so that a target equal to the double is
 * compared with the exact price, as the contract's `price >= targetPrice` reads. It is asked for
 * only when a target equals the double, which is rare: working it out is not cheap.
 */
export type RoundingSign = -1 | 0 | 1

/** A price as the double nearest to it, and the sign of the rounding, worked out when first asked. */
export const priceAsNumber = (
  price: Decimal
): { readonly price: number; readonly rounding: () => RoundingSign } => {
  const nearest = price.toNumber()
  let sign: RoundingSign | undefined
  return {
    price: nearest,
    // 100 significant digits hold the exact value of any double a price can be (0.1 needs 55);
    // `cmp(nearest)` alone would read the double back as its shortest decimal, "0.1".
    rounding: () =>
      // oxlint-disable-next-line number-arg-out-of-range -- since ES2018 the limit is 100, not 21
      sign ??= price.cmp(new (price.constructor as typeof Decimal)(nearest.toPrecision(100))) as RoundingSign
  }
}

/** The rounding of a price that is exactly a double. */
export const exactDouble = (): RoundingSign => 0

/** Where a token's price starts to reach its price alerts (`AlertEngine.priceReach`). */
export interface PriceReach {
  readonly token: string
  readonly above: number
  readonly below: number
}

export class AlertEngine {
  private readonly books: Record<Group, Map<string, ThresholdBook<AlertRecord>>> = {
    above: new Map(),
    below: new Map(),
    whale: new Map(),
    volume: new Map(),
    portfolio: new Map()
  }
  private readonly armed = new Map<string, ArmedAlert>()
  private nextSeq = 0
  /** `priceTokens()`, kept until a token gains its first or loses its last price alert. */
  private priceTokensCache: ReadonlyArray<string> | undefined
  /** `lowestWhaleThreshold()`, kept until an alert is armed, disarmed or taken. */
  private lowestWhaleCache: number | undefined
  /** `priceReach()`, kept until an alert is armed, disarmed or taken. */
  private priceReachCache: ReadonlyArray<PriceReach> | undefined

  /** Active alerts being watched. */
  get size(): number {
    return this.armed.size
  }

  has(id: string): boolean {
    return this.armed.has(id)
  }

  /** Starts watching an active alert (again, if it was: the new record replaces the old). */
  arm(alert: AlertRecord): void {
    this.disarm(alert.id)
    const { group, key, name } = placeOf(alert)
    const books = this.books[group]
    let book = books.get(name)
    if (book === undefined) {
      books.set(name, book = new ThresholdBook())
      this.priceTokensCache = undefined
    }
    const entry: ArmedAlert = { key, seq: this.nextSeq++, value: alert }
    book.insert(entry)
    this.armed.set(alert.id, entry)
    this.thresholdsMoved()
  }

  /** The engine as plain data (the books in the order they are walked, each entry with its seq). */
  snapshot(): AlertEngineSnapshot {
    const books = {} as Record<Group, Array<readonly [string, ReadonlyArray<ArmedAlert>]>>
    for (const group of groups) {
      books[group] = Array.from(this.books[group], ([name, book]) => [name, Array.from(book.entries())] as const)
    }
    return { books, nextSeq: this.nextSeq }
  }

  /** The engine a snapshot was taken of: it decides, and tells fired alerts, exactly as that one. */
  static restore(snapshot: AlertEngineSnapshot): AlertEngine {
    const engine = new AlertEngine()
    for (const group of groups) {
      for (const [name, entries] of snapshot.books[group]) {
        const book = new ThresholdBook<AlertRecord>()
        for (const entry of entries) {
          book.insert(entry)
          engine.armed.set(entry.value.id, entry)
        }
        engine.books[group].set(name, book)
      }
    }
    engine.nextSeq = snapshot.nextSeq
    return engine
  }

  /** Stops watching an alert; answers whether it was watched. */
  disarm(id: string): boolean {
    const entry = this.armed.get(id)
    if (entry === undefined) return false
    this.armed.delete(id)
    const { group, name } = placeOf(entry.value)
    const books = this.books[group]
    const book = books.get(name)!
    book.remove(entry.key, entry.seq)
    if (book.size === 0) this.dropBook(group, name)
    this.thresholdsMoved()
    return true
  }

  /** Tokens with active price alerts. */
  priceTokens(): ReadonlyArray<string> {
    return this.priceTokensCache ??= unionOfKeys(this.books.above, this.books.below)
  }

  /** Whether any volume or portfolio alert is watched: the whole-minute checks have work. */
  get watchesAggregates(): boolean {
    return this.books.volume.size > 0 || this.books.portfolio.size > 0
  }

  /** Tokens with active volume alerts. */
  volumeTokens(): ReadonlyArray<string> {
    return Array.from(this.books.volume.keys())
  }

  /** Accounts with active portfolio alerts. */
  portfolioAccounts(): ReadonlyArray<string> {
    return Array.from(this.books.portfolio.keys())
  }

  /**
   * The lowest `minValueUsd` of all whale alerts (`Infinity` with none): a swap below it fires
   * nothing, whatever its token, which spares the per-token lookup for the many swaps of a tick.
   */
  lowestWhaleThreshold(): number {
    if (this.lowestWhaleCache === undefined) {
      let lowest = Number.POSITIVE_INFINITY
      for (const book of this.books.whale.values()) lowest = Math.min(lowest, book.lowestKey!)
      this.lowestWhaleCache = lowest
    }
    return this.lowestWhaleCache
  }

  /** Whether one swap of `valueUsd` may fire a whale alert of `token` (O(1)). */
  whaleMayFire(token: string, valueUsd: number): boolean {
    const lowest = this.books.whale.get(token)?.lowestKey
    return lowest !== undefined && lowest <= valueUsd
  }

  /**
   * Per token with price alerts, the prices that may fire one: at or above `above` (the lowest
   * `above` target) or at or below `below` (the highest `below` target). Comparing the double
   * nearest to the exact price with them is the O(1) check that lets an observation firing nothing
   * skip the exact price; one array read at every tick rather than two book lookups per token.
   */
  priceReach(): ReadonlyArray<PriceReach> {
    return this.priceReachCache ??= this.priceTokens().map((token) => ({
      token,
      above: this.books.above.get(token)?.lowestKey ?? Number.POSITIVE_INFINITY,
      below: -(this.books.below.get(token)?.lowestKey ?? Number.POSITIVE_INFINITY)
    }))
  }

  /**
   * Takes the price alerts of `token` that `price` meets (`above`: price >= target; `below`:
   * price <= target) and that were armed at or before `at`, appending them to `into`.
   */
  takePrice(token: string, price: number, rounding: () => RoundingSign, at: number, into: Array<ArmedAlert>): void {
    const above = this.books.above.get(token)
    if (above !== undefined && above.lowestKey! <= price) {
      this.take("above", token, above, (key) => key < price || (key === price && rounding() >= 0), at, into)
    }
    const below = this.books.below.get(token)
    if (below !== undefined && below.lowestKey! <= -price) {
      this.take("below", token, below, (key) => key < -price || (key === -price && rounding() <= 0), at, into)
    }
  }

  /** Takes the whale alerts of `token` whose `minValueUsd` one swap of `valueUsd` reaches. */
  takeWhale(token: string, valueUsd: number, at: number, into: Array<ArmedAlert>): void {
    const book = this.books.whale.get(token)
    if (book !== undefined && book.lowestKey! <= valueUsd) {
      this.take("whale", token, book, (key) => key <= valueUsd, at, into)
    }
  }

  /** Takes the volume alerts of `token` whose multiplier `reached` says is met (monotone). */
  takeVolume(token: string, reached: (multiplier: number) => boolean, at: number, into: Array<ArmedAlert>): void {
    const book = this.books.volume.get(token)
    if (book !== undefined) this.take("volume", token, book, reached, at, into)
  }

  /** Takes the portfolio alerts of `accountId` whose `changePercent` `reached` says is met (monotone). */
  takePortfolio(
    accountId: string,
    reached: (changePercent: number) => boolean,
    at: number,
    into: Array<ArmedAlert>
  ): void {
    const book = this.books.portfolio.get(accountId)
    if (book !== undefined) this.take("portfolio", accountId, book, reached, at, into)
  }

  private take(
    group: Group,
    name: string,
    book: ThresholdBook<AlertRecord>,
    reached: (key: number) => boolean,
    at: number,
    into: Array<ArmedAlert>
  ): void {
    const start = into.length
    book.takeWhile(reached, into)
    let kept = start
    for (let i = start; i < into.length; i++) {
      const entry = into[i]!
      // An observation older than the alert's arming cannot fire it: it stays watched.
      if (entry.value.armedAt > at) book.insert(entry)
      else {
        this.armed.delete(entry.value.id)
        into[kept++] = entry
      }
    }
    into.length = kept
    if (book.size === 0) this.dropBook(group, name)
    this.thresholdsMoved()
  }

  /** The lowest thresholds may have moved: the answers kept from them are stale. */
  private thresholdsMoved(): void {
    this.lowestWhaleCache = undefined
    this.priceReachCache = undefined
  }

  private dropBook(group: Group, name: string): void {
    this.books[group].delete(name)
    this.priceTokensCache = undefined
  }
}

const unionOfKeys = (a: Map<string, unknown>, b: Map<string, unknown>): ReadonlyArray<string> => {
  if (b.size === 0) return Array.from(a.keys())
  const keys = new Set(a.keys())
  for (const key of b.keys()) keys.add(key)
  return Array.from(keys)
}
