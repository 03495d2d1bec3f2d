/**
 * The simulator's ordered log of what happened: the record a run is replayed and compared by.
 * Entries carry market time and a sequence number; data is plain JSON (amounts as strings), so the
 * log serialises the same way every time.
 */

export interface LoggedEvent {
  readonly seq: number
  /** Market time, ISO 8601 UTC. */
  readonly at: string
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
}

export class EventLog {
  private readonly entries: Array<LoggedEvent> = []

  append(atMs: number, type: string, data: Readonly<Record<string, unknown>>): void {
    this.entries.push({ seq: this.entries.length + 1, at: new Date(atMs).toISOString(), type, data })
  }

  get all(): ReadonlyArray<LoggedEvent> {
    return this.entries
  }

  get length(): number {
    return this.entries.length
  }
}
