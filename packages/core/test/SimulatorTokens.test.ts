// Proves the simulator's token catalogue is well formed (at least 20 tokens, unique symbols, real-looking
// addresses, sane decimals) and that its lookups behave as docs/reference/errors.md (INVALID_TOKEN) and
// docs/simulator.md say: by symbol in any case, by contract address (EVM addresses in any case,
// Solana mints exactly), and InvalidToken for an unknown token or one that does not exist on the
// network; a contract address names its token only on the network it is the token's contract on.
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { InvalidToken } from "../src/Errors.ts"
import { type Network, networks } from "../src/Network.ts"
import { simulatorCatalog, simulatorTokens as tokens } from "../src/SimulatorTokens.ts"
import { NATIVE_EVM_ADDRESS } from "../src/Token.ts"

const { find: findToken, networksNamedBy, resolve: resolveToken, tokenOf } = simulatorCatalog

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const SOLANA_MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

const entries = tokens.flatMap((t) =>
  (Object.entries(t.addresses) as Array<[Network, string]>).map(([network, address]) => ({
    token: t,
    network,
    address
  }))
)

describe("the registry", () => {
  it("has at least 20 tokens", () => {
    assert.isAtLeast(tokens.length, 20)
  })

  it("covers the contract's default list", () => {
    for (const symbol of ["SOL", "ETH", "WETH", "USDC", "USDT", "WBTC", "BONK", "JUP", "ARB"]) {
      assert.isTrue(Option.isSome(findToken(symbol)), symbol)
    }
  })

  it("has each symbol once, in upper case", () => {
    const symbols = tokens.map((t) => t.symbol)
    assert.strictEqual(new Set(symbols).size, symbols.length)
    for (const symbol of symbols) assert.strictEqual(symbol, symbol.toUpperCase())
  })

  it("gives every token at least one address, including one on its primary network", () => {
    for (const t of tokens) {
      assert.isAtLeast(Object.keys(t.addresses).length, 1, t.symbol)
      assert.isDefined(t.addresses[t.primaryNetwork], `${t.symbol} on ${t.primaryNetwork}`)
      assert.include(networks, t.primaryNetwork)
    }
  })

  it("gives every token whole decimals between 0 and 18", () => {
    for (const t of tokens) {
      assert.isTrue(Number.isInteger(t.decimals) && t.decimals >= 0 && t.decimals <= 18, t.symbol)
    }
  })

  it("writes addresses in their network's format", () => {
    for (const { address, network, token } of entries) {
      assert.match(address, network === "solana" ? SOLANA_MINT : EVM_ADDRESS, `${token.symbol} on ${network}`)
    }
  })

  it("never gives two tokens the same contract on one network", () => {
    for (const network of networks) {
      const contracts = entries
        .filter((e) => e.network === network && e.address !== NATIVE_EVM_ADDRESS)
        .map((e) => e.address.toLowerCase())
      assert.strictEqual(new Set(contracts).size, contracts.length, network)
    }
  })

  it("knows the real contracts of well-known tokens", () => {
    assert.strictEqual(tokenOf("SOL").addresses.solana, "So11111111111111111111111111111111111111112")
    assert.strictEqual(tokenOf("USDC").addresses.ethereum, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")
    assert.strictEqual(tokenOf("USDC").addresses.solana, "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    assert.strictEqual(tokenOf("WETH").addresses.base, "0x4200000000000000000000000000000000000006")
    assert.strictEqual(tokenOf("USDC").decimals, 6)
    assert.strictEqual(tokenOf("ETH").decimals, 18)
    assert.strictEqual(tokenOf("WBTC").decimals, 8)
  })

  it("treats a symbol missing from the registry in tokenOf as a defect", () => {
    assert.throws(() => tokenOf("NOPE"))
  })
})

describe("lookup", () => {
  it.effect("finds a token by symbol in any case", () =>
    Effect.gen(function*() {
      for (const text of ["SOL", "sol", "Sol", "sOl"]) assert.strictEqual((yield* resolveToken(text)).symbol, "SOL")
    }))

  it.effect("finds every token by each of its addresses, on that network", () =>
    Effect.gen(function*() {
      for (const { address, network, token } of entries) {
        if (address === NATIVE_EVM_ADDRESS) continue
        assert.strictEqual((yield* resolveToken(address, network)).symbol, token.symbol)
        assert.strictEqual((yield* resolveToken(address)).symbol, token.symbol)
      }
    }))

  it.effect("reads EVM addresses in any case", () =>
    Effect.gen(function*() {
      const checksummed = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
      for (const text of [checksummed, checksummed.toLowerCase(), "0x" + checksummed.slice(2).toUpperCase()]) {
        assert.strictEqual((yield* resolveToken(text, "ethereum")).symbol, "USDC")
      }
    }))

  it.effect("reads Solana mints exactly (base58 is case-sensitive)", () =>
    Effect.gen(function*() {
      const mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
      assert.strictEqual((yield* resolveToken(mint, "solana")).symbol, "USDC")
      const error = yield* Effect.flip(resolveToken(mint.toLowerCase(), "solana"))
      assert.instanceOf(error, InvalidToken)
    }))

  it.effect("an unknown token is InvalidToken (400 INVALID_TOKEN), naming it", () =>
    Effect.gen(function*() {
      for (const text of ["DOGE2", "", "0x0000000000000000000000000000000000000001"]) {
        const error = yield* Effect.flip(resolveToken(text))
        assert.instanceOf(error, InvalidToken)
        assert.strictEqual(error.token, text)
        assert.isUndefined(error.network)
        assert.strictEqual(error.code, "INVALID_TOKEN")
      }
    }))

  it.effect("a token that does not exist on the network is InvalidToken, naming the network", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(resolveToken("SOL", "ethereum"))
      assert.instanceOf(error, InvalidToken)
      assert.strictEqual(error.network, "ethereum")
      assert.match(error.message, /on ethereum/)
      assert.instanceOf(yield* Effect.flip(resolveToken("bonk", "base")), InvalidToken)
      assert.instanceOf(yield* Effect.flip(resolveToken("AERO", "solana")), InvalidToken)
    }))

  it.effect("a contract address is only valid on its own network", () =>
    Effect.gen(function*() {
      const usdtOnBase = tokenOf("USDT").addresses.base!
      assert.strictEqual((yield* resolveToken(usdtOnBase, "base")).symbol, "USDT")
      const error = yield* Effect.flip(resolveToken(usdtOnBase, "arbitrum"))
      assert.instanceOf(error, InvalidToken)
      assert.strictEqual(error.network, "arbitrum")
    }))

  it.effect("every token resolves by symbol exactly on the networks it has an address on", () =>
    Effect.gen(function*() {
      for (const t of tokens) {
        for (const network of networks) {
          const exit = yield* Effect.exit(resolveToken(t.symbol.toLowerCase(), network))
          assert.strictEqual(Exit.isSuccess(exit), t.addresses[network] !== undefined, `${t.symbol} ${network}`)
        }
      }
    }))

  it("a ticker names its token on every network it exists on; a contract address only on its own", () => {
    const usdc = tokenOf("USDC")
    assert.deepStrictEqual(networksNamedBy(usdc, "usdc"), ["solana", "ethereum", "base", "arbitrum"])
    for (const { address, network, token } of entries) {
      if (address === NATIVE_EVM_ADDRESS) continue
      assert.deepStrictEqual(networksNamedBy(token, address), [network], `${token.symbol} ${network}`)
      assert.deepStrictEqual(networksNamedBy(token, address.toLowerCase()), address.startsWith("0x") ? [network] : [])
    }
  })
})
