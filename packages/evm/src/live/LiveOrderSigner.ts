/**
 * The core's `OrderSigner` on EVM networks: a delegated wallet signs a limit order's EIP-712 typed
 * data with its key, under the order domain plus `verifyingContract` (the network's
 * `SwapdeskRouter`, the contract that fills it), with the tokens named by their addresses in the
 * live file; a signature is verified by recovering its signer.
 */
import {
  expiresAtSeconds,
  ORDER_TYPES,
  type OrderSigner,
  type OrderSigningOutcome,
  type OrderTerms,
  type OrderTypedDataJson
} from "@swapdesk/core"
import { Effect } from "effect"
import { type Address, erc20Abi, getAddress, type Hex, maxUint256, recoverTypedDataAddress } from "viem"
import { orderDomainOf } from "../contracts/SwapdeskRouter.ts"
import { signerAccount } from "../DelegatedSigners.ts"
import { nativeTokenAddress } from "../EvmNetwork.ts"
import { NetworkUnavailable } from "../EvmRpcFailure.ts"
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

/** The EIP-712 domain's own fields, as `eth_signTypedData_v4` wants them listed in `types`. */
const EIP712_DOMAIN = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" }
] as const

/**
 * The typed data as JSON serves it to an external wallet: `types` with `EIP712Domain`, uint256
 * values as decimal strings (exact, and what wallets' `eth_signTypedData_v4` accepts), `chainId`
 * a number (docs/decisions.md, "External wallets' limit orders").
 */
export const liveOrderTypedDataJson = (
  state: LiveStateShape,
  terms: OrderTerms,
  maker: Address
): OrderTypedDataJson => {
  const typed = liveOrderTypedData(state, terms, maker)
  return {
    types: { EIP712Domain: EIP712_DOMAIN, Order: typed.types.Order },
    primaryType: "Order",
    domain: {
      name: typed.domain.name,
      version: typed.domain.version,
      chainId: Number(typed.domain.chainId),
      verifyingContract: typed.domain.verifyingContract
    },
    message: {
      ...typed.message,
      amountIn: typed.message.amountIn.toString(),
      minAmountOut: typed.message.minAmountOut.toString(),
      expiresAt: typed.message.expiresAt.toString()
    }
  }
}

/**
 * The core's `OrderSigner` for the wallets of the shared state: a delegated wallet signs at once;
 * an external wallet's order is answered unsigned with the payload its owner signs and the
 * approval of `tokenIn` the contract needs.
 */
export const makeLiveOrderSigner = (state: LiveStateShape): OrderSigner["Service"] => {
  const walletOf = (accountId: string, network: string): Address | undefined => {
    const wallet = state.config.accounts.find((a) => a.id === accountId)?.wallets?.find((w) => w.network === network)
    return wallet === undefined ? undefined : getAddress(wallet.address)
  }
  return {
    sign: (accountId, terms) =>
      Effect.suspend((): Effect.Effect<OrderSigningOutcome> => {
        const signer = state.signerOf(accountId, terms.network)
        if (signer === undefined) {
          const wallet = walletOf(accountId, terms.network)
          if (wallet === undefined) return Effect.die(new Error(`${accountId} has no ${terms.network} wallet`))
          const typedData = liveOrderTypedDataJson(state, terms, wallet)
          const context = networkContext(state, terms.network)
          const token = getAddress(typedData.message.tokenIn)
          const spender = getAddress(typedData.domain.verifyingContract)
          // An RPC that fails here is the network being down: `503 NETWORK_UNAVAILABLE`, the hold released.
          return Effect.tryPromise({
            try: () =>
              token === nativeTokenAddress
                ? Promise.resolve(maxUint256)
                : context.rpc.client.readContract({
                  address: token,
                  abi: erc20Abi,
                  functionName: "allowance",
                  args: [wallet, spender]
                }),
            catch: (cause) => new NetworkUnavailable({ network: context.network, reason: String(cause) })
          }).pipe(
            Effect.orDie,
            Effect.map((current) => ({
              signer: wallet,
              signature: null,
              verifyingContract: spender,
              typedData,
              allowance: current < terms.amountIn ? { token, spender, required: terms.amountIn, current } : null
            }))
          )
        }
        const typedData = liveOrderTypedData(state, terms, signer.address)
        return Effect.promise(() => signerAccount(signer).signTypedData(typedData)).pipe(
          Effect.map((signature) => ({
            signer: signer.address,
            signature,
            verifyingContract: getAddress(typedData.domain.verifyingContract)
          }))
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
