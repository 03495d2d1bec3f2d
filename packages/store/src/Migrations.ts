/**
 * The store's schema, as Effect Migrator migrations that run on SQLite and PostgreSQL alike. The
 * Migrator runs them in one transaction (PostgreSQL also locks its table), so several processes
 * starting at once apply each migration exactly once. Each record's columns hold what queries
 * filter and sort on; the whole record is kept as JSON in `doc` (see RecordCodec).
 */
import { Effect } from "effect"
import { Migrator, SqlClient } from "effect/sql"

const initial = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE swapdesk_accounts (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE TABLE swapdesk_api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT,
    last_used_at BIGINT,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_api_keys_account ON swapdesk_api_keys (account_id, created_at)`
  yield* sql`CREATE TABLE swapdesk_alerts (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    type TEXT NOT NULL,
    token TEXT,
    channel TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_alerts_account ON swapdesk_alerts (account_id, created_at)`
  yield* sql`CREATE INDEX swapdesk_alerts_status ON swapdesk_alerts (status, created_at)`
  yield* sql`CREATE TABLE swapdesk_trades (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    token_in TEXT NOT NULL,
    token_out TEXT NOT NULL,
    network TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_trades_account ON swapdesk_trades (account_id, created_at)`
  yield* sql`CREATE TABLE swapdesk_orders (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    token_in TEXT NOT NULL,
    token_out TEXT NOT NULL,
    network TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_orders_account ON swapdesk_orders (account_id, created_at)`
  yield* sql`CREATE INDEX swapdesk_orders_status ON swapdesk_orders (status)`
  yield* sql`CREATE TABLE swapdesk_webhooks (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_webhooks_account ON swapdesk_webhooks (account_id)`
  yield* sql`CREATE TABLE swapdesk_webhook_deliveries (
    id TEXT PRIMARY KEY,
    subscription_id TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    doc TEXT NOT NULL
  )`
  yield* sql`CREATE INDEX swapdesk_webhook_deliveries_subscription ON swapdesk_webhook_deliveries (subscription_id, created_at)`
  yield* sql`CREATE TABLE swapdesk_idempotency (
    account_id TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    claimed_at BIGINT NOT NULL,
    response_status INTEGER,
    response_body TEXT,
    PRIMARY KEY (account_id, idempotency_key)
  )`
})

// The simulator server that owns the database, and whether a simulation ran on it (SimulatorLock).
const simulatorOwner = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE swapdesk_simulator (
    id INTEGER PRIMARY KEY,
    pid INTEGER,
    host TEXT,
    started_at BIGINT NOT NULL
  )`
})

// The simulator's journal: every call that changed the world, in order, with the market time it
// was applied at; and how each notification attempt on a real channel ended (SimulatorJournal,
// docs/storage.md#what-a-restart-restores).
const simulatorJournal = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE swapdesk_journal (
    seq BIGINT PRIMARY KEY,
    at BIGINT NOT NULL,
    op TEXT NOT NULL,
    args TEXT NOT NULL
  )`
  yield* sql`CREATE TABLE swapdesk_notification_attempts (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL
  )`
})

/** Every migration, by `<id>_<name>`. */
export const migrations = Migrator.fromRecord({
  "1_initial": initial,
  "2_simulator_owner": simulatorOwner,
  "3_simulator_journal": simulatorJournal
})

/** Brings the database's schema up to date; safe when several processes run it at once. */
export const migrate = Migrator.make({})({ loader: migrations, table: "swapdesk_migrations" })
