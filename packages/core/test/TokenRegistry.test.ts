// Proves the token registry is a port: `makeTokenCatalog` refuses a list it could not answer from (a symbol
// twice, a contract twice on one network, a lower-case symbol, a token absent from its primary network) and
// keeps apart one address naming different tokens on different networks; and a catalogue that is not the
// simulator's drives the core's use cases end to end. `Trades` runs on the in-memory repositories and on
// stand-ins of the chain, wallets and price feed answering in the custom tokens' base units: a symbol the
// simulator does not know resolves, a simulator-only symbol or contract is `INVALID_TOKEN`, a contract
// address resolves on its own network, and quotes, trades, views and events show amounts in the custom
// tokens' decimals; and the order a wallet signs names the custom tokens' contracts.
import { assert, describe, it } from "@effect/vitest"
import { Decimal } from "decimal.js"
import { Effect, Exit, Layer, Option } from "effect"
import { Chain } from "../src/Chain.ts"
import { type DomainEvent, DomainEvents } from "../src/DomainEvents.ts"
import { InvalidToken } from "../src/Errors.ts"
import { IdGenerator, idPrefixes } from "../src/Ids.ts"
import { MarketClock } from "../src/MarketClock.ts"
import { layerMemoryRepositories } from "../src/MemoryRepositories.ts"
import type { Network } from "../src/Network.ts"
import { orderTypedData } from "../src/OrderSigning.ts"
import { PriceFeed } from "../src/PriceFeed.ts"
import { simulatorCatalog } from "../src/SimulatorTokens.ts"
import { NATIVE_EVM_ADDRESS, type Token } from "../src/Token.ts"
import { makeTokenCatalog, TokenRegistry } from "../src/TokenRegistry.ts"
import { Trades } from "../src/Trades.ts"
import { quoteView, tradeView } from "../src/TradeViews.ts"
import { Wallets } from "../src/Wallets.ts"
import { T0 } from "./fixtures.ts"

// Contracts deployed by one account in the same order on two chains share their addresses.
const FIRST = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const SECOND = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512"
const THIRD = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"

const token = (
  symbol: string,
  decimals: number,
  addresses: Partial<Record<Network, string>>,
  primaryNetwork: Network = "ethereum"
): Token => ({ symbol, name: symbol, decimals, primaryNetwork, addresses, stablecoin: symbol === "USDC" })

/** A live file's tokens on two local chains: ANVL exists only on base, where MOCK's address is ANVL's. */
const liveTokens: ReadonlyArray<Token> = [
  token("ETH", 18, { ethereum: NATIVE_EVM_ADDRESS, base: NATIVE_EVM_ADDRESS }),
  token("WETH", 18, { ethereum: FIRST, base: FIRST }),
  token("USDC", 6, { ethereum: SECOND, base: SECOND }),
  token("MOCK", 8, { ethereum: THIRD }),
  token("ANVL", 12, { base: THIRD }, "base")
]
const live = makeTokenCatalog(liveTokens)
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

const refused = (tokens: ReadonlyArray<Token>, problem: RegExp) =>
  assert.throws(() => makeTokenCatalog(tokens), problem)

describe("makeTokenCatalog", () => {
  it("refuses a list it could not answer from, naming every problem", () => {
    refused(
      [...liveTokens, token("USDC", 6, { ethereum: "0x0000000000000000000000000000000000000001" })],
      /USDC: listed twice/
    )
    refused(
      [...liveTokens, token("COPY", 6, { base: SECOND.toLowerCase() })],
      /COPY: .* on base is already USDC's contract/
    )
    refused([token("usdc", 6, { ethereum: SECOND })], /usdc: the symbol must be upper case/)
    refused([token("USDC", 6, { base: SECOND })], /USDC: no address on its primary network/)
    refused([token("USDC", 6.5, { ethereum: SECOND })], /USDC: decimals must be a whole number/)
    refused([token("usdc", 6, { ethereum: SECOND }), token("usdc", 6, { ethereum: FIRST })], /upper case.*listed twice/)
  })

  it("lets one address name different tokens on different networks, and none without a network", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* live.resolve(THIRD, "ethereum")).symbol, "MOCK")
      assert.strictEqual((yield* live.resolve(THIRD.toLowerCase(), "base")).symbol, "ANVL")
      assert.isTrue(Option.isNone(live.find(THIRD)))
      const alone = yield* Effect.flip(live.resolve(THIRD))
      assert.instanceOf(alone, InvalidToken)
      assert.isUndefined(alone.network)
      assert.deepStrictEqual(live.networksNamedBy(live.tokenOf("ANVL"), THIRD), ["base"])
      // The same token at one address on two networks is one token: the address names it alone.
      assert.strictEqual((yield* live.resolve(SECOND)).symbol, "USDC")
      assert.deepStrictEqual(live.networksNamedBy(live.tokenOf("USDC"), SECOND), ["ethereum", "base"])
    }).pipe(Effect.runSync))

  it("marks the native coin by its placeholder address, which names no contract", () =>
    Effect.gen(function*() {
      assert.isTrue(live.isTradableOn(live.tokenOf("ETH"), "base"))
      assert.isFalse(live.isTradableOn(live.tokenOf("ETH"), "arbitrum"))
      assert.instanceOf(yield* Effect.flip(live.resolve(NATIVE_EVM_ADDRESS, "ethereum")), InvalidToken)
      assert.strictEqual((yield* live.resolve("eth", "base")).symbol, "ETH")
    }).pipe(Effect.runSync))
})

describe("a catalogue that is not the simulator's, in what a wallet signs", () => {
  it("names each token of an order by its contract on the order's network", () => {
    const terms = { id: "ord_1", tokenIn: "ANVL", tokenOut: "ETH", amountIn: 1n, minAmountOut: 1n, expiresAt: null }
    const onBase = orderTypedData({ ...terms, network: "base" }, WALLET, live).message
    assert.deepStrictEqual([onBase.tokenIn, onBase.tokenOut], [THIRD, NATIVE_EVM_ADDRESS])
    const onEthereum = orderTypedData({ ...terms, tokenIn: "USDC", network: "ethereum" }, WALLET, live).message
    assert.strictEqual(onEthereum.tokenIn, SECOND)
    assert.throws(() => orderTypedData({ ...terms, network: "ethereum" }, WALLET, live), /ANVL has no address/)
  })
})

const ACCOUNT = "acc_live"
const GAS_FEE = 21_000n * 1_000_000_000n

/** 10^decimals of the token, in the test's own list (what a chain adapter reads from its tokens). */
const unitOf = (symbol: string) => 10n ** BigInt(liveTokens.find((t) => t.symbol === symbol)!.decimals)

/** A chain pricing every token at 2 of any other, net of nothing; it broadcasts at once and never confirms. */
const chain = Layer.succeed(Chain, {
  quote: (request) =>
    Effect.succeed({
      grossOut: (request.amountIn * 2n * unitOf(request.tokenOut)) / unitOf(request.tokenIn),
      priceImpactPercent: 0.1,
      gasFee: GAS_FEE
    }),
  submit: (intent) => Effect.succeed([{ _tag: "Broadcast" as const, at: T0, txHash: `0x${intent.tradeId}` }]),
  decide: () => Effect.die("no trade awaits approval here"),
  approvalOf: () => Effect.succeed(undefined)
})

/** One delegated wallet per network; a hold always fits (balances are not this test's subject). */
const wallets = Layer.succeed(Wallets, {
  wallet: (_, network) => Effect.succeed(Option.some({ network, address: WALLET, delegatedSigning: true })),
  list: () => Effect.die("unused"),
  balances: () => Effect.die("unused"),
  revision: () => Effect.succeed(0),
  reserve: () => Effect.void,
  release: () => Effect.void,
  transferHold: () => Effect.void,
  opening: () => Effect.die("unused")
})

const feed = Layer.succeed(PriceFeed, {
  priceUsd: () => Effect.succeed(new Decimal(1)),
  stats: () => Effect.die("unused"),
  hourlyVolumes: () => Effect.die("unused"),
  candles: () => Effect.die("unused"),
  trending: () => Effect.die("unused"),
  fxRate: () => Effect.succeed(new Decimal(1))
})

const published: Array<DomainEvent> = []
let nextId = 0

const world = Trades.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(
    layerMemoryRepositories,
    chain,
    wallets,
    feed,
    TokenRegistry.layer(liveTokens),
    Layer.succeed(MarketClock, { now: Effect.succeed(T0) }),
    Layer.succeed(DomainEvents, { publish: (event) => Effect.sync(() => void published.push(event)) }),
    Layer.succeed(IdGenerator, {
      next: (kind) => Effect.sync(() => `${idPrefixes[kind]}${++nextId}`),
      token: (length) => Effect.succeed("x".repeat(length))
    })
  ))
)

describe("a catalogue that is not the simulator's, through Trades", () => {
  it.effect("quotes a token the simulator does not know, in that token's decimals", () =>
    Effect.gen(function*() {
      const trades = yield* Trades
      const quote = yield* trades.quote(ACCOUNT, {
        tokenIn: "usdc",
        tokenOut: "anvl",
        amountIn: "2.5",
        network: "base"
      })
      assert.strictEqual(quote.tokenOut.symbol, "ANVL")
      assert.strictEqual(quote.amountIn, 2_500_000n)
      const view = quoteView(yield* TokenRegistry)(quote)
      assert.strictEqual(view.amountIn, "2.5")
      assert.strictEqual(view.fee, "0.0125")
      assert.strictEqual(view.estimatedAmountOut, "4.9875")
      assert.strictEqual(view.gasFee, "0.000021")
      assert.strictEqual(view.rate, "1.995")
    }).pipe(Effect.provide(world)))

  it.effect("refuses the simulator's tokens, by symbol or by contract, as INVALID_TOKEN", () =>
    Effect.gen(function*() {
      const trades = yield* Trades
      assert.isTrue(Option.isNone((yield* TokenRegistry).find("SOL")))
      const quote = (tokenIn: string, network: Network) =>
        Effect.flip(trades.quote(ACCOUNT, { tokenIn, tokenOut: "USDC", amountIn: "1", network }))
      for (const [tokenIn, network] of [["SOL", "base"], ["BONK", "base"], ["ARB", "ethereum"]] as const) {
        const error = yield* quote(tokenIn, network)
        assert.instanceOf(error, InvalidToken, tokenIn)
        assert.strictEqual(error.code, "INVALID_TOKEN")
        assert.isUndefined((error as InvalidToken).network, "unknown here, not merely absent from the network")
      }
      const mainnetUsdc = simulatorCatalog.tokenOf("USDC").addresses.ethereum!
      assert.instanceOf(yield* quote(mainnetUsdc, "ethereum"), InvalidToken)
      // Known here, but not on this network: the error names the network.
      const elsewhere = yield* quote("ANVL", "ethereum")
      assert.instanceOf(elsewhere, InvalidToken)
      assert.strictEqual((elsewhere as InvalidToken).network, "ethereum")
    }).pipe(Effect.provide(world)))

  it.effect("resolves a contract address on its own network: the same address is another token elsewhere", () =>
    Effect.gen(function*() {
      const trades = yield* Trades
      const onBase = yield* trades.quote(ACCOUNT, {
        tokenIn: THIRD.toLowerCase(),
        tokenOut: "WETH",
        amountIn: "1",
        network: "base"
      })
      const onEthereum = yield* trades.quote(ACCOUNT, {
        tokenIn: THIRD,
        tokenOut: "WETH",
        amountIn: "1",
        network: "ethereum"
      })
      assert.strictEqual(onBase.tokenIn.symbol, "ANVL")
      assert.strictEqual(onBase.amountIn, 10n ** 12n)
      assert.strictEqual(onEthereum.tokenIn.symbol, "MOCK")
      assert.strictEqual(onEthereum.amountIn, 10n ** 8n)
    }).pipe(Effect.provide(world)))

  it.effect("creates, lists and shows a trade, and publishes it, in the custom tokens' decimals", () =>
    Effect.gen(function*() {
      const trades = yield* Trades
      published.length = 0
      const created = yield* trades.create(ACCOUNT, {
        tokenIn: "ETH",
        tokenOut: SECOND,
        amountIn: "0.5",
        network: "base"
      })
      assert.strictEqual(created.tokenOut, "USDC")
      assert.strictEqual(created.amountIn, 5n * 10n ** 17n)
      const view = tradeView(yield* TokenRegistry)(created)
      assert.strictEqual(view.amountIn, "0.5")
      assert.strictEqual(view.estimatedAmountOut, "0.9975")
      assert.strictEqual(view.gasFee, "0.000021")
      assert.deepStrictEqual(published.map((e) => [e.type, e.data["amountIn"], e.data["fee"]]), [
        ["trade.created", "0.5", "0.0025"]
      ])
      const byAddress = yield* trades.list(ACCOUNT, { token: SECOND.toLowerCase() })
      assert.deepStrictEqual(byAddress.items.map((t) => t.id), [created.id])
      const listedElsewhere = yield* Effect.exit(trades.list(ACCOUNT, { token: "ANVL", network: "ethereum" }))
      assert.isTrue(Exit.isFailure(listedElsewhere))
    }).pipe(Effect.provide(world)))
})
