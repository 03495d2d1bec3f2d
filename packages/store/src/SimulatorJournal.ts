/**
 * The simulator's journal: every call that changed the simulated world (a write through the API or
 * a control call), in the order it ran, with the market time it was applied at. The simulator is
 * deterministic, so the journal replayed from the scenario's seed rebuilds the whole world: that is
 * how a restarted server restores its simulation (docs/storage.md#what-a-restart-restores). An entry
 * is appended, and committed, before its call runs (write-ahead), so a call the server answered is
 * always in the journal; a crash during a call leaves that call as the last entry, which a restore
 * replays onto the stored records too.
 */
import type { WebhookDeliveryRecord } from "@swapdesk/core"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRecord, encodeRecord } from "./RecordCodec.ts"

/** One call, as the journal keeps it. */
export interface JournalEntry {
  /** From 1, without gaps: the order the calls ran in. */
  readonly seq: number
  /** Market time (ms) when the call was applied. */
  readonly at: number
  /** Which call (`trades.create`, `control.advance`, ...). */
  readonly op: string
  /** Its arguments, as plain data (bigints kept exact). */
  readonly args: unknown
}

interface JournalRow {
  readonly seq: number | string
  readonly at: number | string
  readonly op: string
  readonly args: string
}

/**
 * The journal of one database's simulation, and what a restore needs to know of the deliveries
 * that already went out; `layerSql` keeps it in the store's tables.
 */
export class SimulatorJournal extends Context.Service<SimulatorJournal, {
  /** Every entry, oldest first. */
  readonly entries: Effect.Effect<ReadonlyArray<JournalEntry>>
  /** The `seq` of the last entry appended, or covered by the latest snapshot (0 for none). */
  readonly lastSeq: Effect.Effect<number>
  /** Appends the next entry; it is committed when this returns. */
  readonly append: (at: number, op: string, args: unknown) => Effect.Effect<JournalEntry>
  /** Every webhook delivery attempt that ended (not `pending`), for a restore to know what went out. */
  readonly endedDeliveries: Effect.Effect<ReadonlyArray<WebhookDeliveryRecord>>
  /** How each notification attempt on a real channel ended, by the attempt's id. */
  readonly endedNotifications: Effect.Effect<ReadonlyMap<string, "sent" | "failed">>
  /** Records how a notification attempt ended. */
  readonly notificationEnded: (id: string, status: "sent" | "failed") => Effect.Effect<void>
}>()("@swapdesk/store/SimulatorJournal") {
  /** The journal in the store's `swapdesk_journal` table. */
  static readonly layerSql = Layer.effect(
    SimulatorJournal,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // A snapshot deletes the entries it covers: the numbering goes on after the higher of the last
      // entry and the snapshot's (SimulatorSnapshots), never again from 1.
      const [last] = yield* Effect.orDie(
        sql<{ readonly journal: number | string | null; readonly snapshot: number | string | null }>`
        SELECT (SELECT MAX(seq) FROM swapdesk_journal) AS journal,
          (SELECT MAX(journal_seq) FROM swapdesk_snapshots) AS snapshot`
      )
      // One simulator server per database (SimulatorLock), so this process numbers the entries.
      let seq = Math.max(Number(last?.journal ?? 0), Number(last?.snapshot ?? 0))
      return {
        entries: Effect.orDie(
          Effect.map(
            sql<JournalRow>`SELECT seq, at, op, args FROM swapdesk_journal ORDER BY seq`,
            (rows) =>
              rows.map((row) => ({
                seq: Number(row.seq),
                at: Number(row.at),
                op: row.op,
                args: decodeRecord<unknown>(row.args)
              }))
          )
        ),
        lastSeq: Effect.sync(() => seq),
        append: (at, op, args) =>
          Effect.suspend(() => {
            const entry = { seq: seq + 1, at, op, args }
            return Effect.orDie(
              sql`INSERT INTO swapdesk_journal ${sql.insert({ seq: entry.seq, at, op, args: encodeRecord(args) })}`
            ).pipe(Effect.map(() => {
              seq = entry.seq
              return entry
            }))
          }),
        endedDeliveries: Effect.orDie(Effect.map(
          sql<{ readonly doc: string }>`SELECT doc FROM swapdesk_webhook_deliveries`,
          (rows) =>
            rows.map((row) => decodeRecord<WebhookDeliveryRecord>(row.doc)).filter((d) => d.status !== "pending")
        )),
        endedNotifications: Effect.orDie(Effect.map(
          sql<{ readonly id: string; readonly status: "sent" | "failed" }>`
            SELECT id, status FROM swapdesk_notification_attempts`,
          (rows) => new Map(rows.map((row) => [row.id, row.status]))
        )),
        notificationEnded: (id, status) =>
          Effect.asVoid(Effect.orDie(sql`INSERT INTO swapdesk_notification_attempts ${sql.insert({ id, status })}
            ON CONFLICT (id) DO UPDATE SET status = excluded.status`))
      }
    })
  )
}
