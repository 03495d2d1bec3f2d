/**
 * Snapshots of a simulator server's world, so that a restart replays only the journal written
 * since the last one (docs/storage.md#snapshots). A snapshot holds the simulated world as the
 * simulator hands it over (plain data: the market, the chains, the wallets, the event log, the
 * use cases' indexes) and, read in the same transaction, every stored record as it stood then: the
 * calls replayed after it must see the records as they were when they first ran, not as the
 * crash left them. The journal entries it covers are deleted with it, which keeps the journal
 * short. One snapshot is kept: each new one replaces the last.
 */
import type {
  Account,
  AlertRecord,
  ApiKeyRecord,
  OrderRecord,
  TradeRecord,
  WebhookDeliveryRecord,
  WebhookRecord
} from "@swapdesk/core"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { deserialize, serialize } from "node:v8"
import { decodeRecord } from "./RecordCodec.ts"

/** Every stored record, as a snapshot keeps them (each table's rows by creation, then id). */
export interface SnapshotRecords {
  readonly accounts: ReadonlyArray<Account>
  readonly apiKeys: ReadonlyArray<ApiKeyRecord>
  readonly alerts: ReadonlyArray<AlertRecord>
  readonly trades: ReadonlyArray<TradeRecord>
  readonly orders: ReadonlyArray<OrderRecord>
  readonly webhooks: ReadonlyArray<WebhookRecord>
  readonly deliveries: ReadonlyArray<WebhookDeliveryRecord>
}

/** A stored snapshot. */
export interface StoredSnapshot {
  /** The last journal entry whose call it includes: a restore replays the entries after it. */
  readonly journalSeq: number
  /** Market time (ms) when it was taken. */
  readonly at: number
  /** The simulated world, as the simulator handed it over. */
  readonly world: unknown
  readonly records: SnapshotRecords
}

/** The format of the `doc` column, checked on reading so a later format can refuse this one clearly. */
const FORMAT = 1

interface SnapshotRow {
  readonly journal_seq: number | string
  readonly at: number | string
  readonly doc: string
}

export class SimulatorSnapshots extends Context.Service<SimulatorSnapshots, {
  /** The newest snapshot, if one was taken. */
  readonly latest: Effect.Effect<Option.Option<StoredSnapshot>>
  /**
   * Stores `world`, taken after journal entry `journalSeq` had run, with the records as they stand
   * now; replaces the snapshot before it and deletes the journal entries it covers. Answers the
   * stored document's size in bytes.
   */
  readonly save: (journalSeq: number, at: number, world: unknown) => Effect.Effect<number>
}>()("@swapdesk/store/SimulatorSnapshots") {
  /** Snapshots in the store's `swapdesk_snapshots` table. */
  static readonly layerSql = Layer.effect(
    SimulatorSnapshots,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = <A>(name: string) =>
        Effect.map(
          sql<{ readonly doc: string }>`SELECT doc FROM ${sql(name)} ORDER BY created_at, id`,
          (rows) => rows.map((row) => decodeRecord<A>(row.doc))
        )
      const records = Effect.all({
        accounts: Effect.map(
          sql<{ readonly doc: string }>`SELECT doc FROM swapdesk_accounts ORDER BY id`,
          (rows) => rows.map((row) => decodeRecord<Account>(row.doc))
        ),
        apiKeys: table<ApiKeyRecord>("swapdesk_api_keys"),
        alerts: table<AlertRecord>("swapdesk_alerts"),
        trades: table<TradeRecord>("swapdesk_trades"),
        orders: table<OrderRecord>("swapdesk_orders"),
        webhooks: table<WebhookRecord>("swapdesk_webhooks"),
        deliveries: table<WebhookDeliveryRecord>("swapdesk_webhook_deliveries")
      })
      return {
        latest: Effect.orDie(Effect.gen(function*() {
          const [row] = yield* sql<SnapshotRow>`SELECT journal_seq, at, doc FROM swapdesk_snapshots
            ORDER BY journal_seq DESC LIMIT 1`
          if (row === undefined) return Option.none()
          const doc = deserialize(Buffer.from(row.doc, "base64")) as {
            readonly format: number
            readonly world: unknown
            readonly records: SnapshotRecords
          }
          if (doc.format !== FORMAT) {
            return yield* Effect.die(
              new Error(`the stored snapshot has format ${doc.format}; this server reads format ${FORMAT}`)
            )
          }
          return Option.some({
            journalSeq: Number(row.journal_seq),
            at: Number(row.at),
            world: doc.world,
            records: doc.records
          })
        })),
        save: (journalSeq, at, world) =>
          Effect.orDie(sql.withTransaction(Effect.gen(function*() {
            // Text, not a binary column: both drivers carry it the same way, for a third more bytes.
            const doc = serialize({ format: FORMAT, world, records: yield* records }).toString("base64")
            yield* sql`DELETE FROM swapdesk_snapshots`
            yield* sql`INSERT INTO swapdesk_snapshots ${sql.insert({ journal_seq: journalSeq, at, doc })}`
            yield* sql`DELETE FROM swapdesk_journal WHERE seq <= ${journalSeq}`
            return doc.length
          })))
      }
    })
  )
}
