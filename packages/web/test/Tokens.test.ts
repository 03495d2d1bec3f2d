// Proves the pickers' token list is the catalogue the server answers (`GET /v1/tokens`): the
// simulator registry's tokens, in the wire form the route answers them, become the list with the same
// symbol, name, decimals and address per network, in the same order; a network this interface does
// not know is left out; and the search finds a token by symbol, name or address on its network only.
import { simulatorTokens } from "@swapdesk/core"
import { beforeAll, describe, expect, it } from "vitest"
import {
  defaultToken,
  listedNetworks,
  matchesToken,
  tokenCatalogue,
  tokenInfoOf,
  tokensOn,
  type TokenView
} from "../src/app/Tokens.ts"

/** The registry's tokens as `GET /v1/tokens` answers them. */
const wire: ReadonlyArray<TokenView> = simulatorTokens.map(({ addresses, decimals, name, stablecoin, symbol }) => ({
  symbol,
  name,
  decimals,
  stablecoin,
  networks: { ...addresses }
}))

/** The symbols a search for `query` finds on `network`. */
const on = (network: "solana" | "ethereum", query: string) =>
  tokensOn(network).filter((entry) => matchesToken(entry, network, query)).map((entry) => entry.symbol)

beforeAll(() => {
  tokenCatalogue.value = wire.map(tokenInfoOf)
})

describe("the interface's token list", () => {
  it("is the server's catalogue, in its order", () => {
    expect(tokenCatalogue.value.map(({ addresses, decimals, name, symbol }) => ({ symbol, name, decimals, addresses })))
      .toEqual(simulatorTokens.map(({ addresses, decimals, name, symbol }) => ({ symbol, name, decimals, addresses })))
    expect(listedNetworks.value).toEqual(["solana", "ethereum", "base", "arbitrum"])
    expect(defaultToken()).toBe("SOL")
  })

  it("keeps only the networks the interface knows, and opens on the first network listed", () => {
    const info = tokenInfoOf({
      symbol: "TKA",
      name: "Token A",
      decimals: 18,
      stablecoin: false,
      networks: { ethereum: "0x0000000000000000000000000000000000000001", devnet: "0x02" }
    })
    expect(info.addresses).toEqual({ ethereum: "0x0000000000000000000000000000000000000001" })
    const before = tokenCatalogue.value
    tokenCatalogue.value = [info]
    expect(listedNetworks.value).toEqual(["ethereum"])
    expect(defaultToken()).toBe("TKA")
    tokenCatalogue.value = before
  })

  it("finds a token by symbol, name or address on its network only", () => {
    expect(on("solana", "bo")).toEqual(["BONK"])
    expect(on("solana", "jupiter")).toEqual(["JUP"])
    expect(on("ethereum", "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48")).toEqual(["USDC"])
    // A solana mint is case-sensitive; an address on another network names nothing here.
    expect(on("solana", "epjfwdd5aufqssqem2qn1xzybapc8g4wegGkZwyTDt1v")).toEqual([])
    expect(on("solana", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48")).toEqual([])
    expect(on("ethereum", "WIF")).toEqual([])
  })
})
