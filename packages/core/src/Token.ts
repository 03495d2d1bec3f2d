/**
 * A token as the registry lists it: its ticker, decimals and contract address on each network it
 * exists on. Which tokens exist is the `TokenRegistry`'s business (docs/decisions.md, "The token
 * registry is a port").
 */
import type { Network } from "./Network.ts"

/** Marks the native gas token in `addresses` (the EVM convention for "no contract"). */
export const NATIVE_EVM_ADDRESS = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

/** A tradable token: its ticker, decimals, and its contract (or mint) address on each network it exists on. */
export interface Token {
  /** Upper-case ticker, the canonical name in every response. */
  readonly symbol: string
  readonly name: string
  /** Base-unit exponent: an amount of `1` is `10^decimals` base units. Equal on every network listed. */
  readonly decimals: number
  /** The network where the token is mostly traded (reported by trending). */
  readonly primaryNetwork: Network
  /** Contract (or mint) address per network where the token exists. */
  readonly addresses: Readonly<Partial<Record<Network, string>>>
  /** Pegged to one US dollar; the simulator keeps it within a tight band. */
  readonly stablecoin: boolean
}
