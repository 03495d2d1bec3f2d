// Proves the interface's token list is the server's registry: every token of
// `packages/core/src/Token.ts`, with the same name, decimals and address on every network, in the
// same order, and nothing else; so a token picked in the interface is one the API resolves, and
// the decimals the amount checks use are the ones the API enforces.
import { simulatorTokens } from "@swapdesk/core"
import { describe, expect, it } from "vitest"
import { matchesToken, tokenList, tokensOn } from "../src/app/Tokens.ts"

/** The symbols a search for `query` finds on `network`. */
const on = (network: "solana" | "ethereum", query: string) =>
  tokensOn(network).filter((entry) => matchesToken(entry, network, query)).map((entry) => entry.symbol)

describe("the interface's token list", () => {
  it("is the server's registry", () => {
    expect(tokenList.map(({ symbol, name, decimals, addresses }) => ({ symbol, name, decimals, addresses }))).toEqual(
      simulatorTokens.map(({ symbol, name, decimals, addresses }) => ({ symbol, name, decimals, addresses }))
    )
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
