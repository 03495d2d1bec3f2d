/**
 * The four networks swapdesk executes on, and the native token each one pays gas in.
 */
import { Schema } from "effect"

export const networks = ["solana", "ethereum", "base", "arbitrum"] as const

/** A network of execution: `solana`, `ethereum`, `base` or `arbitrum`. */
export const Network = Schema.Literals(networks)
export type Network = typeof Network.Type

/** Gas is paid in the network's native token: SOL on solana, ETH on the three EVM networks. */
export const nativeTokenOf = (network: Network): "SOL" | "ETH" => network === "solana" ? "SOL" : "ETH"

export const isNetwork = (value: string): value is Network => (networks as ReadonlyArray<string>).includes(value)
