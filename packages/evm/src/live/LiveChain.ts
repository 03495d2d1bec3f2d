/**
 * The core's `Chain` on real EVM networks. A quote is the exchange's own `getAmountsOut` along the
 * route (the direct pool, else through WETH) with the gas the swap would cost now. A delegated
 * wallet's swap is signed with its key and broadcast at once, after an ERC-20 approval of the
 * project's contract when the allowance is short; its later life is the followers' to report
 * (`layerLiveFollowers`). An external wallet's swap waits for its owner (docs/live.md).
 */
import {
  APPROVAL_TIMEOUT_MS,
  type Chain,
  expiresAtSeconds,
  type SwapIntent,
  type SwapQuote,
  type SwapSending,
  type TradeDecision,
  type TradeEvent,
  TradeEvent as Events,
  ValidationFailed
} from "@swapdesk/core"
import { Clock, Effect } from "effect"
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  isHash,
  isHex,
  keccak256,
  maxUint256,
  parseTransaction,
  recoverTransactionAddress
} from "viem"
import { swapdeskRouterAbi } from "../contracts/SwapdeskRouter.ts"
import { type DelegatedSigner, type ExecutorSigner, signerAccount } from "../DelegatedSigners.ts"
import { nativeTokenAddress } from "../EvmNetwork.ts"
import { type SwapCall, swapGasLimit, swapTransaction } from "../EvmRpc.ts"
import { type EvmRpcFailure, rpcFailure } from "../EvmRpcFailure.ts"
import type { LiveNetworkStatus } from "./LiveNetworkStatus.ts"
import {
  type AwaitingTrade,
  type LiveNetworkContext,
  type LiveStateShape,
  networkContext,
  tokenAddress
} from "./LiveState.ts"

/**
 * The gas of a swap through the project's contract when the node cannot estimate it (no allowance
 * yet, or the balance is short): 150 000 gas plus 80 000 per pool on the path. A one-pool swap
 * through Uniswap V2 uses about 157 000 gas on anvil, 220 000 when the wallet and the fee recipient
 * receive `tokenOut` for the first time (storage written from zero).
 */
export const fallbackSwapGas = (pools: number): bigint => 150_000n + 80_000n * BigInt(pools)

/** The gas limit of an ERC-20 `approve` (about 46 000 from a zero allowance). */
export const approvalGasLimit = 70_000n

/** What `fillOrder` adds to a swap's gas: the signature's recovery and the order's status written. */
export const fillOrderExtraGas = 60_000n

/** How long a swap may wait to be mined before the contract refuses it, and the trade fails. */
export const swapDeadlineMs = 10 * 60 * 1000

/** Live settings of the chain. */
export interface LiveChainOptions {
  /** Quotes and swaps on a network that is down fail at once. */
  readonly status: LiveNetworkStatus["Service"]
  /** How long an external wallet's swap waits for its owner: `APPROVAL_TIMEOUT_MS` when absent (tests shorten it). */
  readonly approvalTimeoutMs?: number
}

/** The fields of a wallet's transaction compared with the prepared one. */
export interface SentTransaction {
  readonly from: Address
  readonly to: Address | null | undefined
  readonly data: Hex | undefined
  readonly value: bigint | undefined
  readonly chainId: number | undefined
  readonly gas: bigint | undefined
}

/** A transaction as the node returns it, in the fields compared with the prepared swap. */
export const sentTransactionOf = (sent: {
  readonly from: Address
  readonly to: Address | null
  readonly input: Hex
  readonly value: bigint
  readonly chainId?: number | undefined
  readonly gas: bigint
}): SentTransaction => ({
  from: sent.from,
  to: sent.to,
  data: sent.input,
  value: sent.value,
  chainId: sent.chainId,
  gas: sent.gas
})

const refused = (path: string, message: string) => new ValidationFailed({ details: [{ path, message }] })

/**
 * Where the wallet's transaction differs from the prepared swap, named by `field` and its part:
 * nothing when it is the swap from the wallet. More gas than prepared is accepted (a wallet may add
 * headroom, and only the wallet pays for it); less could run out mid-swap, so it is refused.
 */
export const mismatchOf = (
  field: string,
  awaiting: AwaitingTrade,
  sent: SentTransaction
): ValidationFailed | undefined => {
  const prepared = awaiting.request.transaction
  if (getAddress(sent.from) !== awaiting.wallet) {
    return refused(field, `is sent from ${getAddress(sent.from)}, not from the trade's wallet ${awaiting.wallet}`)
  }
  if (sent.to == null || getAddress(sent.to) !== getAddress(prepared.to)) {
    return refused(`${field}.to`, `must be ${prepared.to}, the project's contract`)
  }
  if ((sent.data ?? "0x").toLowerCase() !== prepared.data.toLowerCase()) {
    return refused(`${field}.data`, "must be the prepared swap's call data")
  }
  if ((sent.value ?? 0n) !== prepared.value) return refused(`${field}.value`, `must be ${prepared.value}`)
  if (sent.chainId !== prepared.chainId) return refused(`${field}.chainId`, `must be ${prepared.chainId}`)
  if (sent.gas === undefined || sent.gas < prepared.gas) {
    return refused(`${field}.gas`, `must be at least ${prepared.gas}`)
  }
  return undefined
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

/**
 * Broadcasts a signed transaction: how the node failed it, else `undefined`. The failure is a value
 * because the caller's nonce bookkeeping and the trade's record both depend on how it ended.
 */
const broadcastFailure = (context: LiveNetworkContext, signed: Hex): Effect.Effect<EvmRpcFailure | undefined> =>
  context.rpc.broadcast(signed).pipe(Effect.as(undefined), Effect.catch((error) => Effect.succeed(error)))

const deadlineOf = (now: number) => BigInt(Math.floor((now + swapDeadlineMs) / 1000))

/** The contract call of the swap `intent` asks for, between these addresses, along `path`, valid until `deadline`. */
const swapCallOf = (
  intent: SwapIntent,
  addresses: { readonly from: Address; readonly tokenIn: Address; readonly tokenOut: Address },
  path: ReadonlyArray<Address>,
  deadline: bigint
): SwapCall => ({ ...addresses, amountIn: intent.amountIn, minAmountOut: intent.minAmountOut, path, deadline })

/** The EIP-1559 fees a transaction is signed with. */
interface GasFees {
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

/** Signs a transaction of the wallet with its key. */
const sign = (
  context: LiveNetworkContext,
  signer: DelegatedSigner | ExecutorSigner,
  transaction: {
    readonly to: Address
    readonly data: Hex
    readonly value: bigint
    readonly gas: bigint
    readonly nonce: number
    readonly fees: GasFees
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

  /** Where and when a swap of `intent` happens: its network (which must be up), contract and tokens, and the time. */
  const locateSwap = (intent: SwapIntent) =>
    Effect.gen(function*() {
      yield* options.status.requireUp(intent.network)
      const context = networkContext(state, intent.network)
      const contract = contractOf(context)
      const tokenIn = tokenAddress(context, intent.tokenIn)
      const tokenOut = tokenAddress(context, intent.tokenOut)
      const now = yield* Clock.currentTimeMillis
      return { context, contract, tokenIn, tokenOut, now }
    })

  /**
   * What a swap sent now starts from, for a wallet's own swap and for an order's fill alike: where
   * and when it happens, and the route with the fees the node asks now, the two asked together.
   */
  const prepareSwap = (intent: SwapIntent) =>
    Effect.gen(function*() {
      const located = yield* locateSwap(intent)
      const { context, tokenIn, tokenOut } = located
      const [route, { maxFeePerGas, maxPriorityFeePerGas }] = yield* Effect.all([
        context.rpc.quote({ tokenIn, tokenOut, amountIn: intent.amountIn }),
        call(context, () => context.rpc.client.estimateFeesPerGas())
      ], { concurrency: 2 })
      const fees: GasFees = { maxFeePerGas, maxPriorityFeePerGas }
      return { ...located, route, fees }
    })

  /** Tokens whose approval of the contract a wallet has already sent (a maximal one: never again). */
  const approved = new Set<string>()

  /**
   * Signs the wallet's approval (when its allowance is short) and its swap, has the trade stored
   * with both hashes through `beforeSending`, then broadcasts them: a process killed mid-send
   * leaves no transaction its store does not know (docs/decisions.md, "Stored before it is sent").
   */
  const submitDelegated = (
    intent: SwapIntent,
    signer: DelegatedSigner,
    beforeSending: (sending: SwapSending) => Effect.Effect<void>
  ) =>
    Effect.gen(function*() {
      const { context, contract, tokenIn, tokenOut, now, route, fees } = yield* prepareSwap(intent)
      const from = signer.address
      const swap = swapCallOf(intent, { from, tokenIn, tokenOut }, route.path, deadlineOf(now))
      const approvalKey = `${context.network}:${from}:${tokenIn}`
      const pendingCount = call(context, () =>
        context.rpc.client.getTransactionCount({ address: from, blockTag: "pending" }))
      const sent = yield* state.nonces.withNonce(context.network, from, pendingCount, (nonce) =>
        Effect.gen(function*() {
          const needsApproval = !approved.has(approvalKey) &&
            (yield* allowance(context, from, tokenIn)) < intent.amountIn
          const signedApproval = needsApproval
            ? yield* sign(context, signer, {
              to: tokenIn,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [contract, maxUint256] }),
              value: 0n,
              gas: approvalGasLimit,
              nonce,
              fees
            })
            : undefined
          // With the approval not yet mined, the node cannot estimate the swap: the figure stands in.
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
            fees
          })
          const approvalHash = signedApproval === undefined ? undefined : keccak256(signedApproval)
          const swapHash = keccak256(signedSwap)
          const transactions: Array<Hash> = approvalHash === undefined ? [swapHash] : [approvalHash, swapHash]
          // Nothing has left yet: a failure here leaves the nonce unused and the trade unstarted.
          yield* beforeSending({
            at: now,
            txHash: swapHash,
            ...(approvalHash === undefined ? {} : { approvalTxHash: approvalHash })
          })
          if (signedApproval !== undefined) {
            const refused = (yield* broadcastFailure(context, signedApproval)) !== undefined
            if (refused) {
              return { result: { transactions, swapHash, refused: true }, used: 0, resync: true }
            }
            approved.add(approvalKey)
          }
          const failure = yield* broadcastFailure(context, signedSwap)
          return {
            result: { transactions, swapHash, refused: failure?._tag === "RpcRefused" },
            used: swapNonce - nonce + (failure === undefined ? 1 : 0),
            // A broadcast without an answer may or may not have reached the node: the node's count says.
            resync: failure !== undefined
          }
        })).pipe(
          Effect.tap((sent) =>
            Effect.sync(() =>
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
            )
          ),
          // Once the trade is stored as broadcast, its swap is sent and followed whatever happens.
          Effect.uninterruptible
        )
      return [Events.Broadcast({ at: now, txHash: sent.swapHash })] satisfies ReadonlyArray<TradeEvent>
    })

  const approvalTimeoutMs = options.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS

  /** Prepares an external wallet's swap for its owner to sign; nothing is sent. */
  const submitExternal = (intent: SwapIntent) =>
    Effect.gen(function*() {
      const { context, contract, tokenIn, tokenOut, now } = yield* locateSwap(intent)
      const from = getAddress(intent.walletAddress)
      const route = yield* context.rpc.quote({ tokenIn, tokenOut, amountIn: intent.amountIn })
      // The owner may sign at the last moment: the swap stays valid its usual span after that.
      const swap = swapCallOf(intent, { from, tokenIn, tokenOut }, route.path, deadlineOf(now + approvalTimeoutMs))
      const [gas, current] = yield* Effect.all([swapGas(context, swap), allowance(context, from, tokenIn)], {
        concurrency: 2
      })
      const { data, value } = swapTransaction(swap)
      state.awaiting.set(intent.tradeId, {
        tradeId: intent.tradeId,
        accountId: intent.accountId,
        network: context.network,
        wallet: from,
        request: {
          transaction: { to: getAddress(contract), data, value, chainId: context.settings.chainId, gas: gas.gasLimit },
          allowance: current < intent.amountIn
            ? { token: tokenIn, spender: getAddress(contract), required: intent.amountIn, current }
            : null,
          expiresAt: now + approvalTimeoutMs
        }
      })
      return [] satisfies ReadonlyArray<TradeEvent>
    })

  /**
   * A delegated maker whose allowance for the order's `tokenIn` is short approves the project's
   * contract first (one maximal approval, as for its swaps), mined before the executor's fill is
   * sent, since the two come from different senders and could otherwise be mined out of order.
   * An external maker approves it itself (the order's `allowance`).
   */
  const approveForFill = (
    context: LiveNetworkContext,
    intent: SwapIntent,
    tokenIn: Address,
    fees: GasFees
  ) =>
    Effect.gen(function*() {
      const signer = state.signerOf(intent.accountId, intent.network)
      const maker = getAddress(intent.walletAddress)
      const approvalKey = `${context.network}:${maker}:${tokenIn}`
      if (signer === undefined || approved.has(approvalKey)) return undefined
      if ((yield* allowance(context, maker, tokenIn)) >= intent.amountIn) return undefined
      const pendingCount = call(context, () =>
        context.rpc.client.getTransactionCount({ address: maker, blockTag: "pending" }))
      const hash = yield* state.nonces.withNonce(context.network, maker, pendingCount, (nonce) =>
        Effect.gen(function*() {
          const signed = yield* sign(context, signer, {
            to: tokenIn,
            data: encodeFunctionData({
              abi: erc20Abi,
              functionName: "approve",
              args: [contractOf(context), maxUint256]
            }),
            value: 0n,
            gas: approvalGasLimit,
            nonce,
            fees
          })
          const failure = yield* broadcastFailure(context, signed)
          return { result: keccak256(signed), used: failure === undefined ? 1 : 0, resync: failure !== undefined }
        }))
      yield* call(context, () =>
        context.rpc.client.waitForTransactionReceipt({ hash, timeout: 120_000 }))
      approved.add(approvalKey)
      return hash
    })

  /**
   * Fills a limit order: the network's executor sends `fillOrder` with the wallet's signature, and
   * the contract checks the signature, the expiry and the minimum before it swaps the maker's funds.
   */
  const submitFill = (intent: SwapIntent, order: NonNullable<SwapIntent["order"]>, executor: ExecutorSigner) =>
    Effect.gen(function*() {
      const { context, contract, tokenIn, tokenOut, now, route, fees } = yield* prepareSwap(intent)
      const data = encodeFunctionData({
        abi: swapdeskRouterAbi,
        functionName: "fillOrder",
        args: [
          {
            id: order.id,
            maker: getAddress(intent.walletAddress),
            tokenIn,
            tokenOut,
            amountIn: intent.amountIn,
            minAmountOut: intent.minAmountOut,
            expiresAt: expiresAtSeconds(order.expiresAt)
          },
          order.signature as Hex,
          route.path
        ]
      })
      const pools = route.path.length - 1
      // The signature check and the order's status add to a plain swap's gas.
      const gas = yield* call(
        context,
        () => context.rpc.client.estimateGas({ account: executor.address, to: contract, data })
      ).pipe(
        Effect.map((estimate) => swapGasLimit(estimate, pools)),
        Effect.orElseSucceed(() => swapGasLimit(fallbackSwapGas(pools) + fillOrderExtraGas, pools))
      )
      const approval = yield* approveForFill(context, intent, tokenIn, fees)
      const pendingCount = call(
        context,
        () => context.rpc.client.getTransactionCount({ address: executor.address, blockTag: "pending" })
      )
      const sent = yield* state.nonces.withNonce(
        context.network,
        executor.address,
        pendingCount,
        (nonce) =>
          Effect.gen(function*() {
            const signed = yield* sign(context, executor, {
              to: contract,
              data,
              value: 0n,
              gas,
              nonce,
              fees
            })
            const failure = yield* broadcastFailure(context, signed)
            return {
              result: { hash: keccak256(signed), refused: failure?._tag === "RpcRefused" },
              used: failure === undefined ? 1 : 0,
              resync: failure !== undefined
            }
          })
      )
      state.followed.set(intent.tradeId, {
        tradeId: intent.tradeId,
        accountId: intent.accountId,
        network: context.network,
        wallet: executor.address,
        transactions: approval === undefined ? [sent.hash] : [approval, sent.hash],
        sentAt: now,
        refused: sent.refused,
        ...holdOf(intent.tradeId)
      })
      return [Events.Broadcast({ at: now, txHash: sent.hash })] satisfies ReadonlyArray<TradeEvent>
    })

  const submit: Chain["Service"]["submit"] = (intent, beforeSending = () => Effect.void) =>
    Effect.suspend(() => {
      if (intent.order !== undefined) {
        const executor = state.executorOf(intent.network)
        if (executor === undefined) {
          return Effect.die(new Error(`${intent.network} has no executor key: limit orders cannot fill`))
        }
        return submitFill(intent, intent.order, executor)
      }
      if (!intent.delegatedSigning) return submitExternal(intent)
      const signer = state.signerOf(intent.accountId, intent.network)
      if (signer === undefined) {
        return Effect.die(new Error(`${intent.accountId} has no signing key on ${intent.network}`))
      }
      return submitDelegated(intent, signer, beforeSending)
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

  const releaseHold = (tradeId: string) => {
    if (state.holds.delete(tradeId)) state.holdsVersion.value += 1
  }

  /** Follows the wallet's swap from its broadcast, as a delegated one, and answers the event to record. */
  const follow = (awaiting: AwaitingTrade, hash: Hash, at: number, refusedAtBroadcast: boolean, unchecked = false) => {
    state.followed.set(awaiting.tradeId, {
      tradeId: awaiting.tradeId,
      accountId: awaiting.accountId,
      network: awaiting.network,
      wallet: awaiting.wallet,
      transactions: [hash],
      sentAt: at,
      refused: refusedAtBroadcast,
      ...holdOf(awaiting.tradeId),
      ...(unchecked ? { unchecked: awaiting } : {})
    })
    return Events.Broadcast({ at, txHash: hash })
  }

  const broadcastSigned = (awaiting: AwaitingTrade, signedTransaction: string, at: number) =>
    Effect.gen(function*() {
      const field = "signedTransaction"
      if (!isHex(signedTransaction)) return yield* refused(field, "must be a 0x-prefixed signed transaction")
      const parsed = yield* Effect.try({
        try: () => parseTransaction(signedTransaction),
        catch: () => refused(field, "is not a signed transaction")
      })
      const from = yield* Effect.tryPromise({
        try: () => recoverTransactionAddress({ serializedTransaction: signedTransaction as never }),
        catch: () => refused(field, "carries no valid signature")
      })
      const mismatch = mismatchOf(field, awaiting, {
        from,
        to: parsed.to,
        data: parsed.data,
        value: parsed.value,
        chainId: parsed.chainId,
        gas: parsed.gas
      })
      if (mismatch !== undefined) return yield* mismatch
      const context = networkContext(state, awaiting.network)
      const failure = yield* broadcastFailure(context, signedTransaction)
      // Without an answer the node may have it: the followers find it, or fail it as dropped.
      return follow(awaiting, keccak256(signedTransaction), at, failure?._tag === "RpcRefused")
    })

  const followSent = (awaiting: AwaitingTrade, txHash: string, at: number) =>
    Effect.gen(function*() {
      const field = "txHash"
      if (!isHash(txHash)) return yield* refused(field, "must be a 0x-prefixed 32-byte transaction hash")
      const context = networkContext(state, awaiting.network)
      const sent = yield* Effect.tryPromise({
        try: () => context.rpc.client.getTransaction({ hash: txHash }),
        catch: (error) => error
      }).pipe(Effect.option)
      // A node that does not have it yet (a wallet on another node): it is followed, and fails as
      // dropped if it never shows.
      if (sent._tag === "None") return follow(awaiting, txHash, at, false, true)
      const mismatch = mismatchOf(field, awaiting, sentTransactionOf(sent.value))
      if (mismatch !== undefined) return yield* mismatch
      return follow(awaiting, txHash, at, false)
    })

  const decide: Chain["Service"]["decide"] = (tradeId, decision: TradeDecision) =>
    Effect.gen(function*() {
      const at = yield* Clock.currentTimeMillis
      const awaiting = state.awaiting.get(tradeId)
      if (decision._tag === "Reject") {
        state.awaiting.delete(tradeId)
        releaseHold(tradeId)
        return Events.Rejected({ at })
      }
      if (awaiting === undefined) {
        return yield* refused("", "this trade's prepared transaction is no longer known: reject it and start another")
      }
      if (decision._tag === "Approve") {
        return yield* refused("", "an external wallet answers with signedTransaction or txHash")
      }
      // Taken while it is checked, so the approval timeout cannot fire on a trade being broadcast.
      state.awaiting.delete(tradeId)
      return yield* (decision._tag === "SignedTransaction"
        ? broadcastSigned(awaiting, decision.signedTransaction, at)
        : followSent(awaiting, decision.txHash, at)).pipe(
          Effect.tapError(() => Effect.sync(() => state.awaiting.set(tradeId, awaiting)))
        )
    })

  const approvalOf: Chain["Service"]["approvalOf"] = (tradeId) =>
    Effect.gen(function*() {
      const awaiting = state.awaiting.get(tradeId)
      if (awaiting === undefined) return undefined
      const shown = awaiting.request.allowance
      if (shown === null) return awaiting.request
      // The owner sends the ERC-20 approval while the trade waits: its current allowance is read again.
      const context = networkContext(state, awaiting.network)
      const current = yield* allowance(context, awaiting.wallet, getAddress(shown.token)).pipe(
        Effect.orElseSucceed(() => shown.current)
      )
      return { ...awaiting.request, allowance: { ...shown, current } }
    })

  return { quote, submit, decide, approvalOf }
}
