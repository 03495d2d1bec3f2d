/**
 * `@swapdesk/store`: the repository ports of `@swapdesk/core` on SQLite and PostgreSQL.
 */
export * from "./AccountWritesSql.ts"
export * from "./CachedRepositories.ts"
export * from "./Migrations.ts"
export * from "./RecordCodec.ts"
export * from "./RestoringRepositories.ts"
export * from "./SimulatorJournal.ts"
export * from "./SimulatorLock.ts"
export * from "./SimulatorSnapshots.ts"
export * as SqliteClient from "./SqliteClient.ts"
export * from "./SqlRepositories.ts"
export * as SqlStore from "./SqlStore.ts"
export * from "./StoreRevision.ts"
export * from "./UnansweredClaims.ts"
