/**
 * Port: execution on a network. The chain quotes swaps against its liquidity, takes signed swaps,
 * and reports each trade's later life (inclusion, confirmation, failure) through `MarketReactor`.
 * Funds move here, atomically with the event that moves them: a confirmed swap consumes the hold
 * and credits the output, a failed one releases the hold, and gas is burned from the native token.
 */
import { Context, type Effect } from "effect"
import type { ValidationFailed } from "./Errors.ts"
import type { Network } from "./Network.ts"
import type { TradeEvent } from "./TradeMachine.ts"

export interface SwapQuote {
  /** What the pool pays for `amountIn` now, before the platform fee, in `tokenOut` base units. */
  readonly grossOut: bigint
  /** Percent the execution price is worse than the market price. */
  readonly priceImpactPercent: number
  /** Estimated gas in the native token's base units. */
  readonly gasFee: bigint
}

export interface SwapRequest {
  readonly network: Network
  readonly tokenIn: string
  readonly tokenOut: string
  readonly amountIn: bigint
  /**
   * The wallet that would send the swap, when known: a live chain estimates the swap's gas from
   * it (its balance and allowance decide whether the node can), the simulator ignores it.
   */
  readonly walletAddress?: string
}

/** A swap the wallet is about to sign; its funds are already held under `tradeId`. */
export interface SwapIntent extends SwapRequest {
  readonly tradeId: string
  readonly accountId: string
  readonly walletAddress: string
  readonly minAmountOut: bigint
  readonly delegatedSigning: boolean
  /**
   * The limit order the swap fills, with the wallet's signature over it: a live chain has the
   * network's executor send it through the project's contract, which checks the signature.
   */
  readonly order?: { readonly id: string; readonly signature: string; readonly expiresAt: number | null }
}

/**
 * The wallet's answer to a swap awaiting approval. The simulator's wallet approves without
 * showing anything (`Approve`); a live external wallet answers with the prepared transaction it
 * signed (`SignedTransaction`, which the chain broadcasts) or with the hash of the transaction it
 * broadcast itself (`TransactionHash`). `Reject` drops the swap.
 */
export type TradeDecision =
  | { readonly _tag: "Approve" }
  | { readonly _tag: "SignedTransaction"; readonly signedTransaction: string }
  | { readonly _tag: "TransactionHash"; readonly txHash: string }
  | { readonly _tag: "Reject" }

/** What an external wallet must sign for a swap awaiting approval (values as the chain has them). */
export interface ApprovalRequest {
  readonly transaction: {
    readonly to: string
    readonly data: string
    readonly value: bigint
    readonly chainId: number
    readonly gas: bigint
  }
  /** The ERC-20 approval the wallet must send before the swap can execute, when its allowance is short. */
  readonly allowance: {
    readonly token: string
    readonly spender: string
    readonly required: bigint
    readonly current: bigint
  } | null
  /** When (ms) the swap fails with `APPROVAL_TIMEOUT` unless answered. */
  readonly expiresAt: number
}

/**
 * A swap signed and about to be sent: its hash is known before the network hears of it, so the
 * trade can be stored as broadcast first, and a process killed mid-send follows it on restart
 * (docs/decisions.md, "Stored before it is sent").
 */
export interface SwapSending {
  readonly at: number
  readonly txHash: string
  /** The wallet's ERC-20 approval sent just before the swap, whose gas the trade pays too. */
  readonly approvalTxHash?: string
}

export class Chain extends Context.Service<Chain, {
  readonly quote: (request: SwapRequest) => Effect.Effect<SwapQuote>
  /**
   * Starts a swap's life. Answers the events that happen at once (with delegated signing: the
   * broadcast); everything later arrives through `MarketReactor.onTradeEvent`. A chain whose
   * sending can be cut short by the process's end calls `beforeSending` with the signed swap
   * before anything leaves, and sends nothing if it fails; one that answers at once may skip it.
   */
  readonly submit: (
    intent: SwapIntent,
    beforeSending?: (sending: SwapSending) => Effect.Effect<void>
  ) => Effect.Effect<ReadonlyArray<TradeEvent>>
  /**
   * The wallet's decision on a swap awaiting approval: broadcast it, or drop it and release its
   * hold. Answers the event to record; a signed transaction or hash that is not the prepared
   * swap from the wallet fails naming the field.
   */
  readonly decide: (tradeId: string, decision: TradeDecision) => Effect.Effect<TradeEvent, ValidationFailed>
  /** What the wallet must sign for a swap awaiting its approval, when the chain asks for one. */
  readonly approvalOf: (tradeId: string) => Effect.Effect<ApprovalRequest | undefined>
}>()("@swapdesk/core/Chain") {}
