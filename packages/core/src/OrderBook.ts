/**
 * The limit order watcher's indexes, so that a market tick costs work in proportion to the pairs
 * with open orders and the orders that may fill, never to every open order (docs/orders.md,
 * "The watcher"):
 *
 * - by pair and threshold: each (network, tokenIn, tokenOut) keeps its open orders sorted by limit
 *   price (`minAmountOut / amountIn`, tokenOut per tokenIn). A swap never pays more than the spot
 *   rate (`price(tokenIn) / price(tokenOut)`: price impact and the fee only lower it), so only the
 *   orders whose limit is at or below the spot rate can fill, and they are a prefix of the sorted
 *   list. A tick where no order can fill reads one number per pair.
 * - by expiry: a min-heap of `expiresAt`, so expiring the due orders costs their number only.
 *
 * Limits are compared as floating-point numbers with a margin of one part in a billion in the
 * order's favour: the index only picks candidates, and each candidate is then checked exactly
 * against a quote in base units, so the margin can add a candidate but never lose a fill.
 */
import type { Network } from "./Network.ts"

/** What the index needs to know about an open order. */
export interface IndexedOrder {
  readonly id: string
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  /** `minAmountOut / amountIn` in whole tokens. */
  readonly limitPrice: number
  readonly expiresAt: number | null
}

/** A pair with open orders. */
export interface OrderPair {
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
}

const CANDIDATE_MARGIN = 1 + 1e-9

interface PairBook extends OrderPair {
  /** Ascending; ties keep arrival order (the older order first). */
  readonly limits: Array<number>
  readonly ids: Array<string>
}

/** The first position whose limit is greater than `limit` (after every equal one). */
const upperBound = (limits: ReadonlyArray<number>, limit: number): number => {
  let low = 0
  let high = limits.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (limits[middle]! <= limit) low = middle + 1
    else high = middle
  }
  return low
}

/** The first position whose limit is not less than `limit`. */
const lowerBound = (limits: ReadonlyArray<number>, limit: number): number => {
  let low = 0
  let high = limits.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (limits[middle]! < limit) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * An order book as plain data, for a snapshot of the simulation: the pairs in the order they are
 * walked, each pair's orders in the order they are tried, and the expiry heap as it stands, so a
 * restored book decides ties exactly as the original would have.
 */
export interface OrderBookSnapshot {
  readonly pairs: ReadonlyArray<
    OrderPair & { readonly limits: ReadonlyArray<number>; readonly ids: ReadonlyArray<string> }
  >
  readonly expiries: ReadonlyArray<{ readonly at: number; readonly sequence: number; readonly id: string }>
  readonly sequence: number
}

const pairKeyOf = (pair: OrderPair): string => `${pair.network}\u0000${pair.tokenIn}\u0000${pair.tokenOut}`

export class OrderBook {
  private readonly books = new Map<string, PairBook>()
  private readonly entries = new Map<string, { readonly pairKey: string; readonly limitPrice: number }>()
  /** A binary min-heap of (expiresAt, sequence, id); entries of orders gone are skipped when popped. */
  private readonly expiries: Array<{ readonly at: number; readonly sequence: number; readonly id: string }> = []
  private sequence = 0

  /** Open orders indexed. */
  get size(): number {
    return this.entries.size
  }

  add(order: IndexedOrder): void {
    if (this.entries.has(order.id)) throw new Error(`OrderBook: order ${order.id} is already indexed`)
    const pairKey = pairKeyOf(order)
    let book = this.books.get(pairKey)
    if (book === undefined) {
      book = { network: order.network, tokenIn: order.tokenIn, tokenOut: order.tokenOut, limits: [], ids: [] }
      this.books.set(pairKey, book)
    }
    const at = upperBound(book.limits, order.limitPrice)
    book.limits.splice(at, 0, order.limitPrice)
    book.ids.splice(at, 0, order.id)
    this.entries.set(order.id, { pairKey, limitPrice: order.limitPrice })
    if (order.expiresAt !== null) this.pushExpiry(order.expiresAt, order.id)
  }

  /** Takes an order out of the pair index (filling, cancelled, expired); answers whether it was there. */
  remove(id: string): boolean {
    const entry = this.entries.get(id)
    if (entry === undefined) return false
    this.entries.delete(id)
    const book = this.books.get(entry.pairKey)!
    let at = lowerBound(book.limits, entry.limitPrice)
    while (book.ids[at] !== id) at++
    book.limits.splice(at, 1)
    book.ids.splice(at, 1)
    if (book.ids.length === 0) this.books.delete(entry.pairKey)
    return true
  }

  has(id: string): boolean {
    return this.entries.has(id)
  }

  /** The pairs with open orders, in the order their first order arrived. */
  pairs(): IterableIterator<OrderPair> {
    return this.books.values()
  }

  /**
   * The orders of `pair` that may fill at the spot rate `spotRate` (tokenOut per tokenIn), lowest
   * limit first: a copy, so the caller may remove orders while it works through them.
   */
  candidates(pair: OrderPair, spotRate: number): ReadonlyArray<string> {
    const book = this.books.get(pairKeyOf(pair))
    if (book === undefined) return []
    const ceiling = spotRate * CANDIDATE_MARGIN
    if (!(book.limits[0]! <= ceiling)) return []
    return book.ids.slice(0, upperBound(book.limits, ceiling))
  }

  /** The book as plain data (copies: the book goes on changing). */
  snapshot(): OrderBookSnapshot {
    return {
      pairs: Array.from(this.books.values(), (book) => ({
        network: book.network,
        tokenIn: book.tokenIn,
        tokenOut: book.tokenOut,
        limits: [...book.limits],
        ids: [...book.ids]
      })),
      expiries: this.expiries.map((entry) => ({ ...entry })),
      sequence: this.sequence
    }
  }

  /** The book a snapshot was taken of, as it stood. */
  static restore(snapshot: OrderBookSnapshot): OrderBook {
    const book = new OrderBook()
    for (const pair of snapshot.pairs) {
      const pairKey = pairKeyOf(pair)
      book.books.set(pairKey, { ...pair, limits: [...pair.limits], ids: [...pair.ids] })
      pair.ids.forEach((id, i) => book.entries.set(id, { pairKey, limitPrice: pair.limits[i]! }))
    }
    book.expiries.push(...snapshot.expiries.map((entry) => ({ ...entry })))
    book.sequence = snapshot.sequence
    return book
  }

  /** Ids whose expiry is at or before `at`, earliest first, taken off the expiry heap (indexed ones only). */
  dueExpiries(at: number): ReadonlyArray<string> {
    const due: Array<string> = []
    while (this.expiries.length > 0 && this.expiries[0]!.at <= at) {
      const { id } = this.popExpiry()
      if (this.entries.has(id)) due.push(id)
    }
    return due
  }

  private pushExpiry(at: number, id: string): void {
    const heap = this.expiries
    heap.push({ at, sequence: this.sequence++, id })
    let child = heap.length - 1
    while (child > 0) {
      const parent = (child - 1) >>> 1
      if (!this.before(child, parent)) break
      ;[heap[child], heap[parent]] = [heap[parent]!, heap[child]!]
      child = parent
    }
  }

  private popExpiry() {
    const heap = this.expiries
    const top = heap[0]!
    const last = heap.pop()!
    if (heap.length > 0) {
      heap[0] = last
      let parent = 0
      for (;;) {
        const left = parent * 2 + 1
        const right = left + 1
        let smallest = parent
        if (left < heap.length && this.before(left, smallest)) smallest = left
        if (right < heap.length && this.before(right, smallest)) smallest = right
        if (smallest === parent) break
        ;[heap[smallest], heap[parent]] = [heap[parent]!, heap[smallest]!]
        parent = smallest
      }
    }
    return top
  }

  private before(a: number, b: number): boolean {
    const x = this.expiries[a]!
    const y = this.expiries[b]!
    return x.at < y.at || (x.at === y.at && x.sequence < y.sequence)
  }
}
