/**
 * The nonces of the delegated wallets' transactions. One lock per wallet and network (a wallet has
 * its own nonce on each chain, and a node that hangs must not hold the wallet back on another
 * network): a wallet's transactions on a network are signed and broadcast one at a time, in nonce
 * order, so the node receives nonce n before n + 1.
 * The next nonce is read from the node (`pending` count) on a wallet's first use and again after
 * any broadcast the node refused or that could not be sent, so a refusal leaves no gap that would
 * hold every later transaction of the wallet back.
 */
import { Effect, Semaphore } from "effect"
import type { Address } from "viem"
import type { EvmRpcFailure } from "../EvmRpcFailure.ts"

/** What a wallet's turn does with its nonce: whether the transactions it signed reached the node. */
export interface NonceUse<A> {
  readonly result: A
  /** How many nonces from the one given were taken by transactions the node accepted. */
  readonly used: number
  /** Whether the node's count must be read again before the next use (a broadcast was refused). */
  readonly resync: boolean
}

/** Per-wallet locks and next nonces. */
export interface NonceManager {
  /**
   * Runs `use` alone for the wallet with its next nonce; the wallet's next turn starts at
   * `nonce + used`, or at the node's pending count after a resync or a failure of `use`.
   */
  readonly withNonce: <A, E>(
    network: string,
    wallet: Address,
    pendingCount: Effect.Effect<number, EvmRpcFailure>,
    use: (nonce: number) => Effect.Effect<NonceUse<A>, E>
  ) => Effect.Effect<A, E | EvmRpcFailure>
  /**
   * Forgets the wallet's next nonce: its next turn reads the node's count. For a transaction that
   * left the node without being mined (dropped), whose nonce the wallet's next one must reuse.
   */
  readonly resync: (network: string, wallet: Address) => void
}

export const makeNonceManager = (): NonceManager => {
  const wallets = new Map<string, { readonly lock: Semaphore.Semaphore; next: number | undefined }>()
  const walletOf = (network: string, wallet: Address) => {
    const key = `${network}:${wallet.toLowerCase()}`
    let found = wallets.get(key)
    if (found === undefined) {
      found = { lock: Semaphore.makeUnsafe(1), next: undefined }
      wallets.set(key, found)
    }
    return found
  }
  return {
    withNonce: (network, wallet, pendingCount, use) =>
      Effect.suspend(() => {
        const entry = walletOf(network, wallet)
        return entry.lock.withPermits(1)(
          Effect.gen(function*() {
            const nonce = entry.next ?? (yield* pendingCount)
            // Until this turn ends well, the next one asks the node.
            entry.next = undefined
            const outcome = yield* use(nonce)
            entry.next = outcome.resync ? undefined : nonce + outcome.used
            return outcome.result
          })
        )
      }),
    resync: (network, wallet) => {
      const entry = wallets.get(`${network}:${wallet.toLowerCase()}`)
      if (entry !== undefined) entry.next = undefined
    }
  }
}
