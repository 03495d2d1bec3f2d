/**
 * The store's schema, as Effect Migrator migrations that run on SQLite and PostgreSQL alike. The
 * Migrator runs them in one transaction (PostgreSQL also locks its table), so several processes
 * starting at once apply each migration exactly once. Each record's columns hold what queries
 * filter and sort on; the whole record is kept as JSON in `doc` (see RecordCodec).
 */
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

/**
 * `CREATE TABLE` for a table of records kept as documents (SqlRepositories' `documentTable`): the
 * record's `id`, the columns its queries filter and sort on, and the whole record in `doc`.
 */
const documentTable = (name: string, columns: ReadonlyArray<string>) =>
  `CREATE TABLE ${name} (
    ${["id TEXT PRIMARY KEY", ...columns, "doc TEXT NOT NULL"].join(",\n    ")}
  )`

/** A migration that is only statements, run in order. */
const statements = (...ddl: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => Effect.forEach(ddl, (statement) => sql.unsafe(statement), { discard: true })
  )

/** A migration of statements for PostgreSQL alone: SQLite needs nothing in its place. */
const onPostgres = (...ddl: ReadonlyArray<string>) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql.onDialectOrElse({ pg: () => statements(...ddl), orElse: () => Effect.void })
  )

/** The columns of a swap, as a trade or a limit order. */
const swapColumns = [
  "account_id TEXT NOT NULL",
  "status TEXT NOT NULL",
  "token_in TEXT NOT NULL",
  "token_out TEXT NOT NULL",
  "network TEXT NOT NULL",
  "created_at BIGINT NOT NULL"
]

const initial = statements(
  documentTable("swapdesk_accounts", []),
  documentTable("swapdesk_api_keys", [
    "account_id TEXT NOT NULL",
    "secret_hash TEXT NOT NULL UNIQUE",
    "created_at BIGINT NOT NULL",
    "revoked_at BIGINT",
    "last_used_at BIGINT"
  ]),
  "CREATE INDEX swapdesk_api_keys_account ON swapdesk_api_keys (account_id, created_at)",
  documentTable("swapdesk_alerts", [
    "account_id TEXT NOT NULL",
    "status TEXT NOT NULL",
    "type TEXT NOT NULL",
    "token TEXT",
    "channel TEXT NOT NULL",
    "created_at BIGINT NOT NULL"
  ]),
  "CREATE INDEX swapdesk_alerts_account ON swapdesk_alerts (account_id, created_at)",
  "CREATE INDEX swapdesk_alerts_status ON swapdesk_alerts (status, created_at)",
  documentTable("swapdesk_trades", swapColumns),
  "CREATE INDEX swapdesk_trades_account ON swapdesk_trades (account_id, created_at)",
  documentTable("swapdesk_orders", swapColumns),
  "CREATE INDEX swapdesk_orders_account ON swapdesk_orders (account_id, created_at)",
  "CREATE INDEX swapdesk_orders_status ON swapdesk_orders (status)",
  documentTable("swapdesk_webhooks", ["account_id TEXT NOT NULL", "created_at BIGINT NOT NULL"]),
  "CREATE INDEX swapdesk_webhooks_account ON swapdesk_webhooks (account_id)",
  documentTable("swapdesk_webhook_deliveries", [
    "subscription_id TEXT NOT NULL",
    "created_at BIGINT NOT NULL"
  ]),
  "CREATE INDEX swapdesk_webhook_deliveries_subscription ON swapdesk_webhook_deliveries (subscription_id, created_at)",
  `CREATE TABLE swapdesk_idempotency (
    account_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    PRIMARY KEY (account_id, idempotency_key)
  )`
)

// The simulator server that owns the database, and whether a simulation ran on it (SimulatorLock).
const simulatorOwner = statements(
  `CREATE TABLE swapdesk_simulator (
    id INTEGER PRIMARY KEY,
    pid INTEGER,
    host TEXT,
    started_at BIGINT NOT NULL
  )`
)

// The simulator's journal: every call that changed the world, in order, with the market time it
// was applied at; and how each notification attempt on a real channel ended (SimulatorJournal,
// docs/storage.md#what-a-restart-restores).
const simulatorJournal = statements(
  `CREATE TABLE swapdesk_journal (
    seq BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    op TEXT NOT NULL,
    args TEXT NOT NULL
  )`,
  `CREATE TABLE swapdesk_notification_attempts (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL
  )`
)

// PostgreSQL: the revision the caches compare (StoreRevision), moved on in the same transaction as
// any change to a key or an account. A key's last use (written once a second) is not a change a
// cache depends on, so it leaves the revision alone. SQLite needs none: its `data_version` does this.
const cacheRevision = onPostgres(
  "CREATE TABLE swapdesk_revision (id INTEGER PRIMARY KEY, n BIGINT NOT NULL)",
  "INSERT INTO swapdesk_revision (id, n) VALUES (1, 0)",
  `CREATE FUNCTION swapdesk_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE swapdesk_revision SET n = n + 1 WHERE id = 1; RETURN NULL; END $$`,
  `CREATE TRIGGER swapdesk_accounts_revision AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
    ON swapdesk_accounts FOR EACH STATEMENT EXECUTE FUNCTION swapdesk_bump_revision()`,
  `CREATE TRIGGER swapdesk_api_keys_revision AFTER INSERT OR DELETE OR TRUNCATE
    ON swapdesk_api_keys FOR EACH STATEMENT EXECUTE FUNCTION swapdesk_bump_revision()`,
  `CREATE TRIGGER swapdesk_api_keys_revision_update AFTER UPDATE ON swapdesk_api_keys
    FOR EACH ROW WHEN (OLD.doc IS DISTINCT FROM NEW.doc OR OLD.revoked_at IS DISTINCT FROM NEW.revoked_at
      OR OLD.secret_hash IS DISTINCT FROM NEW.secret_hash OR OLD.account_id IS DISTINCT FROM NEW.account_id)
    EXECUTE FUNCTION swapdesk_bump_revision()`
)

// A limit order's held funds move to the one trade that fills it (OrderMachine: an order matches
// once): the database refuses a second trade naming the same order, whichever process writes it.
const oneTradePerOrder = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.onDialectOrElse({
    pg: () =>
      sql.unsafe(`CREATE UNIQUE INDEX swapdesk_trades_order ON swapdesk_trades (((doc::jsonb) ->> 'orderId'))
        WHERE (doc::jsonb) ->> 'orderId' IS NOT NULL`),
    orElse: () =>
      sql.unsafe(`CREATE UNIQUE INDEX swapdesk_trades_order ON swapdesk_trades (json_extract(doc, '$.orderId'))
        WHERE json_extract(doc, '$.orderId') IS NOT NULL`)
  })
})

// The simulator's snapshots: its world and the records as they stood after one journal entry, so
// that a restart replays only the entries after it (SimulatorSnapshots, docs/storage.md#snapshots).
const simulatorSnapshots = statements(
  `CREATE TABLE swapdesk_snapshots (
    journal_seq BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
)

// Live mode's index of the chain (docs/live.md, "Market data from the chain"): per network the last
// indexed block and the hashes of indexed blocks (to find a reorganisation's common ancestor), the
// pools' swaps and the tokens' transfers (unique by block hash and log index), the holders'
// balances (zero-padded decimal text, so that text order is numeric order), and candles rolled up
// per timeframe as swaps arrive. Amounts, prices and values are exact decimal text.
const chainIndex = statements(
  `CREATE TABLE swapdesk_index_cursor (
    network TEXT PRIMARY KEY,
    block_number BIGINT NOT NULL,
    block_hash TEXT NOT NULL,
    block_time BIGINT NOT NULL
  )`,
  `CREATE TABLE swapdesk_index_blocks (
    network TEXT NOT NULL,
    block_number BIGINT NOT NULL,
    block_hash TEXT NOT NULL,
    PRIMARY KEY (network, block_number)
  )`,
  `CREATE TABLE swapdesk_index_swaps (
    block_hash TEXT NOT NULL,
    log_index INTEGER NOT NULL,
    network TEXT NOT NULL,
    block_number BIGINT NOT NULL,
    at BIGINT NOT NULL,
    token TEXT NOT NULL,
    side TEXT NOT NULL,
    amount TEXT NOT NULL,
    price_usd TEXT NOT NULL,
    value_usd TEXT NOT NULL,
    whale INTEGER NOT NULL,
    PRIMARY KEY (block_hash, log_index)
  )`,
  "CREATE INDEX swapdesk_index_swaps_token ON swapdesk_index_swaps (network, token, at, block_number, log_index)",
  "CREATE INDEX swapdesk_index_swaps_block ON swapdesk_index_swaps (network, block_number)",
  "CREATE INDEX swapdesk_index_swaps_whale ON swapdesk_index_swaps (network, token, whale, at)",
  `CREATE TABLE swapdesk_index_transfers (
    block_hash TEXT NOT NULL,
    log_index INTEGER NOT NULL,
    network TEXT NOT NULL,
    block_number BIGINT NOT NULL,
    token TEXT NOT NULL,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount TEXT NOT NULL,
    PRIMARY KEY (block_hash, log_index)
  )`,
  "CREATE INDEX swapdesk_index_transfers_block ON swapdesk_index_transfers (network, block_number)",
  `CREATE TABLE swapdesk_index_balances (
    network TEXT NOT NULL,
    token TEXT NOT NULL,
    holder TEXT NOT NULL,
    balance TEXT NOT NULL,
    PRIMARY KEY (network, token, holder)
  )`,
  "CREATE INDEX swapdesk_index_balances_rank ON swapdesk_index_balances (network, token, balance)",
  `CREATE TABLE swapdesk_index_candles (
    network TEXT NOT NULL,
    token TEXT NOT NULL,
    timeframe TEXT NOT NULL,
    open_time BIGINT NOT NULL,
    open TEXT NOT NULL,
    high TEXT NOT NULL,
    low TEXT NOT NULL,
    close TEXT NOT NULL,
    volume_usd TEXT NOT NULL,
    buy_volume_usd TEXT NOT NULL,
    PRIMARY KEY (network, token, timeframe, open_time)
  )`
)

/** Every migration, by `<id>_<name>`. */
export const migrations = Migrator.fromRecord({
  "1_initial": initial,
  "2_simulator_owner": simulatorOwner,
  "3_simulator_journal": simulatorJournal,
  "4_cache_revision": cacheRevision,
  "5_one_trade_per_order": oneTradePerOrder,
  "6_simulator_snapshots": simulatorSnapshots,
  "7_chain_index": chainIndex
})

/** Brings the database's schema up to date; safe when several processes run it at once. */
export const migrate = Migrator.make({})({ loader: migrations, table: "swapdesk_migrations" })
