/**
 * The EVM networks live mode serves and the chain id each one must answer with: a
 * node that reports another chain id is not that network.
 */
import { evmChainIds, type Network } from "@swapdesk/core"
import { Schema } from "effect"
import type { Address } from "viem"

/** The networks served by the EVM adapters: every network but `solana`. */
export const evmNetworks = ["ethereum", "base", "arbitrum"] as const satisfies ReadonlyArray<Network>

/** An EVM network's name, as the API spells it. */
export const EvmNetwork = Schema.Literals(evmNetworks)
export type EvmNetwork = typeof EvmNetwork.Type

/** The chain id of each network (EIP-155), the one its RPC's `eth_chainId` must report. */
export const chainIdOf: Readonly<Record<EvmNetwork, number>> = evmChainIds

/** Whether a core network is served by the EVM adapters. */
export const isEvmNetwork = (network: Network): network is EvmNetwork => network !== "solana"

/** The address that stands for the native coin (ETH) in orders and in the contract's calls. */
export const nativeTokenAddress: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"
