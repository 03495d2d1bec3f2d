// Proves the interface on a live server over real local nodes, in Chromium: the devnet (anvil nodes
// with Uniswap V2, the demo tokens and a funded delegated wallet, `live:deploy` run on its file) and
// the real main.ts with LIVE_CONFIG in a child process. Signed in with the file's live key, the
// pickers offer the server's tokens (`GET /v1/tokens`), not the simulator's: the Market screen opens
// on the first token the server lists and shows its price; a delegated USDC → LINK swap on the Swap
// screen reaches `confirmed`, as the server's own record of the trade says too, and its card reads
// the amount received to 6 decimals with the record's exact amount attached.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chooseToken, expectShortForm, goTo, launchBrowser, openPage, shownAmounts, signIn } from "./browser.ts"
import { holdInterface } from "./interfaceLock.ts"

const mainPath = fileURLToPath(new URL("../../server/src/main.ts", import.meta.url))

/** What this test uses of the server package's devnet (`packages/server/src/devnet/LiveDevnet.ts`). */
interface LiveDevnet {
  readonly configPath: string
  readonly databaseUrl: string
  readonly account: { readonly keys: { readonly all: string } }
  readonly env: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}
interface DevnetModule {
  readonly startLiveDevnet: (options: { directory: string; confirmations: number }) => Promise<LiveDevnet>
  readonly runLiveDeploy: (devnet: LiveDevnet) => Promise<void>
}

// Loaded by path, as main.ts is run by path: this package does not depend on the server's.
const devnetPath = new URL("../../server/src/devnet/LiveDevnet.ts", import.meta.url).href

let devnet: LiveDevnet
let child: ChildProcess
let baseUrl: string
let browser: Browser

const startServer = (env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)
      if (match !== null) resolve(`http://127.0.0.1:${match[1]}`)
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => reject(new Error(`server exited ${code} before listening:\n${output}`)))
  })

const getData = async (path: string) => {
  const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${devnet.account.keys.all}` } })
  return ((await response.json()) as { data: any }).data
}

beforeAll(async () => {
  const { runLiveDeploy, startLiveDevnet } = (await import(devnetPath)) as DevnetModule
  devnet = await startLiveDevnet({ directory: mkdtempSync(join(tmpdir(), "swapdesk-web-devnet-")), confirmations: 1 })
  await runLiveDeploy(devnet)
  // Not while another test file builds the interface: the server reads its files as it starts.
  const release = await holdInterface("read")
  ;[baseUrl, browser] = await Promise.all([
    startServer({ ...devnet.env, LIVE_CONFIG: devnet.configPath, DATABASE_URL: devnet.databaseUrl }),
    launchBrowser()
  ]).finally(release)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  child?.kill("SIGTERM")
  await devnet?.stop()
}, 60_000)

describe("the interface on a live devnet", () => {
  it("offers the server's tokens, shows a price and confirms a delegated swap", async () => {
    const tokens: ReadonlyArray<{ symbol: string; networks: Record<string, string> }> = await getData("/v1/tokens")
    expect(tokens.map((token) => token.symbol)).toContain("LINK")
    expect(tokens.map((token) => token.symbol)).not.toContain("SOL")
    const first = ["ethereum", "base", "arbitrum"].find((network) =>
      tokens.some((token) => token.networks[network] !== undefined)
    )!
    const opening = tokens.find((token) => token.networks[first] !== undefined)!.symbol

    const { page, close } = await openPage(browser, `${baseUrl}/`)
    await signIn(page, devnet.account.keys.all)
    await page.getByRole("heading", { name: `Price of ${opening}` }).waitFor()
    const price = page.locator("dl.stats").getByText("Price", { exact: true }).locator("xpath=following-sibling::*[1]")
    await price.waitFor({ timeout: 30_000 })
    expect(await price.innerText()).toMatch(/[0-9]/)
    expect(await page.getByText("INVALID_TOKEN").count()).toBe(0)

    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    await swap.getByLabel("Network").selectOption("ethereum")
    await chooseToken(page, swap, "Token in", "USDC")
    await chooseToken(page, swap, "Token out", "LINK")
    await swap.getByLabel("Amount").fill("250")
    const button = swap.getByRole("button", { name: "Swap", exact: true })
    await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
    await button.click()
    const status = page.locator(".trade-status")
    await status.getByText("confirmed", { exact: true }).waitFor({ timeout: 90_000 })
    const id = await status.locator("code").first().innerText()
    const trade = await getData(`/v1/trades/${id}`)
    expect(trade.status).toBe("confirmed")
    // LINK's 18 decimals read to 6 in the trade card, the record's exact amount attached.
    const [, received] = await shownAmounts(status)
    expectShortForm(received, trade.amountOut, "LINK")
    await close()
  }, 180_000)
})
