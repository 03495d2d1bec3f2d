// Proves that `pnpm start` with LIVE_CONFIG refuses, as an operator runs it (the real main.ts in a
// child process, exit code and stderr read back), every start live mode cannot make: a file with
// bad fields (one line per field, path and value), a file naming solana, SCENARIO beside
// LIVE_CONFIG, no DATABASE_URL, a network without the project's contract (naming `live:deploy`), a
// delegated wallet whose key variable is unset or holds another address's key (naming the
// variable, never printing the value), a network whose executor key is unset; and that nothing listens before the refusal. A node that
// does not answer is no refusal: the server starts, reports the network down and answers 503 on it.
import { assert, describe, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { privateKeyToAccount } from "viem/accounts"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const workDir = mkdtempSync(join(tmpdir(), "swapdesk-live-start-"))

// Well-known development keys (anvil's test mnemonic): never real funds.
const walletKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
const otherKey = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
const walletAddress = privateKeyToAccount(walletKey).address

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`

const network = (chainId: number, deployed = true) => ({
  rpcUrl: "http://127.0.0.1:1",
  chainId,
  confirmations: 1,
  startBlock: 0,
  dex: { kind: "uniswap-v2", factory: addr(1), router: addr(2), weth: addr(3) },
  quoteToken: "USDC",
  feeRecipient: addr(4),
  executorKeyEnv: "SWAPDESK_EXECUTOR_KEY",
  tokens: [{ symbol: "USDC", address: addr(5), decimals: 6 }, { symbol: "WETH", address: addr(3), decimals: 18 }],
  ...(deployed ? { contracts: { swapdeskRouter: addr(9) } } : {})
})

const liveFile = (networks: Record<string, unknown> = { ethereum: network(1) }) => ({
  networks,
  accounts: [{
    id: "acct_live",
    plan: "pro",
    apiKeys: [{ name: "bot", key: `sd_live_${"a1B2".repeat(10)}`, scopes: ["read", "trade"] }],
    wallets: [{ network: "ethereum", address: walletAddress, signingKeyEnv: "WALLET_ACCT_LIVE_ETHEREUM" }]
  }]
})

let files = 0
const writeLive = (content: unknown): string => {
  const path = join(workDir, `live-${files++}.json`)
  writeFileSync(path, JSON.stringify(content))
  return path
}

/** Runs main.ts to its end with `env` over a clean environment; its exit code and all it printed. */
const run = (env: Record<string, string>): Promise<{ readonly code: number | null; readonly output: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [mainPath], {
      env: { PATH: process.env["PATH"] ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })

const database = () => `sqlite:${join(workDir, `db-${files++}.sqlite`)}`

const refused = async (env: Record<string, string>) => {
  const { code, output } = await run(env)
  assert.strictEqual(code, 1, output)
  assert.notInclude(output, "listening on")
  return output
}

describe("pnpm start with LIVE_CONFIG", () => {
  it("refuses a bad file with one line per bad field, naming its path and value", async () => {
    const file = liveFile() as any
    file.networks.ethereum.confirmations = 0
    file.networks.ethereum.quoteToken = "DAI"
    const path = writeLive(file)
    const output = await refused({ LIVE_CONFIG: path, DATABASE_URL: database() })
    assert.include(output, `swapdesk: LIVE_CONFIG ${path}: invalid live configuration:`)
    assert.include(output, "\n  networks.ethereum.confirmations: must be at least 1 (found 0)")
    assert.include(output, "\n  networks.ethereum.quoteToken: must be one of the network's tokens (found \"DAI\")")
  }, 60_000)

  it("refuses a file that names solana, and one that is not JSON or cannot be read", async () => {
    const solana = await refused({
      LIVE_CONFIG: writeLive(liveFile({ ethereum: network(1), solana: { rpcUrl: "http://127.0.0.1:8899" } })),
      DATABASE_URL: database()
    })
    assert.include(solana, "networks.solana: live mode on solana comes later")
    const notJson = join(workDir, "not-json.json")
    writeFileSync(notJson, "{ networks")
    assert.include(await refused({ LIVE_CONFIG: notJson, DATABASE_URL: database() }), "is not valid JSON")
    const absent = join(workDir, "absent.json")
    assert.include(
      await refused({ LIVE_CONFIG: absent, DATABASE_URL: database() }),
      `LIVE_CONFIG ${absent}: cannot be read`
    )
  }, 60_000)

  it("refuses SCENARIO beside LIVE_CONFIG, and a start without DATABASE_URL", async () => {
    const path = writeLive(liveFile())
    assert.include(
      await refused({
        LIVE_CONFIG: path,
        SCENARIO: path,
        DATABASE_URL: database(),
        WALLET_ACCT_LIVE_ETHEREUM: walletKey
      }),
      "SCENARIO and LIVE_CONFIG are both set"
    )
    assert.include(
      await refused({ LIVE_CONFIG: path, WALLET_ACCT_LIVE_ETHEREUM: walletKey }),
      "swapdesk: DATABASE_URL is required in live mode"
    )
  }, 60_000)

  it("refuses a network without the project's contract, naming the command that deploys it", async () => {
    const path = writeLive(liveFile({ ethereum: network(1), base: network(8453, false) }))
    const output = await refused({ LIVE_CONFIG: path, DATABASE_URL: database(), WALLET_ACCT_LIVE_ETHEREUM: walletKey })
    assert.include(output, "the project's contract is not deployed on base")
    assert.include(output, "`npx -y pnpm@12.21.0 live:deploy`")
  }, 60_000)

  it(
    "refuses a delegated wallet whose key is unset or another address's, naming the variable, never the value",
    async () => {
      const path = writeLive(liveFile())
      const unset = await refused({ LIVE_CONFIG: path, DATABASE_URL: database() })
      assert.include(unset, "WALLET_ACCT_LIVE_ETHEREUM")
      assert.include(unset, "is not set")
      const other = await refused({ LIVE_CONFIG: path, DATABASE_URL: database(), WALLET_ACCT_LIVE_ETHEREUM: otherKey })
      assert.include(other, "WALLET_ACCT_LIVE_ETHEREUM")
      assert.include(other, `not of ${walletAddress}`)
      for (const form of [otherKey, otherKey.slice(2), otherKey.slice(2).toUpperCase()]) {
        assert.notInclude(other.toLowerCase(), form.toLowerCase())
      }
    },
    60_000
  )

  it("refuses a network whose executor key is unset, naming the variable", async () => {
    const path = writeLive(liveFile())
    const output = await refused({ LIVE_CONFIG: path, DATABASE_URL: database(), WALLET_ACCT_LIVE_ETHEREUM: walletKey })
    assert.include(output, "SWAPDESK_EXECUTOR_KEY")
    assert.include(output, "is not set")
  }, 60_000)

  it("starts with a network whose RPC does not answer, reporting it down and answering 503 on it", async () => {
    const path = writeLive(liveFile())
    const child = spawn(process.execPath, [mainPath], {
      env: {
        PATH: process.env["PATH"] ?? "",
        PORT: "0",
        HOST: "127.0.0.1",
        LIVE_CONFIG: path,
        DATABASE_URL: database(),
        WALLET_ACCT_LIVE_ETHEREUM: walletKey,
        SWAPDESK_EXECUTOR_KEY: otherKey
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString()
          const match = /listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)
          if (match !== null) resolve(`http://127.0.0.1:${match[1]}`)
        })
        void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)))
      })
      const health = await (await fetch(`${baseUrl}/v1/health`)).json() as any
      assert.deepStrictEqual(health.data.networks, {
        ethereum: { chainId: 1, rpc: "down", headBlock: null, indexedBlock: null, lagBlocks: null, lagging: true }
      })
      const quote = await fetch(`${baseUrl}/v1/quote?tokenIn=USDC&tokenOut=WETH&amountIn=10&network=ethereum`, {
        headers: { authorization: `Bearer sd_live_${"a1B2".repeat(10)}` }
      })
      assert.strictEqual(quote.status, 503)
      assert.strictEqual(quote.headers.get("retry-after"), "5")
      assert.strictEqual(((await quote.json()) as any).error.code, "NETWORK_UNAVAILABLE")
      child.kill("SIGTERM")
      assert.strictEqual(await exited, 0)
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  }, 60_000)
})
