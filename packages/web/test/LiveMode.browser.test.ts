// Proves the header in live mode, in Chromium against the real standalone server (`main.ts` in a
// child process with a LIVE_CONFIG file): the badge says Live and lists the file's network, marked
// down when its node does not answer (an RPC address nothing listens on), and the simulator's
// screen is not offered.
import { spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, openPage, screenshot, signIn } from "./browser.ts"
import { holdInterface } from "./interfaceLock.ts"

const mainPath = fileURLToPath(new URL("../../server/src/main.ts", import.meta.url))
const workDir = mkdtempSync(join(tmpdir(), "swapdesk-web-live-"))

// A well-known development key (anvil's test mnemonic, its second account): never real funds.
const walletKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
// Anvil's third account: the network's executor (limit orders fill through it), also never real funds.
const executorKey = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
const walletAddress = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const apiKey = `sd_live_${"a1B2".repeat(10)}`
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`

const liveFile = {
  networks: {
    ethereum: {
      rpcUrl: "http://127.0.0.1:1",
      chainId: 1,
      confirmations: 1,
      startBlock: 0,
      dex: { kind: "uniswap-v2", factory: addr(1), router: addr(2), weth: addr(3) },
      quoteToken: "USDC",
      feeRecipient: addr(4),
      executorKeyEnv: "SWAPDESK_EXECUTOR_KEY",
      tokens: [{ symbol: "USDC", address: addr(5), decimals: 6 }, { symbol: "WETH", address: addr(3), decimals: 18 }],
      contracts: { swapdeskRouter: addr(9) }
    }
  },
  accounts: [{
    id: "acct_live",
    plan: "pro",
    apiKeys: [{ name: "bot", key: apiKey, scopes: ["read", "trade"] }],
    wallets: [{
      network: "ethereum",
      address: walletAddress,
      signingKeyEnv: "WALLET_ACCT_LIVE_ETHEREUM"
    }]
  }]
}

let browser: Browser
let child: ReturnType<typeof spawn>
let baseUrl: string

beforeAll(async () => {
  const path = join(workDir, "live.json")
  writeFileSync(path, JSON.stringify(liveFile))
  // Not while another test file builds the interface: the server reads its files as it starts.
  const release = await holdInterface("read")
  child = spawn(process.execPath, [mainPath], {
    env: {
      PATH: process.env["PATH"] ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      LIVE_CONFIG: path,
      DATABASE_URL: `sqlite:${join(workDir, "db.sqlite")}`,
      WALLET_ACCT_LIVE_ETHEREUM: walletKey,
      SWAPDESK_EXECUTOR_KEY: executorKey
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  ;[baseUrl, browser] = await Promise.all([
    new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)
        if (match !== null) resolve(`http://127.0.0.1:${match[1]}`)
      })
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)))
    }),
    launchBrowser()
  ]).finally(release)
}, 60_000)

afterAll(async () => {
  await browser?.close()
  child?.kill("SIGTERM")
})

describe("live mode in the interface", () => {
  it("shows the live backend and its network marked down, and offers no simulator screen", async () => {
    const { page, close } = await openPage(browser, `${baseUrl}/`)
    await signIn(page, apiKey)
    const badge = page.getByLabel("Server")
    await badge.getByText("ethereum · down").waitFor()
    expect(await badge.innerText()).toMatch(/^Live\s+ethereum · down$/)
    expect(await badge.getByText("ethereum · down").getAttribute("title")).toContain("chain 1): node down")
    expect(await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: "Simulator" }).count())
      .toBe(0)
    await screenshot(page, "live-header-1280")
    await close()
  }, 60_000)
})
