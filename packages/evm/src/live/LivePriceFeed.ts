/**
 * The core's `PriceFeed` on real chains, from what the chain says now: a token's USD price is the
 * mid price (reserves, no LP fee) of its pool against its network's `quoteToken` (taken as exactly
 * 1 USD), or through WETH's pool, on the token's network of record, in exact decimals. The 24 h
 * statistics and candles need the index of the pools' swaps, which is not built yet: until then
 * they carry the spot price and no made-up figure (docs/decisions.md, "Live market data before the
 * index").
 */
import { type MarketStats, MoneyDecimal, type PriceFeed, type Token } from "@swapdesk/core"
import { Clock, Effect } from "effect"
import { type Address, parseAbi, zeroAddress } from "viem"
import { nativeTokenAddress } from "../EvmNetwork.ts"
import { type EvmRpcFailure, rpcFailure } from "../EvmRpcFailure.ts"
import { type LiveNetworkContext, type LiveStateShape, networkContext, tokenAddress } from "./LiveState.ts"

const factoryAbi = parseAbi(["function getPair(address tokenA, address tokenB) view returns (address pair)"])
const pairAbi = parseAbi([
  "function token0() view returns (address)",
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)"
])

const call = <A>(context: LiveNetworkContext, run: () => Promise<A>): Effect.Effect<A, EvmRpcFailure> =>
  Effect.tryPromise({ try: run, catch: (error) => rpcFailure(context.network, error) })

/**
 * Units of `quote` per unit of `base` at the pool's mid price at `blockNumber`, when a pool with
 * liquidity exists.
 */
const midPrice = (context: LiveNetworkContext, base: Address, quote: Address, blockNumber: bigint) =>
  Effect.gen(function*() {
    const client = context.rpc.client
    const pair = yield* call(context, () =>
      client.readContract({
        address: context.rpc.settings.dex.factory,
        abi: factoryAbi,
        functionName: "getPair",
        args: [base, quote],
        blockNumber
      }))
    if (pair === zeroAddress) return undefined
    const [token0, [reserve0, reserve1]] = yield* call(context, () =>
      Promise.all([
        client.readContract({ address: pair, abi: pairAbi, functionName: "token0", blockNumber }),
        client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves", blockNumber })
      ]))
    const [baseReserve, quoteReserve] = token0.toLowerCase() === base.toLowerCase()
      ? [reserve0, reserve1]
      : [reserve1, reserve0]
    if (baseReserve === 0n || quoteReserve === 0n) return undefined
    const decimalsOf = (address: Address) =>
      address.toLowerCase() === context.rpc.settings.dex.weth.toLowerCase()
        ? 18
        : context.settings.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())?.decimals ?? 18
    return new MoneyDecimal(quoteReserve.toString()).div(10 ** decimalsOf(quote))
      .div(new MoneyDecimal(baseReserve.toString()).div(10 ** decimalsOf(base)))
  })

/** The spot price; every figure that needs the swap index is 0 (docs/decisions.md). */
const statsOf = (symbol: string, price: MoneyDecimal): MarketStats => ({
  symbol,
  priceUsd: price,
  change24hPercent: 0,
  volume24hUsd: 0,
  marketCapUsd: 0,
  volumeByNetworkUsd: {},
  buyVolume24hUsd: 0,
  sellVolume24hUsd: 0,
  holders: { count: 0, top10Percent: 0 },
  whaleActivity: { transactions24h: 0, netFlow24hUsd: 0 },
  volume1hUsd: 0,
  averageHourlyVolume24hUsd: 0
})

/** The core's `PriceFeed` over the shared state; `tokens` are the file's (`liveTokensOf`). */
export const makeLivePriceFeed = (state: LiveStateShape, tokens: ReadonlyArray<Token>): PriceFeed["Service"] => {
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]))
  /** The last price read of each token: what a read answers while its network is down. */
  const lastPrice = new Map<string, MoneyDecimal>()
  /** The last statistics handed out per token: the same object while the price stands still. */
  const lastStats = new Map<string, MarketStats>()

  /** The price now: every pool read at one block. */
  const readPrice = (symbol: string) =>
    Effect.gen(function*() {
      const token = bySymbol.get(symbol)
      if (token === undefined) return yield* Effect.die(new Error(`${symbol} is not a token of the live file`))
      const context = networkContext(state, token.primaryNetwork)
      if (symbol === context.settings.quoteToken.toUpperCase()) return new MoneyDecimal(1)
      const weth = context.rpc.settings.dex.weth
      const address = tokenAddress(context, symbol)
      const base = address === nativeTokenAddress ? weth : address
      const quote = tokenAddress(context, context.settings.quoteToken)
      const blockNumber = yield* context.rpc.headBlock
      const direct = yield* midPrice(context, base, quote, blockNumber)
      if (direct !== undefined) return direct
      const [inWeth, wethUsd] = yield* Effect.all([
        midPrice(context, base, weth, blockNumber),
        midPrice(context, weth, quote, blockNumber)
      ], { concurrency: 2 })
      if (inWeth === undefined || wethUsd === undefined) {
        return yield* Effect.die(new Error(`${symbol} has no pool against ${context.settings.quoteToken} or WETH`))
      }
      return inWeth.mul(wethUsd)
    })

  const priceUsd: PriceFeed["Service"]["priceUsd"] = (symbol) =>
    readPrice(symbol).pipe(
      Effect.tap((price) => Effect.sync(() => lastPrice.set(symbol, price))),
      Effect.catch((failure) => {
        const known = lastPrice.get(symbol)
        return known === undefined ? Effect.die(failure) : Effect.succeed(known)
      })
    )

  const stats: PriceFeed["Service"]["stats"] = (symbol) =>
    Effect.map(priceUsd(symbol), (price) => {
      const known = lastStats.get(symbol)
      if (known !== undefined && known.priceUsd.eq(price)) return known
      const fresh = statsOf(symbol, price)
      lastStats.set(symbol, fresh)
      return fresh
    })

  return {
    priceUsd,
    stats,
    hourlyVolumes: () => Effect.succeed({ volume1hUsd: 0, averageHourlyVolume24hUsd: 0 }),
    candles: () => Effect.succeed([]),
    trending: () => Effect.map(Clock.currentTimeMillis, (updatedAt) => ({ updatedAt, entries: [] })),
    fxRate: (currency) =>
      currency === "USD"
        ? Effect.succeed(new MoneyDecimal(1))
        : Effect.die(new Error(`${currency}: live prices are in USD only until the file's fx feeds are read`))
  }
}
