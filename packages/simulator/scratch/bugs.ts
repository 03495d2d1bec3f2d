import { decodeScenario, InvalidScenario, Simulation } from "../src/index.ts"
const tryIt = (name: string, input: unknown) => {
  try {
    const s = decodeScenario(input)
    try {
      const sim = new Simulation(s)
      console.log(name, "OK built", sim.startMs, new Date(sim.startMs).toISOString())
    } catch (e) {
      console.log(name, "BUILD THROWS", (e as Error).message)
    }
  } catch (e) {
    console.log(name, "INVALID", e instanceof InvalidScenario ? JSON.stringify(e.issues) : e)
  }
}
tryIt("frac", { historyDays: 1, clock: { mode: "manual", start: "2026-01-01T00:00:00.500Z" } })
tryIt("feb30", { historyDays: 1, clock: { mode: "manual", start: "2026-02-30T00:00:00Z" } })
tryIt("offset", { historyDays: 1, clock: { mode: "manual", start: "2026-01-01T05:00:00+02:00" } })
tryIt("net", { historyDays: 1, networks: { polygon: { failureRate: 0 } } })
tryIt("badkey", { sed: 7 })
tryIt("mode", { clock: { mode: "fast" } })
tryIt("neg", { networks: { solana: { failureRate: -0.1 } } })
tryIt("blk0", { networks: { solana: { blockTimeMs: 0.5 } } })
tryIt("seedfloat", { historyDays: 1, seed: 1.5 })
tryIt("seedNaN", { historyDays: 1, seed: "" })
tryIt("wallet", {
  historyDays: 1,
  accounts: [{
    id: "acct_a",
    wallets: [{
      network: "solana",
      address: "x",
      balances: { FOO: "1", usdc: "1", USDC: "1.1234567", BONK: "-1", ETH: "1" }
    }]
  }]
})
tryIt("dup", { accounts: [{ id: "acct_a" }, { id: "acct_a" }] })
tryIt("key", { accounts: [{ id: "acct_a", apiKeys: [{ name: "k", key: "sd_test_short", scopes: ["read"] }] }] })
tryIt("scope", {
  accounts: [{ id: "acct_a", apiKeys: [{ name: "k", key: "sd_test_" + "a".repeat(40), scopes: ["admin"] }] }]
})
tryIt("tokens", { tokens: [{ symbol: "FOO" }, { symbol: "sol", priceUsd: -1 }] })
tryIt("zero", {
  historyDays: 1,
  accounts: [{
    id: "acct_a",
    wallets: [{ network: "solana", address: "x", balances: { SOL: "0", USDC: "00", JUP: "0.0" } }]
  }]
})
tryIt("bigbal", {
  historyDays: 1,
  accounts: [{ id: "acct_a", wallets: [{ network: "solana", address: "x", balances: { SOL: "1" + "0".repeat(31) } }] }]
})
tryIt("year", { historyDays: 1, clock: { mode: "manual", start: "1969-12-31T23:59:59Z" } })
tryIt("arr", [])
tryIt("null", null)
tryIt("speed", { historyDays: 1, clock: { mode: "realtime", speed: 0 } })
tryIt("conf", { historyDays: 1, networks: { ethereum: { confirmations: 0, blockTimeMs: 1 } } })
tryIt("liq", { historyDays: 1, tokens: [{ symbol: "SOL", liquidityUsd: { ethereum: 5 } }] })
tryIt("liq2", { historyDays: 1, tokens: [{ symbol: "USDC", priceUsd: 2 }] })
tryIt("dupTok", { historyDays: 1, tokens: [{ symbol: "SOL", priceUsd: 2 }, { symbol: "sol", priceUsd: 3 }] })
