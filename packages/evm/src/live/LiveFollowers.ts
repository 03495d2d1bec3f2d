/**
 * The followers: one fiber per configured network that, on each new head block, reads where the
 * trades it follows stand on the canonical chain and reports their end through the core's
 * `MarketReactor`. A swap is confirmed at the network's `confirmations` depth, with what its
 * `Swapped` event says it moved and the gas every transaction of the trade paid; a reverted swap
 * fails with the revert's cause; a swap the node refused, dropped, or did not mine within 10
 * minutes fails with `NETWORK_ERROR`. A confirmed trade stays watched for a while: a
 * reorganisation that removes its block puts it back to pending. On start, every trade stored as
 * broadcast is followed again from its `txHash`, so a restart sends nothing twice.
 */
import {
  APPROVAL_TIMEOUT_MS,
  type FailureReason,
  MarketReactor,
  type TradeEvent,
  TradeEvent as Events,
  type TradeRecord,
  TradeRepository
} from "@swapdesk/core"
import { Clock, Effect, Layer, Option } from "effect"
import { getAddress, type Hash, TransactionNotFoundError, type TransactionReceipt } from "viem"
import type { EvmNetwork } from "../EvmNetwork.ts"
import { swapOutcome } from "../EvmRpc.ts"
import { type EvmRpcFailure, rpcFailure } from "../EvmRpcFailure.ts"
import { mismatchOf, sentTransactionOf } from "./LiveChain.ts"
import { type FollowedTrade, type LiveNetworkContext, LiveState, type LiveStateShape } from "./LiveState.ts"

/** How the followers poll; tests shorten every figure. */
export interface LiveFollowerOptions {
  /** How often the head block is read: 1 s when absent. */
  readonly pollIntervalMs?: number
  /** A swap not mined this long after it was sent has failed: 10 minutes when absent. */
  readonly notMinedTimeoutMs?: number
  /**
   * A swap the node no longer knows (neither mined nor pending) this long after it was sent was
   * dropped: 30 s when absent (a node behind a load balancer may not know a fresh transaction yet).
   */
  readonly dropGraceMs?: number
  /** How many blocks past its confirmation a confirmed trade is watched for a reorganisation: 64 when absent. */
  readonly reorgWatchBlocks?: number
  /**
   * How long after its creation a trade found awaiting approval at start fails `APPROVAL_TIMEOUT`:
   * 10 minutes when absent (the chain's own figure for the trades it prepares).
   */
  readonly approvalTimeoutMs?: number
}

const pageSize = 100

/**
 * The stored trades still pending: those broadcast are followed again from their `txHash`, those
 * awaiting approval are timed out (their prepared swap did not survive the restart).
 */
const inFlight = (state: LiveStateShape, repository: TradeRepository["Service"]) =>
  Effect.gen(function*() {
    const found: Array<TradeRecord> = []
    for (const account of state.config.accounts) {
      for (let offset = 0;; offset += pageSize) {
        const page = yield* repository.list(account.id, { status: "pending" }, { limit: pageSize, offset })
        found.push(
          ...page.items.filter((trade) =>
            (trade.stage === "broadcast" && trade.txHash !== null) || trade.stage === "awaiting_approval"
          )
        )
        if (page.items.length < pageSize) break
      }
    }
    return found
  })

const failureReasonOf = (tag: string): Exclude<FailureReason, "WALLET_REJECTED" | "APPROVAL_TIMEOUT"> =>
  tag === "SlippageExceeded" ? "SLIPPAGE_EXCEEDED" : tag === "InsufficientGas" ? "INSUFFICIENT_GAS" : "NETWORK_ERROR"

const call = <A>(context: LiveNetworkContext, run: () => Promise<A>): Effect.Effect<A, EvmRpcFailure> =>
  Effect.tryPromise({ try: run, catch: (error) => rpcFailure(context.network, error) })

/** Gas paid by the trade's mined transactions: Σ gasUsed × effectiveGasPrice. */
const gasPaid = (context: LiveNetworkContext, trade: FollowedTrade, known: ReadonlyArray<TransactionReceipt>) =>
  Effect.forEach(trade.transactions, (hash) => {
    const receipt = known.find((r) => r.transactionHash === hash)
    return receipt === undefined ? context.rpc.receipt(hash) : Effect.succeed(Option.some(receipt))
  }, { concurrency: 4 }).pipe(
    Effect.map((receipts) =>
      receipts.reduce(
        (sum, r) => Option.isSome(r) ? sum + r.value.gasUsed * r.value.effectiveGasPrice : sum,
        0n
      )
    )
  )

/** Whether the node still knows the transaction (pending or mined). */
const known = (context: LiveNetworkContext, hash: Hash) =>
  Effect.tryPromise({
    try: () => context.rpc.client.getTransaction({ hash }).then(() => true),
    catch: (error) => error
  }).pipe(
    Effect.catch((error) =>
      error instanceof TransactionNotFoundError || (error as { name?: string }).name === "TransactionNotFoundError"
        ? Effect.succeed(false)
        : Effect.fail(rpcFailure(context.network, error))
    )
  )

/**
 * The followers of every configured network, forked for the life of the layer. Requires the core's
 * `MarketReactor` and `TradeRepository` and the ports' `LiveState` (`layerLivePorts`).
 */
export const layerLiveFollowers = (
  options: LiveFollowerOptions = {}
): Layer.Layer<never, never, MarketReactor | TradeRepository | LiveState> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const state = yield* LiveState
    const reactor = yield* MarketReactor
    const repository = yield* TradeRepository
    const pollIntervalMs = options.pollIntervalMs ?? 1_000
    const notMinedTimeoutMs = options.notMinedTimeoutMs ?? 10 * 60 * 1000
    const dropGraceMs = options.dropGraceMs ?? 30_000
    const reorgWatchBlocks = BigInt(options.reorgWatchBlocks ?? 64)

    const approvalTimeoutMs = options.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS
    /** Trades found awaiting approval at start, by id: when each fails `APPROVAL_TIMEOUT`. */
    const unanswered = new Map<string, { readonly network: EvmNetwork; readonly expiresAt: number }>()
    for (const trade of yield* inFlight(state, repository)) {
      if (state.followed.has(trade.id) || !state.networks.has(trade.network as EvmNetwork)) continue
      if (trade.stage === "awaiting_approval") {
        if (!state.awaiting.has(trade.id)) {
          unanswered.set(trade.id, {
            network: trade.network as EvmNetwork,
            expiresAt: trade.createdAt + approvalTimeoutMs
          })
        }
        continue
      }
      const hold = state.holds.get(trade.id)
      state.followed.set(trade.id, {
        tradeId: trade.id,
        accountId: trade.accountId,
        network: trade.network as EvmNetwork,
        wallet: getAddress(trade.walletAddress),
        // The approval sent with the swap is followed too: its gas is the trade's.
        transactions: trade.approvalTxHash === undefined
          ? [trade.txHash as Hash]
          : [trade.approvalTxHash as Hash, trade.txHash as Hash],
        sentAt: trade.submittedAt ?? trade.createdAt,
        refused: false,
        ...(hold === undefined ? {} : { hold })
      })
    }

    const releaseHold = (tradeId: string) => {
      if (state.holds.delete(tradeId)) state.holdsVersion.value += 1
    }

    /** Records the event, and settles the trade's hold and following when it ends the trade. */
    const report = (trade: FollowedTrade, event: TradeEvent) =>
      Effect.gen(function*() {
        yield* reactor.onTradeEvent(trade.tradeId, event)
        if (event._tag === "Failed") {
          releaseHold(trade.tradeId)
          state.followed.delete(trade.tradeId)
        } else if (event._tag === "Confirmed") {
          releaseHold(trade.tradeId)
        } else if (event._tag === "Reorganised" && trade.hold !== undefined) {
          state.holds.set(trade.tradeId, trade.hold)
          state.holdsVersion.value += 1
        }
      })

    const check = (context: LiveNetworkContext, followed: FollowedTrade, head: bigint, now: number) =>
      Effect.gen(function*() {
        let trade = followed
        const stored = yield* repository.getById(trade.tradeId)
        // Not stored yet (the use case stores it after the broadcast): the next head will do.
        if (Option.isNone(stored)) return
        const stage = stored.value.stage
        // An external wallet's swap is followed from the moment it is broadcast, before the use case
        // records the broadcast: the next head will do.
        if (stage === "awaiting_approval") return
        if (stage === "failed") {
          state.followed.delete(trade.tradeId)
          return
        }
        if (stage === "confirmed") {
          if (trade.confirmedIn === undefined) {
            state.followed.delete(trade.tradeId)
            return
          }
          const block = yield* call(
            context,
            () =>
              context.rpc.client.getBlock({ blockNumber: trade.confirmedIn!.number }).then(
                (b) => b.hash,
                () => null
              )
          )
          if (block !== trade.confirmedIn.hash) {
            const { confirmedIn: _, minedIn: __, ...rest } = trade
            state.followed.set(trade.tradeId, rest)
            return yield* report(trade, Events.Reorganised({ at: now }))
          }
          if (head - trade.confirmedIn.number >= reorgWatchBlocks) state.followed.delete(trade.tradeId)
          return
        }
        if (trade.refused) {
          return yield* report(
            trade,
            Events.Failed({ at: now, reason: "NETWORK_ERROR", gasFee: yield* gasPaid(context, trade, []) })
          )
        }
        const swapHash = trade.transactions[trade.transactions.length - 1]!
        if (trade.unchecked !== undefined) {
          // A hash its wallet gave before the node had it: checked as at the answer, once it shows.
          const sent = yield* call(
            context,
            () => context.rpc.client.getTransaction({ hash: swapHash }).then((t) => t, () => undefined)
          )
          if (sent !== undefined) {
            const mismatch = mismatchOf("txHash", trade.unchecked, sentTransactionOf(sent))
            const { unchecked: _, ...checked } = trade
            state.followed.set(trade.tradeId, checked)
            if (mismatch !== undefined) {
              yield* Effect.logWarning(
                `trade ${trade.tradeId}: ${swapHash} is not its prepared swap: ${mismatch.message}`
              )
              return yield* report(trade, Events.Failed({ at: now, reason: "NETWORK_ERROR", gasFee: 0n }))
            }
            trade = checked
          }
        }
        const depth = yield* context.rpc.confirmations(swapHash)
        if (depth._tag === "NotMined" && trade.minedIn !== undefined) {
          // Its block was reorganised away before it was confirmed: the hold counts again.
          const { minedIn: _, ...rest } = trade
          state.followed.set(trade.tradeId, rest)
        }
        if (depth._tag === "NotMined") {
          const late = now - trade.sentAt > notMinedTimeoutMs
          const dropped = !late && now - trade.sentAt > dropGraceMs && !(yield* known(context, swapHash))
          if (late || dropped) {
            // Its nonce is free again: the wallet's next transaction takes it.
            state.nonces.resync(context.network, trade.wallet)
            return yield* report(
              trade,
              Events.Failed({ at: now, reason: "NETWORK_ERROR", gasFee: yield* gasPaid(context, trade, []) })
            )
          }
          return
        }
        if (!depth.confirmed) {
          if (depth.receipt.status === "success" && trade.minedIn !== depth.receipt.blockNumber) {
            state.followed.set(trade.tradeId, { ...trade, minedIn: depth.receipt.blockNumber })
          }
          return
        }
        const receipt = depth.receipt
        const gasFee = yield* gasPaid(context, trade, [receipt])
        if (receipt.status !== "success") {
          const cause = yield* context.rpc.revertCause(receipt)
          const reason = Option.isSome(cause) ? failureReasonOf(cause.value._tag) : "NETWORK_ERROR"
          return yield* report(trade, Events.Failed({ at: now, reason, gasFee }))
        }
        const outcome = context.swapdeskRouter === undefined
          ? Option.none()
          : swapOutcome(receipt, context.swapdeskRouter)
        if (Option.isNone(outcome)) {
          return yield* Effect.die(new Error(`trade ${trade.tradeId}: ${swapHash} succeeded without a Swapped event`))
        }
        const block = yield* call(context, () => context.rpc.client.getBlock({ blockNumber: receipt.blockNumber }))
        state.followed.set(trade.tradeId, {
          ...trade,
          confirmedIn: { number: receipt.blockNumber, hash: receipt.blockHash }
        })
        return yield* report(
          trade,
          Events.Confirmed({
            at: Number(block.timestamp) * 1000,
            amountOut: outcome.value.amountOut,
            fee: outcome.value.fee,
            gasFee
          })
        )
      })

    /** External wallets' swaps left unanswered past their time fail with `APPROVAL_TIMEOUT`. */
    const expireApprovals = (context: LiveNetworkContext, now: number) =>
      Effect.gen(function*() {
        const due = [...state.awaiting.values()]
          .filter((t) => t.network === context.network && t.request.expiresAt <= now)
          .map((t) => t.tradeId)
        for (const [tradeId, restored] of unanswered) {
          if (restored.network === context.network && restored.expiresAt <= now) due.push(tradeId)
        }
        yield* Effect.forEach(due, (tradeId) => {
          // Taken at once: an answer arriving now finds the trade no longer awaiting.
          state.awaiting.delete(tradeId)
          unanswered.delete(tradeId)
          releaseHold(tradeId)
          return Effect.flatMap(repository.getById(tradeId), (stored) =>
            // A restored trade may have been rejected meanwhile.
            Option.isSome(stored) && stored.value.stage === "awaiting_approval"
              ? reactor.onTradeEvent(tradeId, Events.ApprovalTimedOut({ at: now }))
              : Effect.void).pipe(
              Effect.catchCause((cause) => Effect.logWarning(`timing out trade ${tradeId}`, cause))
            )
        }, { discard: true })
      })

    const follow = (context: LiveNetworkContext) =>
      Effect.gen(function*() {
        // By hash: a reorganisation can replace the head without changing its number.
        let lastHead: string | undefined
        while (true) {
          const head = yield* call(context, () => context.rpc.client.getBlock({ blockTag: "latest" })).pipe(
            Effect.option
          )
          if (Option.isSome(head) && head.value.hash !== lastHead) {
            lastHead = head.value.hash
            const now = yield* Clock.currentTimeMillis
            const trades = [...state.followed.values()].filter((t) => t.network === context.network)
            // A trade whose reading failed (the node went away) is read again at the next head.
            yield* Effect.forEach(
              trades,
              (trade) =>
                check(context, trade, head.value.number, now).pipe(
                  Effect.catchCause((cause) => Effect.logWarning(`following trade ${trade.tradeId}`, cause))
                ),
              { concurrency: 4, discard: true }
            )
          }
          yield* expireApprovals(context, yield* Clock.currentTimeMillis)
          yield* Effect.sleep(pollIntervalMs)
        }
      })

    for (const context of state.networks.values()) yield* Effect.forkScoped(follow(context))
  }))
