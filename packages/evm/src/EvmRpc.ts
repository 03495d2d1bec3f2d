/**
 * One EVM network's RPC, as the live adapters use it: quotes on the exchange's own math, balances,
 * gas estimates with headroom, broadcasting signed transactions, and following them to a confirmed
 * depth on the canonical chain. Every call has a timeout and every failure is translated by
 * `rpcFailure` into a typed error (docs/decisions.md, "Live mode's RPC adapter").
 */
import { platformFee } from "@swapdesk/core"
import { Effect, Option } from "effect"
import {
  type Address,
  type Chain,
  createPublicClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hash,
  type Hex,
  http,
  parseAbi,
  parseEventLogs,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  type Transport,
  zeroAddress
} from "viem"
import { swapdeskRouterAbi } from "./contracts/SwapdeskRouter.ts"
import { type EvmNetwork, nativeTokenAddress } from "./EvmNetwork.ts"
import {
  type EvmRpcFailure,
  InsufficientGas,
  NetworkUnavailable,
  NoRoute,
  rpcFailure,
  type SlippageExceeded,
  TransactionReverted
} from "./EvmRpcFailure.ts"
import { addressOf, type LiveNetwork } from "./LiveConfig.ts"

/** How long one RPC call may take before the network counts as unavailable: 10 s by default. */
export const defaultRpcTimeoutMs = 10_000

/**
 * The gas limit sent for a swap: the node's estimate plus 20%, plus 50 000 gas for each pool on
 * the path. A Uniswap V2 pair writes its two price accumulators only in a block of a later second
 * than its last update (about 44 000 gas from zero, 5 800 otherwise), and the node estimates in
 * the latest block's second, so the estimate can miss them; the 20% covers other state that moves
 * between estimate and inclusion (a balance or allowance written from zero). Unused gas is not paid.
 */
export const swapGasLimit = (estimate: bigint, pools: number): bigint =>
  estimate + (estimate * 20n) / 100n + 50_000n * BigInt(pools)

const routerAbi = parseAbi([
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)"
])
const factoryAbi = parseAbi(["function getPair(address tokenA, address tokenB) view returns (address pair)"])
const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])

/** Where an adapter connects and what it trades on. */
export interface EvmRpcSettings {
  readonly network: EvmNetwork
  readonly rpcUrl: string
  /** The chain id the RPC must answer with. */
  readonly chainId: number
  /** Blocks, the transaction's included, before a transaction is confirmed. */
  readonly confirmations: number
  readonly dex: { readonly factory: Address; readonly router: Address; readonly weth: Address }
  /** The project's contract, when deployed: needed to estimate swaps and read their outcome. */
  readonly swapdeskRouter?: Address
  /** Per call; `defaultRpcTimeoutMs` when absent. */
  readonly timeoutMs?: number
}

/** The settings of a network of the live file. */
export const evmRpcSettingsOf = (
  network: EvmNetwork,
  settings: LiveNetwork,
  options: { readonly timeoutMs?: number } = {}
): EvmRpcSettings => ({
  network,
  rpcUrl: settings.rpcUrl,
  chainId: settings.chainId,
  confirmations: settings.confirmations,
  dex: {
    factory: getAddress(addressOf(settings.dex.factory)),
    router: getAddress(addressOf(settings.dex.router)),
    weth: getAddress(addressOf(settings.dex.weth))
  },
  ...(settings.contracts?.swapdeskRouter === undefined
    ? {}
    : { swapdeskRouter: getAddress(addressOf(settings.contracts.swapdeskRouter)) }),
  ...options
})

/** What a swap of `amountIn` would give now, on the exchange's own math. */
export interface SwapQuote {
  /** The tokens the exchange routes through (WETH in place of ETH), direct or via WETH. */
  readonly path: ReadonlyArray<Address>
  readonly amountIn: bigint
  /** The exchange's output (`getAmountsOut`'s last amount). */
  readonly grossOut: bigint
  /** The platform fee: 0.25% of `grossOut`, rounded up. */
  readonly fee: bigint
  /** `grossOut - fee`: what the wallet would receive. */
  readonly amountOut: bigint
  /**
   * How much less `grossOut` is than `amountIn` at the pools' mid prices (reserves, no LP fee), in
   * percent: the exchange's fee and the trade's move of the price together.
   */
  readonly priceImpact: number
  /** The block every amount was read at. */
  readonly blockNumber: bigint
}

/** A wallet's balances at one block: the native coin and each token asked for. */
export interface WalletBalances {
  readonly blockNumber: bigint
  readonly native: bigint
  readonly tokens: ReadonlyMap<Address, bigint>
}

/** A swap through the project's contract, as a transaction's fields. */
export interface SwapCall {
  readonly from: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly amountIn: bigint
  readonly minAmountOut: bigint
  readonly path: ReadonlyArray<Address>
  /** Unix seconds after which the contract refuses the swap. */
  readonly deadline: bigint
}

/** A swap's gas: the node's estimate and the limit to send (`swapGasLimit`). */
export interface SwapGas {
  readonly estimate: bigint
  readonly gasLimit: bigint
}

/** Where a transaction stands on the canonical chain. */
export type TransactionDepth =
  /** Not in any block of the canonical chain (not yet mined, dropped, or its block was reorganised away). */
  | { readonly _tag: "NotMined" }
  /** In a block of the canonical chain, `depth` blocks deep counting its own. */
  | {
    readonly _tag: "Mined"
    readonly receipt: TransactionReceipt
    readonly depth: number
    /** Whether `depth` reached the network's `confirmations`. */
    readonly confirmed: boolean
  }

/** What a swap moved, read from the contract's `Swapped` event. */
export interface SwapOutcome {
  readonly wallet: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly amountIn: bigint
  readonly grossOut: bigint
  readonly fee: bigint
  readonly amountOut: bigint
}

/** Why a mined transaction reverted. */
export type RevertCause = SlippageExceeded | InsufficientGas | TransactionReverted

/** One network's RPC primitives. */
export interface EvmRpc {
  readonly settings: EvmRpcSettings
  /** The viem client underneath (every call through it has the timeout; none through it is translated). */
  readonly client: PublicClient<Transport, Chain>
  /** Fails with `NetworkUnavailable` unless the RPC answers the configured chain id. */
  readonly verifyChain: Effect.Effect<void, EvmRpcFailure>
  /** The head block's number. */
  readonly headBlock: Effect.Effect<bigint, EvmRpcFailure>
  /** A quote for `amountIn` of `tokenIn` (ETH as `nativeTokenAddress`) into `tokenOut`. */
  readonly quote: (
    request: { readonly tokenIn: Address; readonly tokenOut: Address; readonly amountIn: bigint }
  ) => Effect.Effect<SwapQuote, EvmRpcFailure>
  /** The native balance and the balance of each token, read at one block. */
  readonly balances: (owner: Address, tokens: ReadonlyArray<Address>) => Effect.Effect<WalletBalances, EvmRpcFailure>
  /** The gas a swap through the project's contract needs, with headroom (`swapGasLimit`). */
  readonly estimateSwapGas: (swap: SwapCall) => Effect.Effect<SwapGas, EvmRpcFailure>
  /** Sends a signed raw transaction; answers its hash. */
  readonly broadcast: (signedTransaction: Hex) => Effect.Effect<Hash, EvmRpcFailure>
  /** The transaction's receipt, if the node has one. */
  readonly receipt: (hash: Hash) => Effect.Effect<Option.Option<TransactionReceipt>, EvmRpcFailure>
  /** How deep the transaction is on the canonical chain. */
  readonly confirmations: (hash: Hash) => Effect.Effect<TransactionDepth, EvmRpcFailure>
  /** Why a reverted transaction reverted (none for a successful one). */
  readonly revertCause: (receipt: TransactionReceipt) => Effect.Effect<Option.Option<RevertCause>, EvmRpcFailure>
}

/** The contract's `swap` call data and the ETH it sends. */
export const swapTransaction = (swap: SwapCall): { readonly data: Hex; readonly value: bigint } => ({
  data: encodeFunctionData({
    abi: swapdeskRouterAbi,
    functionName: "swap",
    args: [swap.tokenIn, swap.tokenOut, swap.amountIn, swap.minAmountOut, swap.path, swap.deadline]
  }),
  value: getAddress(swap.tokenIn) === nativeTokenAddress ? swap.amountIn : 0n
})

/**
 * What a swap moved, from the `Swapped` event the project's contract at `contract` emitted in
 * `receipt` (an event of the same shape from any other address is ignored): none when it has none.
 */
export const swapOutcome = (receipt: TransactionReceipt, contract: Address): Option.Option<SwapOutcome> => {
  const logs = receipt.logs.filter((log) => log.address.toLowerCase() === contract.toLowerCase())
  const [event] = parseEventLogs({ abi: swapdeskRouterAbi, logs, eventName: "Swapped", strict: true })
  if (event === undefined) return Option.none()
  const { wallet, tokenIn, tokenOut, amountIn, grossOut, fee, amountOut } = event.args
  return Option.some({ wallet, tokenIn, tokenOut, amountIn, grossOut, fee, amountOut })
}

/** A percentage with six decimals from a ratio of bigints: `100 × lost / whole`. */
const percentOf = (lost: bigint, whole: bigint): number =>
  whole === 0n ? 0 : Number((lost * 100_000_000n) / whole) / 1_000_000

/** Connects to one network's RPC. Nothing is sent until a primitive runs. */
export const makeEvmRpc = (settings: EvmRpcSettings): EvmRpc => {
  const { network } = settings
  const timeoutMs = settings.timeoutMs ?? defaultRpcTimeoutMs
  const chain = defineChain({
    id: settings.chainId,
    name: network,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [settings.rpcUrl] } }
  })
  // No retries inside a call: the caller decides when to try a network again (trades wait and resume).
  // What waits on the chain through viem (the receipt of the ERC-20 approval an order's fill needs)
  // reads every half second: viem's default for a chain it knows no block time of is every 4 s,
  // longer than a block of Base or Arbitrum.
  const client = createPublicClient({
    chain,
    pollingInterval: 500,
    transport: http(settings.rpcUrl, { timeout: timeoutMs, retryCount: 0 })
  })

  const call = <A>(run: () => Promise<A>): Effect.Effect<A, EvmRpcFailure> =>
    Effect.tryPromise({ try: run, catch: (error) => rpcFailure(network, error) }).pipe(
      Effect.timeoutOrElse({
        duration: timeoutMs,
        orElse: () => Effect.fail(new NetworkUnavailable({ network, reason: `no answer within ${timeoutMs} ms` }))
      })
    )

  const weth = settings.dex.weth
  const routed = (token: Address) => (getAddress(token) === nativeTokenAddress ? weth : getAddress(token))

  const pairOf = (a: Address, b: Address, blockNumber: bigint) =>
    call(() =>
      client.readContract({
        address: settings.dex.factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [a, b],
        blockNumber
      })
    )

  /** Reserves of the pool of `from` and `to`, as (reserve of `from`, reserve of `to`). */
  const reservesOf = (pair: Address, from: Address, blockNumber: bigint) =>
    Effect.all([
      call(() => client.readContract({ address: pair, abi: pairAbi, functionName: "token0", blockNumber })),
      call(() => client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves", blockNumber }))
    ], { concurrency: "unbounded" }).pipe(
      Effect.map(([token0, [reserve0, reserve1]]) =>
        getAddress(token0) === from ? [reserve0, reserve1] as const : [reserve1, reserve0] as const
      )
    )

  /** The pool of `a` and `b` at `blockNumber` with its reserves (of `a`, of `b`), when it holds liquidity. */
  const hop = (a: Address, b: Address, blockNumber: bigint) =>
    pairOf(a, b, blockNumber).pipe(
      Effect.flatMap((pair) =>
        pair === zeroAddress
          ? Effect.succeed(Option.none<readonly [Address, bigint, bigint]>())
          : reservesOf(pair, a, blockNumber).pipe(
            Effect.map(([rIn, rOut]) => rIn > 0n && rOut > 0n ? Option.some([pair, rIn, rOut] as const) : Option.none())
          )
      )
    )

  /** The direct pool when it exists and holds liquidity, else through WETH. */
  const route = (tokenIn: Address, tokenOut: Address, blockNumber: bigint) =>
    Effect.gen(function*() {
      const noRoute = new NoRoute({ network, tokenIn, tokenOut })
      if (tokenIn === tokenOut) return yield* Effect.fail(noRoute)
      const direct = yield* hop(tokenIn, tokenOut, blockNumber)
      if (Option.isSome(direct)) return { path: [tokenIn, tokenOut], hops: [direct.value] }
      if (tokenIn === weth || tokenOut === weth) return yield* Effect.fail(noRoute)
      const [first, second] = yield* Effect.all([hop(tokenIn, weth, blockNumber), hop(weth, tokenOut, blockNumber)], {
        concurrency: 2
      })
      if (Option.isNone(first) || Option.isNone(second)) return yield* Effect.fail(noRoute)
      return { path: [tokenIn, weth, tokenOut], hops: [first.value, second.value] }
    })

  const headBlock = call(() => client.getBlockNumber({ cacheTime: 0 }))

  const quote: EvmRpc["quote"] = (request) =>
    Effect.gen(function*() {
      const blockNumber = yield* headBlock
      const { path, hops } = yield* route(routed(request.tokenIn), routed(request.tokenOut), blockNumber)
      const amounts = yield* call(() =>
        client.readContract({
          address: settings.dex.router,
          abi: routerAbi,
          functionName: "getAmountsOut",
          args: [request.amountIn, path],
          blockNumber
        })
      )
      const grossOut = amounts[amounts.length - 1] ?? 0n
      const fee = platformFee(grossOut)
      // Mid output = amountIn × Π(reserveOut / reserveIn); impact = 1 − grossOut / mid output.
      const midNumerator = hops.reduce((acc, [, , rOut]) => acc * rOut, request.amountIn)
      const midDenominator = hops.reduce((acc, [, rIn]) => acc * rIn, 1n)
      const priceImpact = percentOf(midNumerator - grossOut * midDenominator, midNumerator)
      return { path, amountIn: request.amountIn, grossOut, fee, amountOut: grossOut - fee, priceImpact, blockNumber }
    })

  const balances: EvmRpc["balances"] = (owner, tokens) =>
    Effect.gen(function*() {
      const blockNumber = yield* headBlock
      const [native, amounts] = yield* Effect.all([
        call(() => client.getBalance({ address: owner, blockNumber })),
        Effect.forEach(
          tokens,
          (token) =>
            call(() =>
              client.readContract({
                address: token,
                abi: erc20Abi,
                functionName: "balanceOf",
                args: [owner],
                blockNumber
              })
            ),
          { concurrency: 8 }
        )
      ], { concurrency: 2 })
      return { blockNumber, native, tokens: new Map(tokens.map((token, i) => [token, amounts[i] ?? 0n])) }
    })

  const contract = Effect.suspend(() =>
    settings.swapdeskRouter === undefined
      ? Effect.die(new Error(`${network} has no swapdeskRouter contract configured`))
      : Effect.succeed(settings.swapdeskRouter)
  )

  const estimateSwapGas: EvmRpc["estimateSwapGas"] = (swap) =>
    Effect.gen(function*() {
      const to = yield* contract
      const { data, value } = swapTransaction(swap)
      const estimate = yield* call(() => client.estimateGas({ account: swap.from, to, data, value }))
      return { estimate, gasLimit: swapGasLimit(estimate, Math.max(swap.path.length - 1, 1)) }
    })

  const broadcast: EvmRpc["broadcast"] = (signedTransaction) =>
    call(() => client.sendRawTransaction({ serializedTransaction: signedTransaction }))

  const receipt: EvmRpc["receipt"] = (hash) =>
    call(() =>
      client.getTransactionReceipt({ hash }).then(
        Option.some,
        (error: unknown) => error instanceof TransactionReceiptNotFoundError ? Option.none() : Promise.reject(error)
      )
    )

  const confirmations: EvmRpc["confirmations"] = (hash) =>
    Effect.gen(function*() {
      const found = yield* receipt(hash)
      if (Option.isNone(found)) return { _tag: "NotMined" } as const
      const mined = found.value
      const [block, head] = yield* Effect.all([
        call(() =>
          client.request({ method: "eth_getBlockByNumber", params: [`0x${mined.blockNumber.toString(16)}`, false] })
        ),
        headBlock
      ], { concurrency: 2 })
      // A receipt from a block the canonical chain no longer has at that height counts for nothing.
      if (block === null || block.hash !== mined.blockHash || head < mined.blockNumber) {
        return { _tag: "NotMined" } as const
      }
      const blocks = Number(head - mined.blockNumber) + 1
      return { _tag: "Mined", receipt: mined, depth: blocks, confirmed: blocks >= settings.confirmations } as const
    })

  const revertCause: EvmRpc["revertCause"] = (mined) =>
    Effect.gen(function*() {
      if (mined.status === "success") return Option.none()
      const tx = yield* call(() => client.getTransaction({ hash: mined.transactionHash }))
      // Out of gas burns the whole limit but for the 1/64 a caller keeps back from a failing call.
      if (mined.gasUsed * 64n >= tx.gas * 62n) {
        return Option.some(
          new InsufficientGas({ network, reason: `used ${mined.gasUsed} of its ${tx.gas} gas limit` })
        )
      }
      // A revert's reason is not in the receipt: the transaction is replayed on its parent block's state.
      const replayed = yield* call(() =>
        client.call({
          account: tx.from,
          ...(tx.to === null ? {} : { to: tx.to }),
          data: tx.input,
          value: tx.value,
          gas: tx.gas,
          blockNumber: mined.blockNumber - 1n
        })
      ).pipe(Effect.flip, Effect.option)
      if (Option.isSome(replayed)) {
        const failure = replayed.value
        if (
          failure._tag === "SlippageExceeded" || failure._tag === "InsufficientGas" ||
          failure._tag === "TransactionReverted"
        ) return Option.some(failure)
        if (failure._tag === "NetworkUnavailable") return yield* Effect.fail(failure)
      }
      return Option.some(
        new TransactionReverted({ network, reason: "reverted on chain; its replay on the parent block did not" })
      )
    })

  const verifyChain = call(() => client.getChainId()).pipe(
    Effect.flatMap((reported) =>
      reported === settings.chainId
        ? Effect.void
        : Effect.fail(
          new NetworkUnavailable({ network, reason: `the RPC answers chain id ${reported}, not ${settings.chainId}` })
        )
    )
  )

  return {
    settings,
    client,
    verifyChain,
    headBlock,
    quote,
    balances,
    estimateSwapGas,
    broadcast,
    receipt,
    confirmations,
    revertCause
  }
}
