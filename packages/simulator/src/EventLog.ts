/**
 * The simulator's ordered log of what happened: the record a run is replayed and compared by.
 * Entries carry market time and a sequence number; data is plain JSON (amounts as strings), so the
 * log serialises the same way every time. The log keeps only its most recent entries
 * (`RetainedLog`), so a long run holds a bounded amount of it (docs/simulator.md#the-event-log).
 */

/** How many entries the event log and the outbox keep by default (`SIM_LOG_MAX` on the server). */
export const DEFAULT_LOG_MAX = 100_000

export interface LoggedEvent {
  readonly seq: number
  /** Market time, ISO 8601 UTC. */
  readonly at: string
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
}

/** One page of a `RetainedLog`: its entries, oldest first, and the last `seq` returned (`null` when nothing follows). */
export interface LogPage<T> {
  readonly entries: ReadonlyArray<T>
  readonly nextAfter: number | null
}

/**
 * A retained log as data (docs/simulator.md#snapshots): the entries it keeps, oldest first, and how
 * many were ever appended. Entries are shared with the log, not copied: the log never changes an
 * entry in place (`update` replaces it), so sharing them is safe and keeps a snapshot cheap.
 */
export interface RetainedLogSnapshot<T> {
  readonly entries: ReadonlyArray<T>
  readonly appended: number
}

/**
 * An append-only sequence numbered from 1 that keeps its most recent `max` entries in a ring: an
 * append past `max` overwrites the oldest. Sequence numbers are never reused, so a reader's cursor
 * (`after`) stays meaningful as old entries are dropped; a cursor older than the window reads from
 * the oldest kept entry.
 */
export class RetainedLog<T extends { readonly seq: number }> {
  private readonly ring: Array<T> = []
  private appended = 0
  /** The oldest seq the log can still hold: 1, or where a restored window began. */
  private floor = 1

  readonly max: number

  constructor(max: number = DEFAULT_LOG_MAX) {
    this.max = max
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`a log keeps at least 1 entry (found ${max})`)
  }

  /** Appends the entry `make` builds for the next sequence number. */
  push(make: (seq: number) => T): void {
    const seq = ++this.appended
    this.ring[(seq - 1) % this.max] = make(seq)
  }

  /** Replaces entry `seq` with what `change` makes of it, while the ring still keeps it. */
  update(seq: number, change: (entry: T) => T): void {
    if (seq < this.firstSeq || seq > this.appended) return
    const slot = (seq - 1) % this.max
    this.ring[slot] = change(this.ring[slot]!)
  }

  /** The sequence number of the oldest entry kept (1 until the ring wraps; `appended + 1` when empty). */
  get firstSeq(): number {
    return Math.max(this.floor, this.appended - this.max + 1)
  }

  /** How many entries were ever appended (the last `seq`). */
  get length(): number {
    return this.appended
  }

  /** Up to `limit` entries with a `seq` after `after`, oldest first. */
  page(after: number, limit: number): LogPage<T> {
    const from = Math.max(after + 1, this.firstSeq)
    const to = Math.min(this.appended, from + limit - 1)
    const entries: Array<T> = []
    for (let seq = from; seq <= to; seq++) entries.push(this.ring[(seq - 1) % this.max]!)
    return { entries, nextAfter: to < this.appended && entries.length > 0 ? to : null }
  }

  /** Every entry kept, oldest first. */
  get all(): ReadonlyArray<T> {
    return this.page(0, this.max).entries
  }

  /** The log now: its window and its sequence counter. */
  snapshot(): RetainedLogSnapshot<T> {
    return { entries: this.all, appended: this.appended }
  }

  /**
   * Makes this fresh log go on from `snapshot`: the next append gets the sequence number the
   * original's would have. A smaller `max` than the original's keeps only the newest entries; a
   * larger one keeps the snapshot's window and grows from there.
   */
  continueFrom(snapshot: RetainedLogSnapshot<T>): this {
    if (this.appended > 0) throw new Error("only a fresh log can continue from a snapshot")
    const { entries, appended } = snapshot
    const first = appended - entries.length + 1
    if (!Number.isInteger(appended) || first < 1 || entries.some((e, i) => e.seq !== first + i)) {
      throw new Error(`a log snapshot must hold consecutive entries ending at ${appended}`)
    }
    this.appended = appended
    this.floor = first
    for (const entry of entries.slice(-this.max)) this.ring[(entry.seq - 1) % this.max] = entry
    return this
  }
}

export class EventLog extends RetainedLog<LoggedEvent> {
  /** Logs `type` with `data` at market time `atMs`. */
  append(atMs: number, type: string, data: Readonly<Record<string, unknown>>): void {
    this.push((seq) => ({ seq, at: new Date(atMs).toISOString(), type, data }))
  }
}
