/**
 * The chain index in the database (the store's `7_chain_index` tables): one network's batch of
 * indexed blocks written in one transaction (swaps, transfers, the holders' balances, the candles
 * of every timeframe, the blocks' hashes and the cursor), the roll-back to a reorganisation's common
 * ancestor, and the reads market data is built from. Identical on SQLite and PostgreSQL.
 */
import type { Timeframe } from "@swapdesk/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { candleSums, mergeCandle, periodOf, type StoredCandle } from "./IndexedCandles.ts"

/** An indexed swap of a listed token against its pool's other token. */
export interface IndexedSwap {
  readonly blockHash: string
  readonly logIndex: number
  readonly blockNumber: bigint
  /** The block's timestamp, in ms. */
  readonly at: number
  /** The token's upper-case symbol. */
  readonly token: string
  /** `buy` when the token left the pool. */
  readonly side: "buy" | "sell"
  /** The token's amount, in whole tokens (exact decimal text). */
  readonly amount: string
  readonly priceUsd: string
  readonly valueUsd: string
  /** Worth at least `whaleThresholdUsd`. */
  readonly whale: boolean
}

/** An indexed ERC-20 transfer of a listed token. */
export interface IndexedTransfer {
  readonly blockHash: string
  readonly logIndex: number
  readonly blockNumber: bigint
  readonly token: string
  readonly from: string
  readonly to: string
  readonly amount: bigint
}

/** A block the index has seen: its number, hash and timestamp (ms). */
export interface IndexedBlock {
  readonly number: bigint
  readonly hash: string
  readonly time: number
}

/** What one step of the indexer adds, blocks `cursor` included and below, in chain order. */
export interface IndexBatch {
  readonly swaps: ReadonlyArray<IndexedSwap>
  readonly transfers: ReadonlyArray<IndexedTransfer>
  /** Blocks that had logs. */
  readonly blocks: ReadonlyArray<IndexedBlock>
  /** The last block of the batch: the new cursor. */
  readonly cursor: IndexedBlock
}

/** A swap worth at least this much (USD) is whale activity. */
export const whaleThresholdUsd = 100_000

const CHUNK = 400
// Statements bind at most a few thousand values (SQLite's and PostgreSQL's limits are far above).
const chunks = <A>(items: ReadonlyArray<A>): Array<readonly [A, ...Array<A>]> => {
  const out: Array<readonly [A, ...Array<A>]> = []
  for (let i = 0; i < items.length; i += CHUNK) {
    out.push(items.slice(i, i + CHUNK) as unknown as readonly [A, ...Array<A>])
  }
  return out
}

// Balances are kept as zero-padded text: text order is then numeric order (the top holders).
const BALANCE_DIGITS = 78
const padBalance = (balance: bigint) => balance.toString().padStart(BALANCE_DIGITS, "0")

const zeroAddress = "0x0000000000000000000000000000000000000000"

interface CandleRow {
  readonly open_time: unknown
  readonly open: string
  readonly high: string
  readonly low: string
  readonly close: string
  readonly volume_usd: string
  readonly buy_volume_usd: string
}

const candleOf = (row: CandleRow): StoredCandle => ({
  openTime: Number(row.open_time),
  open: row.open,
  high: row.high,
  low: row.low,
  close: row.close,
  volumeUsd: row.volume_usd,
  buyVolumeUsd: row.buy_volume_usd
})

/** The index's statements on the client in context. */
export const makeIndexStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const cursor = (network: string): Effect.Effect<IndexedBlock | undefined, SqlError> =>
    Effect.map(
      sql<
        { block_number: unknown; block_hash: string; block_time: unknown }
      >`SELECT block_number, block_hash, block_time
        FROM swapdesk_index_cursor WHERE network = ${network}`,
      (rows) =>
        rows[0] === undefined
          ? undefined
          : {
            number: BigInt(String(rows[0].block_number)),
            hash: rows[0].block_hash,
            time: Number(rows[0].block_time)
          }
    )

  /** Adds `swaps` (in chain order) to the stored candles of every timeframe. */
  const rollUp = (network: string, swaps: ReadonlyArray<IndexedSwap>) =>
    Effect.gen(function*() {
      const byToken = new Map<string, Array<IndexedSwap>>()
      for (const swap of swaps) {
        const list = byToken.get(swap.token)
        if (list === undefined) byToken.set(swap.token, [swap])
        else list.push(swap)
      }
      for (const [token, tokenSwaps] of byToken) {
        for (const [timeframe, sums] of candleSums(tokenSwaps)) {
          const periods = [...sums.keys()]
          const existing = new Map<number, StoredCandle>()
          for (const part of chunks(periods)) {
            const rows = yield* sql<CandleRow>`SELECT open_time, open, high, low, close, volume_usd, buy_volume_usd
              FROM swapdesk_index_candles WHERE network = ${network} AND token = ${token}
              AND timeframe = ${timeframe} AND ${sql.in("open_time", part)}`
            for (const row of rows) existing.set(Number(row.open_time), candleOf(row))
          }
          const rows = [...sums.values()].map((sum) => {
            const c = mergeCandle(existing.get(sum.openTime), sum)
            return {
              network,
              token,
              timeframe,
              open_time: c.openTime,
              open: c.open,
              high: c.high,
              low: c.low,
              close: c.close,
              volume_usd: c.volumeUsd,
              buy_volume_usd: c.buyVolumeUsd
            }
          })
          for (const part of chunks(rows)) {
            yield* sql`INSERT INTO swapdesk_index_candles ${sql.insert(part)}
              ON CONFLICT (network, token, timeframe, open_time) DO UPDATE SET open = excluded.open,
              high = excluded.high, low = excluded.low, close = excluded.close,
              volume_usd = excluded.volume_usd, buy_volume_usd = excluded.buy_volume_usd`
          }
        }
      }
    })

  /** Applies `sign` × each transfer to the holders' balances (−1 undoes them). */
  const moveBalances = (network: string, transfers: ReadonlyArray<IndexedTransfer>, sign: 1n | -1n) =>
    Effect.gen(function*() {
      const deltas = new Map<string, Map<string, bigint>>()
      const add = (token: string, holder: string, amount: bigint) => {
        if (holder === zeroAddress || amount === 0n) return
        let byHolder = deltas.get(token)
        if (byHolder === undefined) deltas.set(token, byHolder = new Map())
        byHolder.set(holder, (byHolder.get(holder) ?? 0n) + amount)
      }
      for (const t of transfers) {
        add(t.token, t.from, -sign * t.amount)
        add(t.token, t.to, sign * t.amount)
      }
      for (const [token, byHolder] of deltas) {
        const holders = [...byHolder.keys()]
        const current = new Map<string, bigint>()
        for (const part of chunks(holders)) {
          const rows = yield* sql<{ holder: string; balance: string }>`SELECT holder, balance
            FROM swapdesk_index_balances WHERE network = ${network} AND token = ${token} AND ${sql.in("holder", part)}`
          for (const row of rows) current.set(row.holder, BigInt(row.balance))
        }
        const upserts: Array<{ network: string; token: string; holder: string; balance: string }> = []
        const emptied: Array<string> = []
        for (const [holder, delta] of byHolder) {
          if (delta === 0n) continue
          const balance = (current.get(holder) ?? 0n) + delta
          if (balance > 0n) upserts.push({ network, token, holder, balance: padBalance(balance) })
          else emptied.push(holder)
        }
        for (const part of chunks(upserts)) {
          yield* sql`INSERT INTO swapdesk_index_balances ${sql.insert(part)}
            ON CONFLICT (network, token, holder) DO UPDATE SET balance = excluded.balance`
        }
        for (const part of chunks(emptied)) {
          yield* sql`DELETE FROM swapdesk_index_balances WHERE network = ${network} AND token = ${token}
            AND ${sql.in("holder", part)}`
        }
      }
    })

  const setCursor = (network: string, block: IndexedBlock) =>
    sql`INSERT INTO swapdesk_index_cursor ${
      sql.insert({ network, block_number: Number(block.number), block_hash: block.hash, block_time: block.time })
    } ON CONFLICT (network) DO UPDATE SET block_number = excluded.block_number,
      block_hash = excluded.block_hash, block_time = excluded.block_time`

  const write = (network: string, batch: IndexBatch): Effect.Effect<void, SqlError> =>
    sql.withTransaction(Effect.gen(function*() {
      const swapRows = batch.swaps.map((s) => ({
        block_hash: s.blockHash,
        log_index: s.logIndex,
        network,
        block_number: Number(s.blockNumber),
        at: s.at,
        token: s.token,
        side: s.side,
        amount: s.amount,
        price_usd: s.priceUsd,
        value_usd: s.valueUsd,
        whale: s.whale ? 1 : 0
      }))
      for (const part of chunks(swapRows)) yield* sql`INSERT INTO swapdesk_index_swaps ${sql.insert(part)}`
      const transferRows = batch.transfers.map((t) => ({
        block_hash: t.blockHash,
        log_index: t.logIndex,
        network,
        block_number: Number(t.blockNumber),
        token: t.token,
        sender: t.from,
        recipient: t.to,
        amount: t.amount.toString()
      }))
      for (const part of chunks(transferRows)) yield* sql`INSERT INTO swapdesk_index_transfers ${sql.insert(part)}`
      yield* moveBalances(network, batch.transfers, 1n)
      yield* rollUp(network, batch.swaps)
      const blocks = new Map(batch.blocks.map((b) => [b.number, b]))
      blocks.set(batch.cursor.number, batch.cursor)
      const blockRows = [...blocks.values()].map((b) => ({
        network,
        block_number: Number(b.number),
        block_hash: b.hash
      }))
      for (const part of chunks(blockRows)) {
        yield* sql`INSERT INTO swapdesk_index_blocks ${
          sql.insert(part)
        } ON CONFLICT (network, block_number) DO UPDATE SET block_hash = excluded.block_hash`
      }
      yield* setCursor(network, batch.cursor)
    }))

  /** Stored block hashes below `below`, newest first. */
  const blocksBelow = (network: string, below: bigint, limit: number) =>
    Effect.map(
      sql<{ block_number: unknown; block_hash: string }>`SELECT block_number, block_hash FROM swapdesk_index_blocks
        WHERE network = ${network} AND block_number < ${Number(below)} ORDER BY block_number DESC LIMIT ${limit}`,
      (rows) => rows.map((r) => ({ number: BigInt(String(r.block_number)), hash: r.block_hash }))
    )

  /**
   * Forgets everything above `ancestor` (`undefined`: everything) and rebuilds the candles from
   * the first day a removed swap touched, so each figure is again what the remaining swaps say.
   */
  const rollBack = (network: string, ancestor: IndexedBlock | undefined): Effect.Effect<void, SqlError> =>
    sql.withTransaction(Effect.gen(function*() {
      const above = ancestor === undefined ? -1 : Number(ancestor.number)
      const touched = yield* sql<{ token: string; first_at: unknown }>`SELECT token, MIN(at) AS first_at
        FROM swapdesk_index_swaps WHERE network = ${network} AND block_number > ${above} GROUP BY token`
      const transfers = yield* sql<
        { block_hash: string; log_index: unknown; token: string; sender: string; recipient: string; amount: string }
      >`SELECT block_hash, log_index, token, sender, recipient, amount FROM swapdesk_index_transfers
        WHERE network = ${network} AND block_number > ${above}`
      yield* moveBalances(
        network,
        transfers.map((t) => ({
          blockHash: t.block_hash,
          logIndex: Number(t.log_index),
          blockNumber: 0n,
          token: t.token,
          from: t.sender,
          to: t.recipient,
          amount: BigInt(t.amount)
        })),
        -1n
      )
      yield* sql`DELETE FROM swapdesk_index_transfers WHERE network = ${network} AND block_number > ${above}`
      yield* sql`DELETE FROM swapdesk_index_swaps WHERE network = ${network} AND block_number > ${above}`
      yield* sql`DELETE FROM swapdesk_index_blocks WHERE network = ${network} AND block_number > ${above}`
      for (const { token, first_at } of touched) {
        const dayStart = periodOf("1d", Number(first_at))
        yield* sql`DELETE FROM swapdesk_index_candles WHERE network = ${network} AND token = ${token}
          AND open_time >= ${dayStart}`
        const remaining = yield* sql<{ at: unknown; side: "buy" | "sell"; price_usd: string; value_usd: string }>`
          SELECT at, side, price_usd, value_usd FROM swapdesk_index_swaps
          WHERE network = ${network} AND token = ${token} AND at >= ${dayStart}
          ORDER BY block_number, log_index`
        yield* rollUp(
          network,
          remaining.map((r) => ({
            blockHash: "",
            logIndex: 0,
            blockNumber: 0n,
            at: Number(r.at),
            token,
            side: r.side,
            amount: "0",
            priceUsd: r.price_usd,
            valueUsd: r.value_usd,
            whale: false
          }))
        )
      }
      if (ancestor === undefined) yield* sql`DELETE FROM swapdesk_index_cursor WHERE network = ${network}`
      else yield* setCursor(network, ancestor)
    }))

  /** Stored candles of `[fromMs, toMs)`, oldest first, and the last one before `fromMs`. */
  const candles = (network: string, token: string, timeframe: Timeframe, fromMs: number, toMs: number) =>
    Effect.gen(function*() {
      const rows = yield* sql<CandleRow>`SELECT open_time, open, high, low, close, volume_usd, buy_volume_usd
        FROM swapdesk_index_candles WHERE network = ${network} AND token = ${token} AND timeframe = ${timeframe}
        AND open_time >= ${fromMs} AND open_time < ${toMs} ORDER BY open_time`
      const before = yield* sql<CandleRow>`SELECT open_time, open, high, low, close, volume_usd, buy_volume_usd
        FROM swapdesk_index_candles WHERE network = ${network} AND token = ${token} AND timeframe = ${timeframe}
        AND open_time < ${fromMs} ORDER BY open_time DESC LIMIT 1`
      return { rows: rows.map(candleOf), before: before[0] === undefined ? undefined : candleOf(before[0]) }
    })

  /** The price of the last swap at or before `atMs`, else of the first swap; none when nothing is indexed. */
  const referencePrice = (network: string, token: string, atMs: number) =>
    Effect.gen(function*() {
      const last = yield* sql<{ price_usd: string }>`SELECT price_usd FROM swapdesk_index_swaps
        WHERE network = ${network} AND token = ${token} AND at <= ${atMs}
        ORDER BY at DESC, block_number DESC, log_index DESC LIMIT 1`
      if (last[0] !== undefined) return last[0].price_usd
      const first = yield* sql<{ price_usd: string }>`SELECT price_usd FROM swapdesk_index_swaps
        WHERE network = ${network} AND token = ${token} ORDER BY at, block_number, log_index LIMIT 1`
      return first[0]?.price_usd
    })

  /** Swaps worth at least the whale threshold with time in `(sinceMs, untilMs]`. */
  const whales = (network: string, token: string, sinceMs: number, untilMs: number) =>
    sql<{ side: "buy" | "sell"; value_usd: string }>`SELECT side, value_usd FROM swapdesk_index_swaps
      WHERE network = ${network} AND token = ${token} AND whale = 1 AND at > ${sinceMs} AND at <= ${untilMs}`

  /** How many addresses hold a positive balance, and the ten largest balances. */
  const holders = (network: string, token: string) =>
    Effect.gen(function*() {
      const count = yield* sql<{ n: unknown }>`SELECT COUNT(*) AS n FROM swapdesk_index_balances
        WHERE network = ${network} AND token = ${token}`
      const top = yield* sql<{ balance: string }>`SELECT balance FROM swapdesk_index_balances
        WHERE network = ${network} AND token = ${token} ORDER BY balance DESC LIMIT 10`
      return { count: Number(count[0]?.n ?? 0), top10: top.reduce((sum, r) => sum + BigInt(r.balance), 0n) }
    })

  /** The swaps of blocks `(afterBlock, upToBlock]`, in chain order. */
  const swapsBetween = (network: string, afterBlock: bigint, upToBlock: bigint) =>
    sql<
      { block_number: unknown; at: unknown; token: string; side: "buy" | "sell"; amount: string; value_usd: string }
    >`SELECT block_number, at, token, side, amount, value_usd
      FROM swapdesk_index_swaps WHERE network = ${network} AND block_number > ${Number(afterBlock)}
      AND block_number <= ${Number(upToBlock)} ORDER BY block_number, log_index`

  /** How many swaps the network's index holds. */
  const swapCount = (network: string) =>
    Effect.map(
      sql<{ n: unknown }>`SELECT COUNT(*) AS n FROM swapdesk_index_swaps WHERE network = ${network}`,
      (rows) => Number(rows[0]?.n ?? 0)
    )

  return {
    cursor,
    write,
    blocksBelow,
    rollBack,
    candles,
    referencePrice,
    whales,
    holders,
    swapsBetween,
    swapCount
  } as const
})

/** The index's statements. */
export type IndexStore = Effect.Success<typeof makeIndexStore>
