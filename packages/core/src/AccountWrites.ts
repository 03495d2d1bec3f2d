/**
 * Port: a write that depends on what an account already holds (the Free plan's alert limit), made
 * one unit against every other writer of that account, in this process or any other. In memory the
 * use case's own lock is enough, so the effect runs as it is; a SQL store runs it in one transaction
 * that holds the account's row (docs/storage.md).
 */
import { Context, Effect } from "effect"

export class AccountWrites extends Context.Service<AccountWrites, {
  /** Runs `effect` holding `accountId` against every other writer until it ends; undone if it fails. */
  readonly serialize: <A, E, R>(accountId: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>()("@swapdesk/core/AccountWrites") {}

/** What a store without one does: the use case's lock in this process holds the account. */
export const inProcessAccountWrites: AccountWrites["Service"] = { serialize: (_accountId, effect) => effect }

/** The store's {@link AccountWrites}, or {@link inProcessAccountWrites} when it provides none. */
export const accountWrites: Effect.Effect<AccountWrites["Service"]> = Effect.map(
  Effect.serviceOption(AccountWrites),
  (found) => found._tag === "Some" ? found.value : inProcessAccountWrites
)
