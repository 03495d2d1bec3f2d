// Proves the RPC adapter against a real node (anvil, Uniswap V2 from its published artifacts, the
// project's contract): a quote is exactly what a swap through the contract then delivers, direct
// and through WETH (amounts read from its Swapped log and from balances); balances match the node's;
// a mined swap below its minimum is SlippageExceeded, one with too little gas InsufficientGas; a
// stopped node, and one that never answers, are NetworkUnavailable within the timeout; a node with
// another chain id is refused; confirmations count up block by block and fall to nothing when a
// reorganisation drops the transaction's block, and a stale receipt from an RPC lagging the
// reorganisation counts for nothing; tokens with no pool have no route. The gas headroom: a swap
// estimated in the second that moved its pools and mined in a later one runs out of gas at the bare
// estimate and succeeds with the headroom; with a block every second, a swap right after another
// one succeeds.
import { Effect, Exit, Option } from "effect"
import { createServer, type Server } from "node:http"
import { type Address, erc20Abi, type Hash, maxUint256, parseUnits } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addPool,
  type Anvil,
  confirmed,
  type DemoMarket,
  deployDemoMarket,
  deployDemoToken,
  devAccount,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil,
  wrapEth
} from "../src/devnet/index.ts"
import {
  decodeLiveConfig,
  deploySwapdeskRouter,
  type EvmRpc,
  type EvmRpcFailure,
  type EvmRpcSettings,
  evmRpcSettingsOf,
  makeEvmRpc,
  nativeTokenAddress,
  type SwapCall,
  swapOutcome,
  swapTransaction
} from "../src/index.ts"

let anvil: Anvil
let owner: DevnetClient
let wallet: DevnetClient
let feeRecipient: Address
let market: DemoMarket
let contract: Address
let usdc: Address
let link: Address
let uni: Address
let settings: EvmRpcSettings
let rpc: EvmRpc

const run = <A>(effect: Effect.Effect<A, EvmRpcFailure>) => Effect.runPromise(effect)
const failureOf = async <A>(effect: Effect.Effect<A, EvmRpcFailure>): Promise<EvmRpcFailure> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("the call succeeded")
  const reason = exit.cause.reasons[0]
  if (reason?._tag !== "Fail") throw new Error(`not a typed failure: ${String(reason)}`)
  return reason.error
}

const balanceOf = (token: Address, holder: Address) =>
  token === nativeTokenAddress
    ? owner.getBalance({ address: holder })
    : owner.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] })

/** Signs the contract's swap from the wallet with the given gas limit, as a delegated wallet's server would. */
const signSwap = async (client: DevnetClient, swap: SwapCall, gas: bigint) => {
  const { data, value } = swapTransaction(swap)
  const request = await client.prepareTransactionRequest({ to: contract, data, value, gas })
  // The devnet's chain doubles every gas limit it prepares; this transaction carries exactly `gas`.
  return client.account.signTransaction!(
    { ...request, gas } as Parameters<NonNullable<typeof client.account.signTransaction>>[0]
  )
}

const swapOf = (tokenIn: Address, tokenOut: Address, amountIn: bigint, path: ReadonlyArray<Address>, min = 0n) => ({
  from: wallet.account.address,
  tokenIn,
  tokenOut,
  amountIn,
  minAmountOut: min,
  path,
  deadline: maxUint256
})

const mined = async (hash: Hash) => wallet.waitForTransactionReceipt({ hash })

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 })
  owner = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(0))
  wallet = devnetClient(anvil.rpcUrl, anvil.chainId, devAccount(2))
  feeRecipient = devAccount(3).address
  market = await deployDemoMarket(owner, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth: 1_000_000n,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  usdc = market.tokens["USDC"]!.address
  link = market.tokens["LINK"]!.address
  // UNI has a pool against WETH only: USDC -> UNI goes through WETH.
  uni = await deployDemoToken(owner, { name: "Uniswap", symbol: "UNI", decimals: 18 })
  await mintDemoToken(owner, uni, owner.account.address, parseUnits("300000", 18))
  await wrapEth(owner, market.uniswap.weth, parseUnits("100", 18))
  await addPool(owner, market.uniswap, {
    tokenA: uni,
    amountA: parseUnits("300000", 18),
    tokenB: market.uniswap.weth,
    amountB: parseUnits("100", 18)
  })
  contract = await deploySwapdeskRouter(owner, {
    router: market.uniswap.router,
    weth: market.uniswap.weth,
    executor: devAccount(1).address,
    feeRecipient,
    owner: owner.account.address
  })
  await mintDemoToken(owner, usdc, wallet.account.address, parseUnits("100000", 6))
  await confirmed(
    wallet,
    await wallet.writeContract({ address: usdc, abi: erc20Abi, functionName: "approve", args: [contract, maxUint256] })
  )
  // The adapter's settings come from a live file naming what was just deployed.
  const config = decodeLiveConfig({
    networks: {
      ethereum: {
        rpcUrl: anvil.rpcUrl,
        chainId: 1,
        confirmations: 3,
        startBlock: 0,
        dex: { kind: "uniswap-v2", ...market.uniswap },
        quoteToken: "USDC",
        feeRecipient,
        executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_ETHEREUM",
        tokens: [
          { symbol: "USDC", address: usdc, decimals: 6 },
          { symbol: "WETH", address: market.uniswap.weth, decimals: 18 },
          { symbol: "LINK", address: link, decimals: 18 },
          { symbol: "UNI", address: uni, decimals: 18 }
        ],
        contracts: { swapdeskRouter: contract }
      }
    },
    accounts: []
  })
  settings = evmRpcSettingsOf("ethereum", config.networks.ethereum!, { timeoutMs: 2_000 })
  rpc = makeEvmRpc(settings)
})

afterAll(async () => {
  await anvil?.stop()
})

describe("EvmRpc on anvil", () => {
  it("quotes exactly what a swap through the contract delivers, direct and through WETH", async () => {
    for (
      const [tokenIn, tokenOut, amountIn, hops] of [
        [usdc, link, parseUnits("1000", 6), 1],
        [usdc, uni, parseUnits("2500", 6), 2],
        [nativeTokenAddress, usdc, parseUnits("1.5", 18), 1]
      ] as const
    ) {
      const quote = await run(rpc.quote({ tokenIn, tokenOut, amountIn }))
      expect(quote.path).toHaveLength(hops + 1)
      expect(quote.fee).toBe((quote.grossOut * 25n + 9_999n) / 10_000n)
      expect(quote.amountOut).toBe(quote.grossOut - quote.fee)
      // The exchange's 0.3% per pool, plus the trade's own move of the price.
      expect(quote.priceImpact).toBeGreaterThan(0.3 * hops)
      expect(quote.priceImpact).toBeLessThan(0.3 * hops + 1.5)

      const swap = swapOf(tokenIn, tokenOut, amountIn, quote.path)
      const gas = await run(rpc.estimateSwapGas(swap))
      expect(gas.gasLimit).toBeGreaterThan(gas.estimate)
      const [walletBefore, feeBefore] = await Promise.all([
        balanceOf(tokenOut, wallet.account.address),
        balanceOf(tokenOut, feeRecipient)
      ])
      const hash = await run(rpc.broadcast(await signSwap(wallet, swap, gas.gasLimit)))
      const receipt = await mined(hash)
      expect(receipt.status).toBe("success")
      const outcome = Option.getOrThrow(swapOutcome(receipt, contract))
      expect(outcome).toMatchObject({
        amountIn,
        grossOut: quote.grossOut,
        fee: quote.fee,
        amountOut: quote.amountOut,
        wallet: wallet.account.address
      })
      const gasPaid = tokenOut === nativeTokenAddress ? receipt.gasUsed * receipt.effectiveGasPrice : 0n
      expect(await balanceOf(tokenOut, wallet.account.address) - walletBefore + gasPaid).toBe(outcome.amountOut)
      expect(await balanceOf(tokenOut, feeRecipient) - feeBefore).toBe(outcome.fee)
      // A Swapped event from any other address is not the contract's.
      expect(Option.isNone(swapOutcome(receipt, market.uniswap.router))).toBe(true)
    }
  })

  it("reads native and token balances as the node does", async () => {
    const holder = wallet.account.address
    const balances = await run(rpc.balances(holder, [usdc, link, uni]))
    expect(balances.native).toBe(await owner.getBalance({ address: holder, blockNumber: balances.blockNumber }))
    for (const token of [usdc, link, uni]) {
      expect(balances.tokens.get(token)).toBe(await balanceOf(token, holder))
    }
    expect(balances.tokens.get(link)).toBeGreaterThan(0n)
  })

  it("classifies a mined swap below its minimum as SlippageExceeded", async () => {
    const amountIn = parseUnits("100", 6)
    const quote = await run(rpc.quote({ tokenIn: usdc, tokenOut: link, amountIn }))
    const swap = swapOf(usdc, link, amountIn, quote.path, quote.amountOut + 1n)
    // Estimating refuses it already...
    const estimated = await failureOf(rpc.estimateSwapGas(swap))
    expect(estimated).toMatchObject({ _tag: "SlippageExceeded", amountOut: quote.amountOut })
    // ...and, sent anyway, it is mined and reverts for the same reason.
    const receipt = await mined(await run(rpc.broadcast(await signSwap(wallet, swap, 400_000n))))
    expect(receipt.status).toBe("reverted")
    const cause = Option.getOrThrow(await run(rpc.revertCause(receipt)))
    expect(cause).toMatchObject({
      _tag: "SlippageExceeded",
      amountOut: quote.amountOut,
      minAmountOut: quote.amountOut + 1n
    })
    expect(Option.isNone(swapOutcome(receipt, contract))).toBe(true)
  })

  it("classifies a mined swap that ran out of gas as InsufficientGas", async () => {
    const swap = swapOf(usdc, link, parseUnits("10", 6), [usdc, link])
    const receipt = await mined(await run(rpc.broadcast(await signSwap(wallet, swap, 60_000n))))
    expect(receipt.status).toBe("reverted")
    expect(Option.getOrThrow(await run(rpc.revertCause(receipt)))._tag).toBe("InsufficientGas")
  })

  it("refuses a node that answers another chain id, and accepts the right one", async () => {
    await run(rpc.verifyChain)
    const failure = await failureOf(makeEvmRpc({ ...settings, network: "base", chainId: 8453 }).verifyChain)
    expect(failure).toMatchObject({ _tag: "NetworkUnavailable", network: "base" })
    expect(failure.message).toMatch(/chain id 1, not 8453/)
  })

  it("counts confirmations on the canonical chain and loses them when a reorganisation drops the block", async () => {
    const swap = swapOf(usdc, link, parseUnits("5", 6), [usdc, link])
    const gas = await run(rpc.estimateSwapGas(swap))
    const hash = await run(rpc.broadcast(await signSwap(wallet, swap, gas.gasLimit)))
    await mined(hash)
    const depths: Array<number> = []
    for (let i = 0; i < 3; i++) {
      const depth = await run(rpc.confirmations(hash))
      expect(depth._tag).toBe("Mined")
      if (depth._tag === "Mined") {
        depths.push(depth.depth)
        expect(depth.confirmed).toBe(depth.depth >= 3)
      }
      await owner.request({ method: "evm_mine" as never, params: [] as never })
    }
    expect(depths).toEqual([1, 2, 3])
    // Replace the last four blocks (the transaction's and the three on top) with empty ones.
    await owner.request({ method: "anvil_reorg" as never, params: [4, []] as never })
    expect((await run(rpc.confirmations(hash)))._tag).toBe("NotMined")
  })

  it("does not count a stale receipt whose block the chain no longer has at that height", async () => {
    const swap = swapOf(usdc, link, parseUnits("5", 6), [usdc, link])
    const hash = await run(rpc.broadcast(await signSwap(wallet, swap, (await run(rpc.estimateSwapGas(swap))).gasLimit)))
    await mined(hash)
    const stale: unknown = await owner.request({
      method: "eth_getTransactionReceipt" as never,
      params: [hash] as never
    })
    await owner.request({ method: "anvil_reorg" as never, params: [1, []] as never })
    for (let i = 0; i < 3; i++) await owner.request({ method: "evm_mine" as never, params: [] as never })
    // An RPC whose receipt index lags the reorganisation: it forwards to the node but still has the old receipt.
    const lagging: Server = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      request.on("end", () => {
        const call = JSON.parse(body) as { id: number; method: string; params: Array<unknown> }
        const answer = call.method === "eth_getTransactionReceipt" && call.params[0] === hash
          ? Promise.resolve(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: stale }))
          : fetch(anvil.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
            .then((r) => r.text())
        void answer.then((text) => response.writeHead(200, { "content-type": "application/json" }).end(text))
      })
    })
    await new Promise<void>((resolve) => lagging.listen(0, "127.0.0.1", resolve))
    try {
      const port = (lagging.address() as { port: number }).port
      const behind = makeEvmRpc({ ...settings, rpcUrl: `http://127.0.0.1:${port}` })
      expect(Option.isSome(await run(behind.receipt(hash)))).toBe(true)
      expect((await run(behind.confirmations(hash)))._tag).toBe("NotMined")
    } finally {
      lagging.closeAllConnections()
      await new Promise((resolve) => lagging.close(resolve))
    }
  })

  it("finds no route between tokens with no pool, direct or through WETH", async () => {
    const failure = await failureOf(rpc.quote({ tokenIn: link, tokenOut: uni, amountIn: 1n }))
    expect(failure).toMatchObject({ _tag: "NoRoute", tokenIn: link, tokenOut: uni })
  })

  it("answers NetworkUnavailable within the timeout for a stopped node and for one that never answers", async () => {
    const stopped = await startAnvil({ chainId: 1 })
    await stopped.stop()
    const hanging: Server = createServer(() => {})
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve))
    try {
      const port = (hanging.address() as { port: number }).port
      for (const rpcUrl of [stopped.rpcUrl, `http://127.0.0.1:${port}`]) {
        const down = makeEvmRpc({ ...settings, rpcUrl, timeoutMs: 500 })
        const started = performance.now()
        const failure = await failureOf(down.headBlock)
        expect(failure._tag, rpcUrl).toBe("NetworkUnavailable")
        expect(performance.now() - started).toBeLessThan(1_500)
        expect((await failureOf(down.quote({ tokenIn: usdc, tokenOut: link, amountIn: 1n })))._tag).toBe(
          "NetworkUnavailable"
        )
      }
    } finally {
      hanging.closeAllConnections()
      await new Promise((resolve) => hanging.close(resolve))
    }
  })

  it("needs the headroom: estimated in the second that moved the pools, mined in a later one", async () => {
    const amountIn = parseUnits("40", 6)
    const path = [usdc, market.uniswap.weth, uni]
    const swap = () => swapOf(usdc, uni, amountIn, path)
    // Blocks keep one timestamp while the pools move and the next swap is estimated...
    await owner.request({ method: "anvil_setBlockTimestampInterval" as never, params: [0] as never })
    let gas: { readonly estimate: bigint; readonly gasLimit: bigint }
    let movedAt: bigint
    try {
      const first = swap()
      const firstReceipt = await mined(
        await run(rpc.broadcast(await signSwap(wallet, first, (await run(rpc.estimateSwapGas(first))).gasLimit)))
      )
      movedAt = (await owner.getBlock({ blockNumber: firstReceipt.blockNumber })).timestamp
      gas = await run(rpc.estimateSwapGas(swap()))
    } finally {
      await owner.request({ method: "anvil_removeBlockTimestampInterval" as never, params: [] as never })
    }
    // ...and the swaps are mined in later seconds, where each pair writes its price accumulators.
    await owner.request({ method: "evm_setAutomine" as never, params: [false] as never })
    try {
      const bare = await run(rpc.broadcast(await signSwap(wallet, swap(), gas.estimate)))
      await owner.request({ method: "evm_mine" as never, params: [Number(movedAt) + 10] as never })
      const bareReceipt = await mined(bare)
      const padded = await run(rpc.broadcast(await signSwap(wallet, swap(), gas.gasLimit)))
      await owner.request({ method: "evm_mine" as never, params: [Number(movedAt) + 20] as never })
      const paddedReceipt = await mined(padded)
      expect({ bare: bareReceipt.status, padded: paddedReceipt.status }).toEqual({
        bare: "reverted",
        padded: "success"
      })
      expect(Option.getOrThrow(await run(rpc.revertCause(bareReceipt)))._tag).toBe("InsufficientGas")
    } finally {
      await owner.request({ method: "evm_setAutomine" as never, params: [true] as never })
    }
  })

  it("with a block every second, a swap right after another one on the same pool succeeds with the headroom", async () => {
    await owner.request({ method: "evm_setIntervalMining" as never, params: [1] as never })
    await owner.request({ method: "evm_setAutomine" as never, params: [false] as never })
    try {
      const amountIn = parseUnits("50", 6)
      const first = swapOf(usdc, uni, amountIn, [usdc, market.uniswap.weth, uni])
      const firstGas = await run(rpc.estimateSwapGas(first))
      expect((await mined(await run(rpc.broadcast(await signSwap(wallet, first, firstGas.gasLimit))))).status).toBe(
        "success"
      )
      // Estimated in the block that just moved both pools, mined in a later second.
      const second = swapOf(usdc, uni, amountIn, [usdc, market.uniswap.weth, uni])
      const gas = await run(rpc.estimateSwapGas(second))
      const receipt = await mined(await run(rpc.broadcast(await signSwap(wallet, second, gas.gasLimit))))
      expect(receipt.status).toBe("success")
      expect(receipt.gasUsed).toBeLessThanOrEqual(gas.gasLimit)
    } finally {
      await owner.request({ method: "evm_setAutomine" as never, params: [true] as never })
    }
  })
})
