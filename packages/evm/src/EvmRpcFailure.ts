/**
 * What can go wrong talking to an EVM network, as typed errors, and the one function that turns
 * whatever viem or the node threw into one of them. Every RPC call of the adapter goes through
 * `rpcFailure`, so a failure is classified the same way wherever it happens.
 */
import { Data } from "effect"
import {
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  HttpRequestError,
  IntrinsicGasTooLowError,
  RpcRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError
} from "viem"
import { slippageExceededSelector } from "./contracts/SwapdeskRouter.ts"
import type { EvmNetwork } from "./EvmNetwork.ts"

/**
 * The network cannot be used: its RPC timed out, refused the connection, answered 5xx or garbage,
 * or reports another chain id than the configured one (`503 NETWORK_UNAVAILABLE`).
 */
export class NetworkUnavailable extends Data.TaggedError("NetworkUnavailable")<{
  readonly network: EvmNetwork
  readonly reason: string
}> {
  override get message() {
    return `${this.network} is unavailable: ${this.reason}`
  }
}

/** The contract reverted with `SlippageExceeded`: the wallet would receive less than its minimum. */
export class SlippageExceeded extends Data.TaggedError("SlippageExceeded")<{
  readonly network: EvmNetwork
  /** What the wallet would have received, and the minimum it asked for, when the revert data said. */
  readonly amountOut?: bigint
  readonly minAmountOut?: bigint
}> {}

/** The transaction ran out of gas, or its gas limit is below what any transaction needs. */
export class InsufficientGas extends Data.TaggedError("InsufficientGas")<{
  readonly network: EvmNetwork
  readonly reason: string
}> {}

/** The call or transaction reverted for another reason than slippage or gas. */
export class TransactionReverted extends Data.TaggedError("TransactionReverted")<{
  readonly network: EvmNetwork
  readonly reason: string
  readonly data?: Hex
}> {}

/** The node answered and refused the request (a bad nonce, an unfunded sender, a malformed transaction). */
export class RpcRefused extends Data.TaggedError("RpcRefused")<{
  readonly network: EvmNetwork
  readonly reason: string
}> {}

/** No pool, direct or through WETH, connects the two tokens on the network's exchange. */
export class NoRoute extends Data.TaggedError("NoRoute")<{
  readonly network: EvmNetwork
  readonly tokenIn: string
  readonly tokenOut: string
}> {}

/** Every failure an adapter call can end with. */
export type EvmRpcFailure =
  | NetworkUnavailable
  | SlippageExceeded
  | InsufficientGas
  | TransactionReverted
  | RpcRefused
  | NoRoute

const isEvmRpcFailure = (cause: unknown): cause is EvmRpcFailure =>
  cause instanceof NetworkUnavailable || cause instanceof SlippageExceeded || cause instanceof InsufficientGas ||
  cause instanceof TransactionReverted || cause instanceof RpcRefused || cause instanceof NoRoute

/** The errors in a chain of causes, outermost first. */
const causes = (error: unknown): ReadonlyArray<unknown> => {
  const chain: Array<unknown> = []
  let current: unknown = error
  while (current !== undefined && current !== null && chain.length < 16 && !chain.includes(current)) {
    chain.push(current)
    current = (current as { cause?: unknown }).cause
  }
  return chain
}

const isHex = (value: unknown): value is Hex => typeof value === "string" && /^0x[0-9a-fA-F]*$/.test(value)

/** The revert data a failure carries, wherever viem or the node put it. */
export const revertDataOf = (error: unknown): Hex | undefined => {
  for (const cause of causes(error)) {
    if (cause instanceof ContractFunctionRevertedError && cause.raw !== undefined) return cause.raw
    const data = (cause as { data?: unknown }).data
    if (isHex(data) && data.length >= 10) return data
    const nested = (data as { data?: unknown } | undefined)?.data
    if (isHex(nested) && nested.length >= 10) return nested
  }
  return undefined
}

/** The two words of `SlippageExceeded(uint256 amountOut, uint256 minAmountOut)`, when the data has them. */
const slippageArgs = (data: Hex): { amountOut?: bigint; minAmountOut?: bigint } =>
  data.length >= 10 + 128
    ? { amountOut: BigInt(`0x${data.slice(10, 74)}`), minAmountOut: BigInt(`0x${data.slice(74, 138)}`) }
    : {}

const outOfGas = /out of gas|intrinsic gas too low|gas required exceeds|gas too low|OutOfGas/i
const unavailable = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|fetch failed|socket hang up/i

/**
 * The typed failure for anything an RPC call threw. Connection failures, timeouts, 5xx answers
 * and answers that are not JSON-RPC mean the network is unavailable; revert data starting with the
 * contract's `SlippageExceeded` selector is slippage; out-of-gas is insufficient gas; any other
 * revert is `TransactionReverted`; any other refusal by the node is `RpcRefused`.
 */
export const rpcFailure = (network: EvmNetwork, error: unknown): EvmRpcFailure => {
  if (isEvmRpcFailure(error)) return error
  const chain = causes(error)
  const text = chain.map((c) => (c instanceof BaseError ? `${c.shortMessage} ${c.details}` : String(c))).join(" | ")
  const data = revertDataOf(error)
  if (data !== undefined && data.slice(0, 10).toLowerCase() === slippageExceededSelector.toLowerCase()) {
    return new SlippageExceeded({ network, ...slippageArgs(data) })
  }
  if (chain.some((c) => c instanceof IntrinsicGasTooLowError) || outOfGas.test(text)) {
    return new InsufficientGas({ network, reason: firstLine(text) })
  }
  for (const cause of chain) {
    if (cause instanceof TimeoutError) {
      return new NetworkUnavailable({ network, reason: "the RPC did not answer in time" })
    }
    if (cause instanceof SocketClosedError || cause instanceof WebSocketRequestError) {
      return new NetworkUnavailable({ network, reason: "the RPC connection closed" })
    }
    if (cause instanceof HttpRequestError) {
      // No status: the request never got an answer (refused, reset, DNS).
      if (cause.status === undefined || cause.status >= 500 || cause.status === 429) {
        return new NetworkUnavailable({
          network,
          reason: cause.status === undefined ? "the RPC cannot be reached" : `the RPC answered HTTP ${cause.status}`
        })
      }
      return new RpcRefused({ network, reason: `the RPC answered HTTP ${cause.status}` })
    }
  }
  if (data !== undefined || /revert/i.test(text)) {
    return new TransactionReverted({ network, reason: firstLine(text), ...(data === undefined ? {} : { data }) })
  }
  if (chain.some((c) => c instanceof RpcRequestError)) return new RpcRefused({ network, reason: firstLine(text) })
  if (unavailable.test(text)) return new NetworkUnavailable({ network, reason: firstLine(text) })
  return new RpcRefused({ network, reason: firstLine(text) })
}

const firstLine = (text: string): string => (text.split("\n")[0] ?? "").slice(0, 300)
