// Proves the project's contract on a real node (anvil, Uniswap V2 from its published artifacts):
// a trade takes exactly amountIn, pays the fee (core's platformFee: 0.25% of the gross output,
// rounded up) to the fee recipient and the rest to the wallet, for ERC-20s and native ETH either
// way, and reports those amounts in its Swapped event; below the minimum it reverts with
// SlippageExceeded and moves nothing. Limit-order fills need the executor, the maker's EIP-712
// signature for this chain and this contract, an open unexpired order and the minimum; a filled or
// cancelled order never fills again. A hostile token that re-enters mid-swap is refused, and fee
// rounding holds down to a gross output of one base unit and over random swaps (fast-check).
import { ORDER_TYPES, platformFee } from "@swapdesk/core"
import fc from "fast-check"
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type Hex,
  maxUint256,
  parseEventLogs,
  parseUnits,
  toFunctionSelector,
  zeroAddress
} from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  addPool,
  type Anvil,
  confirmed,
  type DemoMarket,
  deploy,
  deployDemoMarket,
  devAccount,
  type DevnetClient,
  devnetClient,
  mintDemoToken,
  startAnvil,
  uniswapV2RouterAbi
} from "../src/devnet/index.ts"
import {
  deploySwapdeskRouter,
  nativeTokenAddress,
  orderDomainOf,
  slippageExceededSelector,
  swapdeskRouterAbi
} from "../src/index.ts"
import { hostileTokenAbi, hostileTokenBytecode } from "./contracts/HostileTokenArtifact.ts"

const chainId = 1
const routerAbi = [
  ...uniswapV2RouterAbi,
  {
    type: "function",
    name: "getAmountsIn",
    stateMutability: "view",
    inputs: [{ name: "amountOut", type: "uint256" }, { name: "path", type: "address[]" }],
    outputs: [{ name: "amounts", type: "uint256[]" }]
  }
] as const

let anvil: Anvil
let owner: DevnetClient
let executor: DevnetClient
let wallet: DevnetClient
let stranger: DevnetClient
let feeRecipient: Address
let market: DemoMarket
let contract: Address
let usdc: Address
let link: Address
let weth: Address

interface Order {
  readonly id: string
  readonly maker: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  readonly expiresAt: bigint
}

/** The custom error a call reverts with, decoded against the contract's ABI (plus the token's). */
const revertOf = async (call: Promise<unknown>) => {
  try {
    await call
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError)
      if (reverted instanceof ContractFunctionRevertedError) {
        return { name: reverted.data?.errorName, args: reverted.data?.args, raw: reverted.raw }
      }
    }
    throw error
  }
  throw new Error("the call did not revert")
}

const balanceOf = (token: Address, holder: Address) =>
  token === nativeTokenAddress
    ? owner.getBalance({ address: holder })
    : owner.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [holder] })

const quote = async (amountIn: bigint, path: ReadonlyArray<Address>) => {
  const amounts = await owner.readContract({
    address: market.uniswap.router,
    abi: routerAbi,
    functionName: "getAmountsOut",
    args: [amountIn, path]
  })
  return amounts[amounts.length - 1]!
}

const approve = async (client: DevnetClient, token: Address, spender: Address, amount: bigint) =>
  confirmed(
    client,
    await client.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [spender, amount] })
  )

/** Mints `amount` of a demo token to the wallet and approves the contract for it. */
const fund = async (client: DevnetClient, token: Address, amount: bigint, spender: Address = contract) => {
  await mintDemoToken(owner, token, client.account.address, amount)
  await approve(client, token, spender, amount)
}

const receiptOf = async (client: DevnetClient, hash: Hash) => {
  const receipt = await client.waitForTransactionReceipt({ hash })
  expect(receipt.status, hash).toBe("success")
  return { receipt, gasPaid: receipt.gasUsed * receipt.effectiveGasPrice }
}

const swappedIn = (receipt: { readonly logs: ReadonlyArray<unknown> }) => {
  const events = parseEventLogs({
    abi: swapdeskRouterAbi,
    logs: receipt.logs as Parameters<typeof parseEventLogs>[0]["logs"],
    eventName: "Swapped"
  })
  expect(events).toHaveLength(1)
  return events[0]!.args
}

const swap = (
  client: DevnetClient,
  args: {
    readonly tokenIn: Address
    readonly tokenOut: Address
    readonly amountIn: bigint
    readonly minAmountOut: bigint
    readonly path: ReadonlyArray<Address>
  },
  at: Address = contract
) =>
  client.writeContract({
    address: at,
    abi: swapdeskRouterAbi,
    functionName: "swap",
    args: [args.tokenIn, args.tokenOut, args.amountIn, args.minAmountOut, args.path, maxUint256],
    value: args.tokenIn === nativeTokenAddress ? args.amountIn : 0n
  })

let orderCount = 0
/** A fresh order from the wallet selling `amountIn` USDC for LINK at `minAmountOut`. */
const newOrder = (overrides: Partial<Order> = {}): Order => ({
  id: `ord_${++orderCount}`,
  maker: wallet.account.address,
  tokenIn: usdc,
  tokenOut: link,
  amountIn: 100_000_000n,
  minAmountOut: 1n,
  expiresAt: 0n,
  ...overrides
})

const sign = (order: Order, domain = orderDomainOf(chainId, contract), signer: DevnetClient = wallet) =>
  signer.signTypedData({ domain, types: ORDER_TYPES, primaryType: "Order", message: order })

const simulateFill = (client: DevnetClient, order: Order, signature: Hex, at: Address = contract) =>
  client.simulateContract({
    address: at,
    abi: swapdeskRouterAbi,
    functionName: "fillOrder",
    args: [order, signature, [order.tokenIn, order.tokenOut]]
  })

const fill = async (client: DevnetClient, order: Order, signature: Hex) => {
  const { request } = await simulateFill(client, order, signature)
  return receiptOf(client, await client.writeContract(request))
}

/** Cancels an order on chain from `client`. */
const cancel = (client: DevnetClient, order: Order) =>
  client.simulateContract({ address: contract, abi: swapdeskRouterAbi, functionName: "cancelOrder", args: [order] })
    .then(async ({ request }) => confirmed(client, await client.writeContract(request)))

const statusOf = async (order: Order, at: Address = contract) =>
  owner.readContract({
    address: at,
    abi: swapdeskRouterAbi,
    functionName: "orderStatus",
    args: [await owner.readContract({ address: at, abi: swapdeskRouterAbi, functionName: "hashOrder", args: [order] })]
  })

beforeAll(async () => {
  anvil = await startAnvil({ chainId })
  owner = devnetClient(anvil.rpcUrl, chainId, devAccount(0))
  executor = devnetClient(anvil.rpcUrl, chainId, devAccount(1))
  feeRecipient = devAccount(2).address
  wallet = devnetClient(anvil.rpcUrl, chainId, devAccount(3))
  stranger = devnetClient(anvil.rpcUrl, chainId, devAccount(4))
  market = await deployDemoMarket(owner, {
    quote: { symbol: "USDC", name: "USD Coin", decimals: 6 },
    ethPrice: "3000",
    depth: 1_000_000n,
    tokens: [{ symbol: "LINK", name: "Chainlink", decimals: 18, price: "14.5" }]
  })
  usdc = market.tokens["USDC"]!.address
  link = market.tokens["LINK"]!.address
  weth = market.uniswap.weth
  contract = await deploySwapdeskRouter(owner, {
    router: market.uniswap.router,
    weth,
    executor: executor.account.address,
    feeRecipient,
    owner: owner.account.address
  })
})

afterAll(() => anvil?.stop())

describe("trades", () => {
  it("ERC-20 to ERC-20: takes amountIn, pays the rounded-up fee and delivers the rest, as its event says", async () => {
    const amountIn = 2_500_000_000n
    await fund(wallet, usdc, amountIn)
    const grossQuoted = await quote(amountIn, [usdc, link])
    const fee = platformFee(grossQuoted)
    const before = await Promise.all([balanceOf(usdc, wallet.account.address), balanceOf(link, wallet.account.address)])
    const feeBefore = await balanceOf(link, feeRecipient)

    const { receipt } = await receiptOf(
      wallet,
      await swap(wallet, {
        tokenIn: usdc,
        tokenOut: link,
        amountIn,
        minAmountOut: grossQuoted - fee,
        path: [usdc, link]
      })
    )

    expect(swappedIn(receipt)).toEqual({
      wallet: wallet.account.address,
      tokenIn: usdc,
      tokenOut: link,
      amountIn,
      grossOut: grossQuoted,
      fee,
      amountOut: grossQuoted - fee
    })
    expect(await balanceOf(usdc, wallet.account.address)).toBe(before[0] - amountIn)
    expect(await balanceOf(link, wallet.account.address)).toBe(before[1] + grossQuoted - fee)
    expect(await balanceOf(link, feeRecipient)).toBe(feeBefore + fee)
    for (const token of [usdc, link, weth]) expect(await balanceOf(token, contract)).toBe(0n)
  })

  it("ETH in: wraps msg.value through WETH in the same transaction", async () => {
    const amountIn = parseUnits("1.5", 18)
    const grossQuoted = await quote(amountIn, [weth, usdc])
    const fee = platformFee(grossQuoted)
    const ethBefore = await balanceOf(nativeTokenAddress, wallet.account.address)
    const usdcBefore = await balanceOf(usdc, wallet.account.address)
    const feeBefore = await balanceOf(usdc, feeRecipient)

    const { receipt, gasPaid } = await receiptOf(
      wallet,
      await swap(wallet, {
        tokenIn: nativeTokenAddress,
        tokenOut: usdc,
        amountIn,
        minAmountOut: 1n,
        path: [weth, usdc]
      })
    )

    expect(swappedIn(receipt)).toMatchObject({ tokenIn: nativeTokenAddress, amountIn, grossOut: grossQuoted, fee })
    expect(await balanceOf(nativeTokenAddress, wallet.account.address)).toBe(ethBefore - amountIn - gasPaid)
    expect(await balanceOf(usdc, wallet.account.address)).toBe(usdcBefore + grossQuoted - fee)
    expect(await balanceOf(usdc, feeRecipient)).toBe(feeBefore + fee)
    expect(await balanceOf(nativeTokenAddress, contract)).toBe(0n)
  })

  it("ETH out, over two hops: unwraps and pays both the fee and the rest in native ETH", async () => {
    const amountIn = parseUnits("500", 18)
    await fund(wallet, link, amountIn)
    const path = [link, usdc, weth]
    const grossQuoted = await quote(amountIn, path)
    const fee = platformFee(grossQuoted)
    const ethBefore = await balanceOf(nativeTokenAddress, wallet.account.address)
    const feeBefore = await balanceOf(nativeTokenAddress, feeRecipient)

    const { receipt, gasPaid } = await receiptOf(
      wallet,
      await swap(wallet, {
        tokenIn: link,
        tokenOut: nativeTokenAddress,
        amountIn,
        minAmountOut: grossQuoted - fee,
        path
      })
    )

    expect(swappedIn(receipt)).toMatchObject({ tokenOut: nativeTokenAddress, grossOut: grossQuoted, fee })
    expect(await balanceOf(nativeTokenAddress, wallet.account.address)).toBe(ethBefore + grossQuoted - fee - gasPaid)
    expect(await balanceOf(nativeTokenAddress, feeRecipient)).toBe(feeBefore + fee)
    expect(await balanceOf(nativeTokenAddress, contract)).toBe(0n)
    expect(await balanceOf(weth, contract)).toBe(0n)
  })

  it("below the minimum: reverts with SlippageExceeded (net, minimum) and moves nothing but gas", async () => {
    const amountIn = 1_000_000_000n
    await fund(wallet, usdc, amountIn)
    const grossQuoted = await quote(amountIn, [usdc, link])
    const net = grossQuoted - platformFee(grossQuoted)
    const args = { tokenIn: usdc, tokenOut: link, amountIn, minAmountOut: net + 1n, path: [usdc, link] }

    const simulated = await revertOf(
      wallet.simulateContract({
        address: contract,
        abi: swapdeskRouterAbi,
        functionName: "swap",
        args: [args.tokenIn, args.tokenOut, args.amountIn, args.minAmountOut, args.path, maxUint256]
      })
    )
    expect(simulated).toMatchObject({ name: "SlippageExceeded", args: [net, net + 1n] })
    expect(simulated.raw?.slice(0, 10)).toBe(slippageExceededSelector)

    // Mined anyway (gas given, so nothing is estimated first): the receipt says reverted, no token moved.
    const usdcBefore = await balanceOf(usdc, wallet.account.address)
    const linkBefore = await balanceOf(link, wallet.account.address)
    const hash = await wallet.writeContract({
      address: contract,
      abi: swapdeskRouterAbi,
      functionName: "swap",
      args: [args.tokenIn, args.tokenOut, args.amountIn, args.minAmountOut, args.path, maxUint256],
      gas: 600_000n
    })
    expect((await wallet.waitForTransactionReceipt({ hash })).status).toBe("reverted")
    expect(await balanceOf(usdc, wallet.account.address)).toBe(usdcBefore)
    expect(await balanceOf(link, wallet.account.address)).toBe(linkBefore)
  })

  it("refuses a path that does not run from tokenIn to tokenOut or returns to it, a wrong msg.value and stray ETH", async () => {
    const call = (tokenIn: Address, tokenOut: Address, path: ReadonlyArray<Address>, value: bigint) =>
      revertOf(
        wallet.simulateContract({
          address: contract,
          abi: swapdeskRouterAbi,
          functionName: "swap",
          args: [tokenIn, tokenOut, 10n ** 18n, 0n, path, maxUint256],
          value
        })
      )
    expect((await call(usdc, link, [link, usdc], 0n)).name).toBe("InvalidPath")
    expect((await call(usdc, link, [usdc, weth], 0n)).name).toBe("InvalidPath")
    expect((await call(usdc, usdc, [usdc, link, usdc], 0n)).name).toBe("InvalidPath")
    expect((await call(weth, nativeTokenAddress, [weth, usdc, weth], 0n)).name).toBe("InvalidPath")
    expect((await call(nativeTokenAddress, usdc, [weth, usdc], 1n)).name).toBe("InvalidValue")
    expect((await call(usdc, link, [usdc, link], 1n)).name).toBe("InvalidValue")
    await expect(wallet.sendTransaction({ to: contract, value: 1n })).rejects.toThrow(
      toFunctionSelector("UnexpectedEther(address)")
    )
  })
})

describe("fee rounding", () => {
  it("a gross output of one base unit is all fee: the fee recipient gets 1, the wallet 0", async () => {
    const [amountIn] = await owner.readContract({
      address: market.uniswap.router,
      abi: routerAbi,
      functionName: "getAmountsIn",
      args: [1n, [link, usdc]]
    })
    expect(await quote(amountIn!, [link, usdc])).toBe(1n)
    await fund(wallet, link, amountIn!)
    const { receipt } = await receiptOf(
      wallet,
      await swap(wallet, { tokenIn: link, tokenOut: usdc, amountIn: amountIn!, minAmountOut: 0n, path: [link, usdc] })
    )
    expect(swappedIn(receipt)).toMatchObject({ grossOut: 1n, fee: 1n, amountOut: 0n })
  })

  it("feeOf is core's platformFee for any gross output up to 2^256 - 1 (no overflow)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: maxUint256 }), async (grossOut) => {
        const fee = await owner.readContract({
          address: contract,
          abi: swapdeskRouterAbi,
          functionName: "feeOf",
          args: [grossOut]
        })
        expect(fee).toBe(platformFee(grossOut))
        expect(fee).toBeLessThanOrEqual(grossOut)
      }),
      { numRuns: 60 }
    )
    expect(await owner.readContract({ address: contract, abi: swapdeskRouterAbi, functionName: "feeOf", args: [1n] }))
      .toBe(1n)
  })

  it("over random swaps, fee + delivered == gross output, and each lands where it should", async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 10n ** 14n, max: 10n ** 21n }), async (amountIn) => {
        await fund(wallet, link, amountIn)
        const walletBefore = await balanceOf(usdc, wallet.account.address)
        const feeBefore = await balanceOf(usdc, feeRecipient)
        const grossQuoted = await quote(amountIn, [link, usdc])
        const { receipt } = await receiptOf(
          wallet,
          await swap(wallet, { tokenIn: link, tokenOut: usdc, amountIn, minAmountOut: 0n, path: [link, usdc] })
        )
        const event = swappedIn(receipt)
        expect(event.grossOut).toBe(grossQuoted)
        expect(event.fee).toBe(platformFee(event.grossOut))
        expect(event.fee + event.amountOut).toBe(event.grossOut)
        expect(await balanceOf(usdc, wallet.account.address)).toBe(walletBefore + event.amountOut)
        expect(await balanceOf(usdc, feeRecipient)).toBe(feeBefore + event.fee)
      }),
      { numRuns: 15 }
    )
  })
})

describe("limit orders", () => {
  it("the executor fills a signed order: the maker gets at least its minimum, the order is Filled", async () => {
    const order = newOrder({ amountIn: 300_000_000n })
    await fund(wallet, usdc, order.amountIn)
    const grossQuoted = await quote(order.amountIn, [usdc, link])
    const filling = { ...order, minAmountOut: grossQuoted - platformFee(grossQuoted) }
    const linkBefore = await balanceOf(link, wallet.account.address)

    const { receipt } = await fill(executor, filling, await sign(filling))

    const filled = parseEventLogs({ abi: swapdeskRouterAbi, logs: receipt.logs, eventName: "OrderFilled" })
    expect(filled.map((event) => [event.args.maker, event.args.id])).toEqual([[wallet.account.address, filling.id]])
    expect(swappedIn(receipt)).toMatchObject({ wallet: wallet.account.address, amountIn: filling.amountIn })
    expect(await balanceOf(link, wallet.account.address)).toBe(linkBefore + filling.minAmountOut)
    expect(await statusOf(filling)).toBe(1)
  })

  it("a filled order cannot be replayed", async () => {
    const order = newOrder()
    await fund(wallet, usdc, order.amountIn * 2n)
    const signature = await sign(order)
    await fill(executor, order, signature)
    expect((await revertOf(simulateFill(executor, order, signature))).name).toBe("OrderAlreadyFilled")
  })

  it("only the executor fills, and the owner can rotate it", async () => {
    const order = newOrder()
    await fund(wallet, usdc, order.amountIn)
    const signature = await sign(order)
    expect(await revertOf(simulateFill(stranger, order, signature))).toMatchObject({
      name: "NotExecutor",
      args: [stranger.account.address]
    })
    expect(await revertOf(simulateFill(wallet, order, signature))).toMatchObject({ name: "NotExecutor" })
    expect(
      (await revertOf(
        stranger.simulateContract({
          address: contract,
          abi: swapdeskRouterAbi,
          functionName: "setExecutor",
          args: [stranger.account.address]
        })
      )).name
    ).toBe("OwnableUnauthorizedAccount")

    const rotate = async (to: Address) =>
      confirmed(
        owner,
        await owner.writeContract({
          address: contract,
          abi: swapdeskRouterAbi,
          functionName: "setExecutor",
          args: [to]
        })
      )
    await rotate(stranger.account.address)
    expect((await revertOf(simulateFill(executor, order, signature))).name).toBe("NotExecutor")
    await fill(stranger, order, signature)
    await rotate(executor.account.address)
  })

  it("a signature for another chain, another contract or other terms does not recover to the maker", async () => {
    const order = newOrder()
    await fund(wallet, usdc, order.amountIn)
    const invalid = async (signature: Hex, terms: Order = order) =>
      expect((await revertOf(simulateFill(executor, terms, signature))).name).toBe("InvalidSignature")

    await invalid(await sign(order, orderDomainOf(8453, contract)))
    const other = await deploySwapdeskRouter(owner, {
      router: market.uniswap.router,
      weth,
      executor: executor.account.address,
      feeRecipient,
      owner: owner.account.address
    })
    await invalid(await sign(order, orderDomainOf(chainId, other)))
    // And the reverse: signed for this contract, sent to the other one.
    expect((await revertOf(simulateFill(executor, order, await sign(order), other))).name).toBe("InvalidSignature")
    await invalid(await sign(order), { ...order, minAmountOut: 0n })
    await invalid(await sign(order), { ...order, amountIn: order.amountIn + 1n })
    await invalid(await sign(order, undefined, stranger))
    expect(await statusOf(order)).toBe(0)
  })

  it("an expired order does not fill, from the second its expiresAt names", async () => {
    const at = (await owner.getBlock()).timestamp + 1_000n
    const fillAt = async (order: Order) =>
      revertOf(
        executor.simulateContract({
          address: contract,
          abi: swapdeskRouterAbi,
          functionName: "fillOrder",
          args: [order, await sign(order), [order.tokenIn, order.tokenOut]],
          blockOverrides: { time: at }
        })
      )
    for (const expiresAt of [at - 60n, at]) {
      const order = newOrder({ expiresAt })
      await fund(wallet, usdc, order.amountIn)
      expect(await fillAt(order)).toMatchObject({ name: "OrderExpired", args: [expiresAt] })
    }
    // One second later it would still have filled.
    const open = newOrder({ expiresAt: at + 1n })
    await fund(wallet, usdc, open.amountIn)
    await expect(fillAt(open)).rejects.toThrow("the call did not revert")
  })

  it("a cancelled order never fills: the maker or the executor cancels, nobody else", async () => {
    const byMaker = newOrder()
    const byExecutor = newOrder()
    await fund(wallet, usdc, byMaker.amountIn + byExecutor.amountIn)
    expect(await revertOf(cancel(stranger, byMaker))).toMatchObject({
      name: "NotMakerOrExecutor",
      args: [stranger.account.address]
    })
    await cancel(wallet, byMaker)
    await cancel(executor, byExecutor)
    for (const order of [byMaker, byExecutor]) {
      expect(await statusOf(order)).toBe(2)
      expect((await revertOf(simulateFill(executor, order, await sign(order)))).name).toBe("OrderAlreadyCancelled")
    }
    expect((await revertOf(cancel(wallet, byMaker))).name).toBe("OrderAlreadyCancelled")
  })

  it("an order whose minimum the market does not reach reverts with SlippageExceeded and stays open", async () => {
    const order = newOrder({ minAmountOut: parseUnits("1000000", 18) })
    await fund(wallet, usdc, order.amountIn)
    expect((await revertOf(simulateFill(executor, order, await sign(order)))).name).toBe("SlippageExceeded")
    expect(await statusOf(order)).toBe(0)
  })

  it("an order cannot take native ETH from its maker", async () => {
    const order = newOrder({ tokenIn: nativeTokenAddress, tokenOut: usdc })
    expect((await revertOf(simulateFill(executor, order, await sign(order)))).name).toBe("NativeInputUnsupported")
  })
})

describe("re-entrancy", () => {
  it("a hostile token that calls back into the contract mid-swap is refused by the guard", async () => {
    const hostile = await deploy(owner, { abi: hostileTokenAbi as Abi, bytecode: hostileTokenBytecode }, [])
    const depth = parseUnits("1000000", 18)
    await mintDemoToken(owner, usdc, owner.account.address, 1_000_000n * 10n ** 6n)
    await addPool(owner, market.uniswap, { tokenA: hostile, amountA: depth, tokenB: usdc, amountB: 10n ** 12n })

    const amountIn = parseUnits("100", 18)
    await confirmed(
      owner,
      await owner.writeContract({
        address: hostile,
        abi: hostileTokenAbi,
        functionName: "transfer",
        args: [wallet.account.address, amountIn]
      })
    )
    await approve(wallet, hostile, contract, amountIn)
    // Every transfer of the token now tries the same swap again, from inside the first one.
    await confirmed(
      owner,
      await owner.writeContract({
        address: hostile,
        abi: hostileTokenAbi,
        functionName: "arm",
        args: [
          contract,
          encodeSwap(hostile, usdc, 1n, [hostile, usdc])
        ]
      })
    )
    const { receipt } = await receiptOf(
      wallet,
      await swap(wallet, { tokenIn: hostile, tokenOut: usdc, amountIn, minAmountOut: 0n, path: [hostile, usdc] })
    )
    expect(swappedIn(receipt)).toMatchObject({ amountIn })
    const read = <F extends "attempts" | "lastSucceeded" | "lastReturnData">(functionName: F) =>
      owner.readContract({ address: hostile, abi: hostileTokenAbi, functionName })
    expect(await read("attempts")).toBeGreaterThanOrEqual(2n)
    expect(await read("lastSucceeded")).toBe(false)
    expect(await read("lastReturnData")).toBe(toFunctionSelector("ReentrancyGuardReentrantCall()"))
    expect(await balanceOf(hostile, contract)).toBe(0n)
    expect(await balanceOf(usdc, contract)).toBe(0n)
    await confirmed(
      owner,
      await owner.writeContract({
        address: hostile,
        abi: hostileTokenAbi,
        functionName: "arm",
        args: [zeroAddress, "0x"]
      })
    )
  })
})

const encodeSwap = (tokenIn: Address, tokenOut: Address, amountIn: bigint, path: ReadonlyArray<Address>): Hex =>
  encodeFunctionData({
    abi: swapdeskRouterAbi,
    functionName: "swap",
    args: [tokenIn, tokenOut, amountIn, 0n, path, maxUint256]
  })
