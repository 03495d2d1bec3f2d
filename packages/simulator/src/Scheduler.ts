/**
 * The simulator's agenda: actions due at a market time, run in (time, sequence) order. The sequence
 * number is given at scheduling, so two actions due at the same instant run in the order they were
 * scheduled: that order, not the heap's layout, is what makes a run replay byte for byte.
 */

/**
 * An agenda as data (docs/simulator.md#snapshots): its entries and the next sequence number, so that
 * a restored agenda numbers new entries exactly as the original would have.
 */
export interface SchedulerSnapshot<A> {
  readonly entries: ReadonlyArray<Scheduled<A>>
  readonly nextSeq: number
}

export interface Scheduled<A> {
  readonly at: number
  readonly seq: number
  readonly action: A
}

/** A binary min-heap on (at, seq). */
export class Scheduler<A> {
  private readonly heap: Array<Scheduled<A>> = []
  private nextSeq = 0

  /**
   * The agenda now, in heap order. Entries are copied; their actions are shared, so a snapshot is
   * only data when the actions are (the caller's concern).
   */
  snapshot(): SchedulerSnapshot<A> {
    return { entries: this.heap.map(({ at, seq, action }) => ({ at, seq, action })), nextSeq: this.nextSeq }
  }

  /** An agenda that goes on exactly as the one `snapshot` was taken from. */
  static restore<A>(snapshot: SchedulerSnapshot<A>): Scheduler<A> {
    const scheduler = new Scheduler<A>()
    for (const { at, seq, action } of snapshot.entries) {
      if (!(seq < snapshot.nextSeq)) {
        throw new Error(`agenda entry ${seq} is not before the next sequence ${snapshot.nextSeq}`)
      }
      scheduler.heap.push({ at, seq, action })
      scheduler.siftUp(scheduler.heap.length - 1)
    }
    scheduler.nextSeq = snapshot.nextSeq
    return scheduler
  }

  get size(): number {
    return this.heap.length
  }

  schedule(at: number, action: A): Scheduled<A> {
    const entry = { at, seq: this.nextSeq++, action }
    this.heap.push(entry)
    this.siftUp(this.heap.length - 1)
    return entry
  }

  /** The earliest entry's time, or undefined when nothing is scheduled. */
  peekTime(): number | undefined {
    return this.heap[0]?.at
  }

  /** Removes and answers the earliest entry due at or before `until`. */
  popDue(until: number): Scheduled<A> | undefined {
    const top = this.heap[0]
    if (top === undefined || top.at > until) return undefined
    const last = this.heap.pop()!
    if (this.heap.length > 0) {
      this.heap[0] = last
      this.siftDown(0)
    }
    return top
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i]!, b = this.heap[j]!
    return a.at < b.at || (a.at === b.at && a.seq < b.seq)
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!
    this.heap[i] = this.heap[j]!
    this.heap[j] = t
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(i, parent)) return
      this.swap(i, parent)
      i = parent
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length
    for (;;) {
      const l = 2 * i + 1, r = l + 1
      let m = i
      if (l < n && this.before(l, m)) m = l
      if (r < n && this.before(r, m)) m = r
      if (m === i) return
      this.swap(i, m)
      i = m
    }
  }
}
