// Proves the live configuration file's decoding: a file shaped as docs/live.md shows decodes; a
// file with several bad fields is refused with one line per bad field, each naming its path and
// value, all in one pass; solana is refused as coming later. Delegated signing keys are read from
// an env record, refused (naming the variable) when absent, malformed or the key of another
// address, and never appear in an error, a string or JSON.
import { Effect, Exit, Redacted } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { describe, expect, it } from "vitest"
import {
  decodeLiveConfig,
  InvalidLiveConfig,
  parseLiveConfig,
  readDelegatedSigners,
  signerAccount
} from "../src/index.ts"

const walletKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
const otherKey = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
const walletAddress = privateKeyToAccount(walletKey).address

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`

const network = (chainId: number) => ({
  rpcUrl: "http://127.0.0.1:8545",
  chainId,
  confirmations: 2,
  startBlock: 0,
  dex: { kind: "uniswap-v2", factory: addr(1), router: addr(2), weth: addr(3) },
  quoteToken: "USDC",
  feeRecipient: addr(4),
  executorKeyEnv: "SWAPDESK_EXECUTOR_KEY_ETHEREUM",
  tokens: [{ symbol: "USDC", address: addr(5), decimals: 6 }, { symbol: "WETH", address: addr(3), decimals: 18 }]
})

const validFile = () => ({
  networks: { ethereum: network(1), base: { ...network(8453), contracts: { swapdeskRouter: addr(9) } } },
  accounts: [{
    id: "acct_live",
    plan: "pro",
    apiKeys: [
      { name: "bot", key: `sd_live_${"a1B2".repeat(10)}`, scopes: ["read", "trade", "alerts", "account"] },
      { name: "ops", keyHash: "ab".repeat(32), scopes: ["read"] }
    ],
    wallets: [
      { network: "ethereum", address: walletAddress, signingKeyEnv: "WALLET_ACCT_LIVE_ETHEREUM" },
      { network: "base", address: addr(7) }
    ],
    notifications: { email: "ops@example.com" }
  }],
  fx: { EUR: { network: "ethereum", aggregator: addr(8) } }
})

const issuesOf = (input: unknown) => {
  try {
    decodeLiveConfig(input)
  } catch (error) {
    if (error instanceof InvalidLiveConfig) return error
    throw error
  }
  throw new Error("the file decoded")
}

describe("LiveConfig", () => {
  it("decodes a valid file", () => {
    const config = parseLiveConfig(JSON.stringify(validFile()))
    expect(config.networks.ethereum?.chainId).toBe(1)
    expect(config.networks.base?.contracts?.swapdeskRouter).toBe(addr(9))
    expect(config.accounts[0]?.wallets?.[0]?.signingKeyEnv).toBe("WALLET_ACCT_LIVE_ETHEREUM")
  })

  it("lists every bad field in one pass, one line each with its path and value", () => {
    const file = validFile() as any
    file.networks.ethereum.confirmations = 0
    file.networks.ethereum.startBlock = -1
    file.networks.ethereum.dex.router = "0x1234"
    file.networks.ethereum.quoteToken = "DAI"
    file.networks.base.tokens.push({ symbol: "USDC", address: addr(6), decimals: 6 })
    file.networks.base.rpcUrl = "localhost:8545"
    file.accounts[0].apiKeys[0].key = "sd_test_" + "a".repeat(40)
    file.accounts[0].apiKeys[1].key = `sd_live_${"b".repeat(40)}`
    file.accounts[0].wallets[1].address = "0xABCDEFabcdef0000000000000000000000000000"
    const error = issuesOf(file)
    const expected = [
      ["networks.ethereum.confirmations", 0],
      ["networks.ethereum.startBlock", -1],
      ["networks.ethereum.dex.router", "0x1234"],
      ["networks.ethereum.quoteToken", "DAI"],
      ["networks.base.tokens.2.symbol", "USDC"],
      ["networks.base.rpcUrl", "localhost:8545"],
      ["accounts.0.apiKeys.0.key", "sd_test_" + "a".repeat(40)],
      ["accounts.0.apiKeys.1", file.accounts[0].apiKeys[1]],
      ["accounts.0.wallets.1.address", "0xABCDEFabcdef0000000000000000000000000000"]
    ] as const
    expect(error.issues.map((i) => i.path).toSorted()).toEqual(expected.map(([path]) => path).toSorted())
    const lines = error.message.split("\n").slice(1)
    expect(lines).toHaveLength(expected.length)
    for (const [path, value] of expected) {
      const line = lines.find((l) => l.startsWith(`  ${path}: `))
      expect(line, path).toBeDefined()
      expect(line).toContain(`(found ${JSON.stringify(value)})`)
    }
  })

  it("refuses solana, naming it as coming later, and an unknown network", () => {
    const file = validFile() as any
    file.networks.solana = network(0)
    file.networks.polygon = network(137)
    const error = issuesOf(file)
    expect(error.issues.map((i) => i.path).toSorted()).toEqual(["networks.polygon", "networks.solana"])
    expect(error.issues.find((i) => i.path === "networks.solana")?.message).toMatch(/solana comes later/)
  })

  it("refuses wallets on unconfigured networks and duplicate ids and keys", () => {
    const file = validFile() as any
    file.accounts.push({ ...file.accounts[0], wallets: [{ network: "arbitrum", address: addr(10) }] })
    const error = issuesOf(file)
    expect(error.issues.map((i) => i.path).toSorted()).toEqual([
      "accounts.1.apiKeys.0.key",
      "accounts.1.apiKeys.1.keyHash",
      "accounts.1.id",
      "accounts.1.wallets.0.network"
    ])
  })

  it("reports text that is not JSON", () => {
    expect(() => parseLiveConfig("{")).toThrow(/\(root\): is not valid JSON/)
  })
})

describe("readDelegatedSigners", () => {
  const config = decodeLiveConfig(validFile())
  const failureOf = (env: Record<string, string>) => {
    const exit = Effect.runSyncExit(readDelegatedSigners(config, env))
    if (!Exit.isFailure(exit)) throw new Error("the keys were read")
    const reason = exit.cause.reasons[0]
    if (reason?._tag !== "Fail") throw new Error("not a failure")
    return reason.error
  }

  it("reads each delegated wallet's key, redacted everywhere", () => {
    const signers = Effect.runSync(readDelegatedSigners(config, { WALLET_ACCT_LIVE_ETHEREUM: walletKey }))
    expect(signers).toHaveLength(1)
    const [signer] = signers
    expect(signer?.address).toBe(walletAddress)
    expect(signerAccount(signer!).address).toBe(walletAddress)
    expect(Redacted.value(signer!.key)).toBe(walletKey)
    const shown = [JSON.stringify(signers), String(signer!.key), `${signer!.key}`, JSON.stringify(signer!.key)]
    for (const text of shown) expect(text).not.toContain(walletKey.slice(2, 20))
  })

  it("fails naming the variable when it is absent", () => {
    const error = failureOf({})
    expect(error.problems.map((p) => p.variable)).toEqual(["WALLET_ACCT_LIVE_ETHEREUM"])
    expect(error.message).toMatch(/WALLET_ACCT_LIVE_ETHEREUM .*is not set/)
  })

  it("fails naming the variable, and never the key, when it is another address's key or not a key", () => {
    for (const value of [otherKey, `${otherKey.slice(0, 40)}zz`]) {
      const error = failureOf({ WALLET_ACCT_LIVE_ETHEREUM: value })
      expect(error.message).toContain("WALLET_ACCT_LIVE_ETHEREUM")
      for (const text of [error.message, String(error), JSON.stringify(error)]) {
        expect(text).not.toContain(value.slice(2, 20))
      }
    }
    expect(failureOf({ WALLET_ACCT_LIVE_ETHEREUM: otherKey }).message).toMatch(/is the key of 0x/)
  })
})
