/**
 * What makes each simulated network behave like its real counterpart: how fast blocks come, how
 * many follow a transaction before it counts as final, how often a broadcast is lost, and what a
 * swap costs in gas. A scenario overrides any field per network; the rest come from
 * `defaultNetworkParams`.
 */
import type { Network } from "@swapdesk/core"

/** The chain model's knobs for one network. */
export interface NetworkParams {
  /** Time between two blocks (slots on solana). Blocks fall on multiples of it in market time. */
  readonly blockTimeMs: number
  /** Blocks after the inclusion block until the trade is `confirmed` (the network's finality). */
  readonly confirmations: number
  /** Probability in [0, 1] that a broadcast transaction is lost and the trade fails with `NETWORK_ERROR`. */
  readonly failureRate: number
  /**
   * Gas a swap consumes. EVM: gas units of a typical DEX-aggregator swap. Solana: signatures (one),
   * since its fee is charged per signature rather than per compute unit.
   */
  readonly gasUnitsPerSwap: number
  /**
   * Native base units per gas unit when the network is calm. EVM: wei per gas (the base fee plus a
   * typical tip). Solana: lamports per signature (the 5 000-lamport base fee plus a typical
   * priority fee).
   */
  readonly baseGasPrice: bigint
}

const GWEI = 1_000_000_000n

/**
 * Realistic defaults (mainnets, 2025). Confirmations are what a careful wallet waits for: solana's
 * 32 slots (finalized commitment, ~12.8 s); two blocks on ethereum (~24 s: enough to be safe from
 * ordinary reorgs, far short of the ~13 min epoch finality nobody waits for in a swap UI); on the
 * rollups their sequencer's soft confirmation, a few seconds (base: 5 blocks of 2 s; arbitrum: 20
 * blocks of 250 ms).
 */
export const defaultNetworkParams: Readonly<Record<Network, NetworkParams>> = {
  solana: {
    blockTimeMs: 400,
    confirmations: 32,
    // Solana drops transactions under load more often than the EVM chains do.
    failureRate: 0.01,
    gasUnitsPerSwap: 1,
    // 5 000 base + 5 000 priority lamports: 0.00001 SOL per swap.
    baseGasPrice: 10_000n
  },
  ethereum: {
    blockTimeMs: 12_000,
    confirmations: 2,
    failureRate: 0.002,
    gasUnitsPerSwap: 150_000,
    // 10 gwei: 0.0015 ETH per swap.
    baseGasPrice: 10n * GWEI
  },
  base: {
    blockTimeMs: 2_000,
    confirmations: 5,
    failureRate: 0.002,
    gasUnitsPerSwap: 150_000,
    // 0.05 gwei, L1 data fee folded in: 0.0000075 ETH per swap.
    baseGasPrice: 50_000_000n
  },
  arbitrum: {
    blockTimeMs: 250,
    confirmations: 20,
    failureRate: 0.002,
    // Arbitrum's gas units include the L1 calldata component, hence more units than on ethereum.
    gasUnitsPerSwap: 400_000,
    // 0.01 gwei: 0.000004 ETH per swap.
    baseGasPrice: 10_000_000n
  }
}

/** Throws (a defect) when parameters cannot describe a network, so a bad scenario fails at start. */
export const assertNetworkParams = (network: Network, params: NetworkParams): void => {
  const fail = (what: string): never => {
    throw new RangeError(`network ${network}: ${what}`)
  }
  if (!Number.isSafeInteger(params.blockTimeMs) || params.blockTimeMs <= 0) {
    fail("blockTimeMs must be a positive integer")
  }
  if (!Number.isSafeInteger(params.confirmations) || params.confirmations < 0) {
    fail("confirmations must be a non-negative integer")
  }
  if (!(params.failureRate >= 0 && params.failureRate <= 1)) fail("failureRate must lie in [0, 1]")
  if (!Number.isSafeInteger(params.gasUnitsPerSwap) || params.gasUnitsPerSwap < 0) {
    fail("gasUnitsPerSwap must be a non-negative integer")
  }
  if (params.baseGasPrice < 0n) fail("baseGasPrice must not be negative")
}
