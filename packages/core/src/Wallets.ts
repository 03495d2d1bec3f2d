/**
 * Port: the accounts' connected wallets, their balances and the holds that reserve funds for
 * pending trades and open orders. Reserving is atomic: funds behind one hold never back another.
 */
import { Context, type Effect, type Option } from "effect"
import type { InsufficientBalance } from "./Errors.ts"
import type { Network } from "./Network.ts"

export interface WalletInfo {
  readonly network: Network
  readonly address: string
  /** Trades are signed at once, without a manual approval step. */
  readonly delegatedSigning: boolean
}

export interface Balance {
  readonly free: bigint
  readonly reserved: bigint
}

export interface Hold {
  /** The trade or order the funds are held for. */
  readonly holdId: string
  readonly accountId: string
  readonly network: Network
  readonly token: string
  readonly amount: bigint
}

/** A wallet's balances (base units per token symbol) at the instant it was connected. */
export interface OpeningBalances {
  readonly at: number
  readonly balances: ReadonlyMap<string, bigint>
}

export class Wallets extends Context.Service<Wallets, {
  readonly wallet: (accountId: string, network: Network) => Effect.Effect<Option.Option<WalletInfo>>
  readonly list: (accountId: string) => Effect.Effect<ReadonlyArray<WalletInfo>>
  /** Every token the wallet holds or has held, in base units. */
  readonly balances: (accountId: string, network: Network) => Effect.Effect<ReadonlyMap<string, Balance>>
  /**
   * A number that changes whenever a balance of the account's wallets changes: what lets a reader
   * keep what it derived from the balances until they move.
   */
  readonly revision: (accountId: string) => Effect.Effect<number>
  /** Moves `amount` from free to reserved under `holdId`, or fails without moving anything. */
  readonly reserve: (hold: Hold) => Effect.Effect<void, InsufficientBalance>
  /** Returns a hold's funds to free balance (a cancelled order, a trade that never started). */
  readonly release: (holdId: string) => Effect.Effect<void>
  /**
   * Moves an open hold to a new id, its funds reserved throughout: a limit order's hold becoming
   * the hold of the trade that fills it.
   */
  readonly transferHold: (fromHoldId: string, toHoldId: string) => Effect.Effect<void>
  /**
   * What the wallet held when it was connected, and when: where the portfolio's history starts
   * (a balance held from the start takes that instant's price as its cost basis).
   */
  readonly opening: (accountId: string, network: Network) => Effect.Effect<OpeningBalances>
}>()("@swapdesk/core/Wallets") {}
