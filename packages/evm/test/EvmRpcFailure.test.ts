// Proves the one translation of RPC failures on the errors viem raises for what a node or the
// network does that the anvil tests cannot provoke on demand: a 5xx or 429 answer and a timeout are
// NetworkUnavailable, another HTTP status a refusal, an intrinsic-gas refusal InsufficientGas, and
// revert data carrying the contract's SlippageExceeded selector is SlippageExceeded with its amounts.
import { encodeErrorResult, HttpRequestError, IntrinsicGasTooLowError, RpcRequestError, TimeoutError } from "viem"
import { describe, expect, it } from "vitest"
import { rpcFailure, swapdeskRouterAbi } from "../src/index.ts"

const url = "http://127.0.0.1:1"

describe("rpcFailure", () => {
  it("treats no answer, 5xx, 429 and timeouts as the network being unavailable", () => {
    for (
      const error of [
        new HttpRequestError({ url, status: 503 }),
        new HttpRequestError({ url, status: 429 }),
        new HttpRequestError({ url, cause: new Error("fetch failed") }),
        new TimeoutError({ body: {}, url })
      ]
    ) {
      expect(rpcFailure("ethereum", error)._tag).toBe("NetworkUnavailable")
    }
    expect(rpcFailure("ethereum", new HttpRequestError({ url, status: 403 }))._tag).toBe("RpcRefused")
  })

  it("treats a gas limit below the intrinsic gas as InsufficientGas", () => {
    expect(rpcFailure("base", new IntrinsicGasTooLowError({ gas: 21_000n }))._tag).toBe("InsufficientGas")
  })

  it("reads SlippageExceeded and its amounts from revert data", () => {
    const data = encodeErrorResult({ abi: swapdeskRouterAbi, errorName: "SlippageExceeded", args: [99n, 100n] })
    const error = new RpcRequestError({ body: {}, url, error: { code: 3, message: "execution reverted", data } })
    expect(rpcFailure("arbitrum", error)).toMatchObject({
      _tag: "SlippageExceeded",
      network: "arbitrum",
      amountOut: 99n,
      minAmountOut: 100n
    })
    const other = new RpcRequestError({
      body: {},
      url,
      error: { code: 3, message: "execution reverted", data: "0x08c379a0" }
    })
    expect(rpcFailure("arbitrum", other)._tag).toBe("TransactionReverted")
  })
})
