/**
 * The core's `Chain` on real EVM networks. A quote is the exchange's own `getAmountsOut` along the
 * route (the direct pool, else through WETH) with the gas the swap would cost now. A delegated
 * wallet's swap is signed with its key and broadcast at once, after an ERC-20 approval of the
 * project's contract when the allowance is short; its later life is the followers' to report
 * (`layerLiveFollowers`). An external wallet's swap waits for its owner (docs/live.md).
 */
import { type Chain, type SwapIntent, type SwapQuote, type TradeEvent, TradeEvent as Events } from "@swapdesk/core"
import { Clock, Effect } from "effect"
import { type Address, encodeFunctionData, erc20Abi, type Hash, type Hex, keccak256, maxUint256 } from "viem"
import { type DelegatedSigner, signerAccount } from "../DelegatedSigners.ts"
import { nativeTokenAddress } from "../EvmNetwork.ts"
import { type SwapCall, swapGasLimit, swapTransaction } from "../EvmRpc.ts"
import { type EvmRpcFailure, rpcFailure } from "../EvmRpcFailure.ts"
import type { LiveNetworkStatus } from "./LiveNetworkStatus.ts"
import { type LiveNetworkContext, type LiveStateShape, networkContext, tokenAddress } from "./LiveState.ts"

/**
 * The gas of a swap through the project's contract when the node cannot estimate it (no allowance
 * yet, or the balance is short): 150 000 gas plus 80 000 per pool on the path. A one-pool swap
 * through Uniswap V2 uses about 157 000 gas on anvil, 220 000 when the wallet and the fee recipient
 * receive `tokenOut` for the first time (storage written from zero).
 */
export const fallbackSwapGas = (pools: number): bigint => 150_000n + 80_000n * BigInt(pools)

/** The gas limit of an ERC-20 `approve` (about 46 000 from a zero allowance). */
export const approvalGasLimit = 70_000n

/** How long a swap may wait to be mined before the contract refuses it, and the trade fails. */
export const swapDeadlineMs = 10 * 60 * 1000

/** Live settings of the chain. */
export interface LiveChainOptions {
  /** Quotes and swaps on a network that is down fail at once. */
  readonly status: LiveNetworkStatus["Service"]
}

type Call<A> = Effect.Effect<A, EvmRpcFailure>

const call = <A>(context: LiveNetworkContext, run: () => Promise<A>): Call<A> =>
  Effect.tryPromise({ try: run, catch: (error) => rpcFailure(context.network, error) })

const contractOf = (context: LiveNetworkContext): Address => {
  if (context.swapdeskRouter === undefined) {
    throw new Error(`${context.network} has no swapdeskRouter contract: run live:deploy`)
  }
  return context.swapdeskRouter
}

const allowance = (context: LiveNetworkContext, owner: Address, token: Address): Call<bigint> =>
  token === nativeTokenAddress ? Effect.succeed(maxUint256) : call(context, () =>
    context.rpc.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner, contractOf(context)]
    }))

/** The swap's gas: the node's estimate with headroom, else the documented figure. */
const swapGas = (context: LiveNetworkContext, swap: SwapCall) =>
  context.rpc.estimateSwapGas(swap).pipe(
    Effect.map((gas) => ({ ...gas, estimated: true })),
    Effect.orElseSucceed(() => {
      const estimate = fallbackSwapGas(swap.path.length - 1)
      return { estimate, gasLimit: swapGasLimit(estimate, swap.path.length - 1), estimated: false }
    })
  )

const deadlineOf = (now: number) => BigInt(Math.floor((now + swapDeadlineMs) / 1000))

/** Signs a transaction of the wallet with its key. */
const sign = (
  context: LiveNetworkContext,
  signer: DelegatedSigner,
  transaction: {
    readonly to: Address
    readonly data: Hex
    readonly value: bigint
    readonly gas: bigint
    readonly nonce: number
    readonly fees: { readonly maxFeePerGas: bigint; readonly maxPriorityFeePerGas: bigint }
  }
): Effect.Effect<Hex> =>
  Effect.promise(() =>
    signerAccount(signer).signTransaction({
      type: "eip1559",
      chainId: context.settings.chainId,
      to: transaction.to,
      data: transaction.data,
      value: transaction.value,
      gas: transaction.gas,
      nonce: transaction.nonce,
      ...transaction.fees
    })
  )

/** The core's `Chain` over the networks of `state`. */
export const makeLiveChain = (state: LiveStateShape, options: LiveChainOptions): Chain["Service"] => {
  const holdOf = (tradeId: string) => {
    const hold = state.holds.get(tradeId)
    return hold === undefined ? {} : { hold }
  }

  const quote: Chain["Service"]["quote"] = (request) =>
    Effect.gen(function*() {
      yield* options.status.requireUp(request.network)
      const context = networkContext(state, request.network)
      const tokenIn = tokenAddress(context, request.tokenIn)
      const tokenOut = tokenAddress(context, request.tokenOut)
      const [found, gasPrice] = yield* Effect.all([
        context.rpc.quote({ tokenIn, tokenOut, amountIn: request.amountIn }),
        call(context, () => context.rpc.client.getGasPrice())
      ], { concurrency: 2 })
      const pools = found.path.length - 1
      let gas = fallbackSwapGas(pools)
      const wallet = request.walletAddress as Address | undefined
      if (wallet !== undefined && context.swapdeskRouter !== undefined) {
        const now = yield* Clock.currentTimeMillis
        const [estimated, allowed] = yield* Effect.all([
          swapGas(context, {
            from: wallet,
            tokenIn,
            tokenOut,
            amountIn: request.amountIn,
            minAmountOut: 0n,
            path: found.path,
            deadline: deadlineOf(now)
          }),
          allowance(context, wallet, tokenIn)
        ], { concurrency: 2 })
        gas = estimated.estimate + (allowed < request.amountIn ? approvalGasLimit : 0n)
      }
      return {
        grossOut: found.grossOut,
        priceImpactPercent: found.priceImpact,
        gasFee: gas * gasPrice
      } satisfies SwapQuote
    }).pipe(Effect.orDie)

  /** Tokens whose approval of the contract a wallet has already sent (a maximal one: never again). */
  const approved = new Set<string>()

  const submitDelegated = (intent: SwapIntent, signer: DelegatedSigner) =>
    Effect.gen(function*() {
      yield* options.status.requireUp(intent.network)
      const context = networkContext(state, intent.network)
      const contract = contractOf(context)
      const from = signer.address
      const tokenIn = tokenAddress(context, intent.tokenIn)
      const tokenOut = tokenAddress(context, intent.tokenOut)
      const now = yield* Clock.currentTimeMillis
      const [route, fees] = yield* Effect.all([
        context.rpc.quote({ tokenIn, tokenOut, amountIn: intent.amountIn }),
        call(context, () => context.rpc.client.estimateFeesPerGas())
      ], { concurrency: 2 })
      const swap: SwapCall = {
        from,
        tokenIn,
        tokenOut,
        amountIn: intent.amountIn,
        minAmountOut: intent.minAmountOut,
        path: route.path,
        deadline: deadlineOf(now)
      }
      const approvalKey = `${context.network}:${from}:${tokenIn}`
      const pendingCount = call(context, () =>
        context.rpc.client.getTransactionCount({ address: from, blockTag: "pending" }))
      const sent = yield* state.nonces.withNonce(context.network, from, pendingCount, (nonce) =>
        Effect.gen(function*() {
          const transactions: Array<Hash> = []
          const needsApproval = !approved.has(approvalKey) &&
            (yield* allowance(context, from, tokenIn)) < intent.amountIn
          if (needsApproval) {
            const signedApproval = yield* sign(context, signer, {
              to: tokenIn,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [contract, maxUint256] }),
              value: 0n,
              gas: approvalGasLimit,
              nonce,
              fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
            })
            transactions.push(keccak256(signedApproval))
            const refused = yield* context.rpc.broadcast(signedApproval).pipe(
              Effect.as(false),
              Effect.orElseSucceed(() =>
                true
              )
            )
            if (refused) {
              return { result: { transactions, refused: true }, used: 0, resync: true }
            }
            approved.add(approvalKey)
          }
          // With the approval still pending, the node cannot estimate the swap: the figure stands in.
          const gas = needsApproval
            ? swapGasLimit(fallbackSwapGas(route.path.length - 1), route.path.length - 1)
            : (yield* swapGas(context, swap)).gasLimit
          const { data, value } = swapTransaction(swap)
          const swapNonce = nonce + (needsApproval ? 1 : 0)
          const signedSwap = yield* sign(context, signer, {
            to: contract,
            data,
            value,
            gas,
            nonce: swapNonce,
            fees: { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }
          })
          transactions.push(keccak256(signedSwap))
          const failure = yield* context.rpc.broadcast(signedSwap).pipe(
            Effect.as(undefined),
            Effect.catch((error) => Effect.succeed(error))
          )
          return {
            result: { transactions, refused: failure?._tag === "RpcRefused" },
            used: swapNonce - nonce + (failure === undefined ? 1 : 0),
            // A broadcast without an answer may or may not have reached the node: the node's count says.
            resync: failure !== undefined
          }
        }))
      const swapHash = sent.transactions[sent.transactions.length - 1]!
      state.followed.set(intent.tradeId, {
        tradeId: intent.tradeId,
        accountId: intent.accountId,
        network: context.network,
        wallet: from,
        transactions: sent.transactions,
        sentAt: now,
        refused: sent.refused,
        ...holdOf(intent.tradeId)
      })
      return [Events.Broadcast({ at: now, txHash: swapHash })] satisfies ReadonlyArray<TradeEvent>
    })

  const submit: Chain["Service"]["submit"] = (intent) =>
    Effect.suspend(() => {
      if (!intent.delegatedSigning) return Effect.succeed([])
      const signer = state.signerOf(intent.accountId, intent.network)
      if (signer === undefined) {
        return Effect.die(new Error(`${intent.accountId} has no signing key on ${intent.network}`))
      }
      return submitDelegated(intent, signer)
    }).pipe(
      Effect.orDie,
      // Nothing was broadcast (a network that is down, a quote that failed): the trade never starts,
      // and its funds are free again. The use case records nothing for it.
      Effect.tapCause(() =>
        Effect.sync(() => {
          if (state.holds.delete(intent.tradeId)) state.holdsVersion.value += 1
        })
      )
    )

  const decide: Chain["Service"]["decide"] = (tradeId, approve) =>
    Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      if (approve) {
        return yield* Effect.die(
          new Error(`trade ${tradeId}: an external wallet's approval carries its signed transaction (not built yet)`)
        )
      }
      if (state.holds.delete(tradeId)) state.holdsVersion.value += 1
      return Events.Rejected({ at })
    })

  return { quote, submit, decide }
}
