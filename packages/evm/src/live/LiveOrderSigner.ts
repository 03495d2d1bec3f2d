/**
 * The core's `OrderSigner` on EVM networks: a delegated wallet signs a limit order's EIP-712 typed
 * data with its key, under the order domain plus `verifyingContract` (the network's
 * `SwapdeskRouter`, the contract that fills it), with the tokens named by their addresses in the
 * live file; a signature is verified by recovering its signer.
 */
import { expiresAtSeconds, ORDER_TYPES, type OrderSigner, type OrderTerms } from "@swapdesk/core"
import { Effect } from "effect"
import { type Address, getAddress, type Hex, recoverTypedDataAddress } from "viem"
import { orderDomainOf } from "../contracts/SwapdeskRouter.ts"
import { signerAccount } from "../DelegatedSigners.ts"
import { type LiveStateShape, networkContext, tokenAddress } from "./LiveState.ts"

/** The exact typed data a wallet signs for an order on a live network (what `eth_signTypedData_v4` takes). */
export const liveOrderTypedData = (state: LiveStateShape, terms: OrderTerms, maker: Address) => {
  const context = networkContext(state, terms.network)
  if (context.swapdeskRouter === undefined) {
    throw new Error(`${context.network} has no swapdeskRouter contract: run live:deploy`)
  }
  return {
    domain: orderDomainOf(context.settings.chainId, context.swapdeskRouter),
    types: ORDER_TYPES,
    primaryType: "Order",
    message: {
      id: terms.id,
      maker,
      tokenIn: tokenAddress(context, terms.tokenIn),
      tokenOut: tokenAddress(context, terms.tokenOut),
      amountIn: terms.amountIn,
      minAmountOut: terms.minAmountOut,
      expiresAt: expiresAtSeconds(terms.expiresAt)
    }
  } as const
}

/** The core's `OrderSigner` for the delegated wallets of the shared state. */
export const makeLiveOrderSigner = (state: LiveStateShape): OrderSigner["Service"] => {
  const walletOf = (accountId: string, network: string): Address | undefined => {
    const wallet = state.config.accounts.find((a) => a.id === accountId)?.wallets?.find((w) => w.network === network)
    return wallet === undefined ? undefined : getAddress(wallet.address)
  }
  return {
    sign: (accountId, terms) =>
      Effect.suspend(() => {
        const signer = state.signerOf(accountId, terms.network)
        if (signer === undefined) {
          return Effect.die(new Error(`${accountId}'s ${terms.network} wallet has no delegated signing key`))
        }
        const typedData = liveOrderTypedData(state, terms, signer.address)
        return Effect.promise(() => signerAccount(signer).signTypedData(typedData)).pipe(
          Effect.map((signature) => ({ signer: signer.address, signature }))
        )
      }),
    verify: (accountId, terms, signed) =>
      Effect.suspend(() => {
        const wallet = walletOf(accountId, terms.network)
        if (wallet === undefined || !/^0x[0-9a-fA-F]{130}$/.test(signed.signature)) return Effect.succeed(false)
        if (signed.signer.toLowerCase() !== wallet.toLowerCase()) return Effect.succeed(false)
        return Effect.promise(() =>
          recoverTypedDataAddress({ ...liveOrderTypedData(state, terms, wallet), signature: signed.signature as Hex })
            .then((recovered) => recovered === wallet, () => false)
        )
      })
  }
}
