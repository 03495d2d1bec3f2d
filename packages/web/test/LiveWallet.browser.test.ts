// Proves the interface's browser wallet for a live account's external wallet, in Chromium against the
// live server (in process, `liveFixture.ts`: one anvil node with Uniswap V2, USDC, LINK and the
// project's contract; the account's wallet has no delegated key) and a second anvil (chain 10) the
// wallet starts on. The page's `window.ethereum` is a real EIP-1193 provider answered in the test
// process (`anvilWallet.ts`): it signs with a private key through viem and broadcasts to the nodes.
// "Connect wallet" shows the account and its chain; a swap stops, still awaiting approval, while the
// wallet does not know the network's chain (4902), and goes on once the user adds it: it moves the
// wallet to that chain (from the server), sends the USDC approval, then the swap, says each step,
// reports the hash,
// and is confirmed with the balances on chain moved by exactly the trade's amounts, which the trade
// card reads to 6 decimals (LINK has 18), exact in titles and under "Exact amounts". A refusal in the
// wallet (4001) rejects the trade (`WALLET_REJECTED`, nothing held, nothing moved). A limit order is
// signed with `eth_signTypedData_v4` and the server holds that signature; a refused signature cancels
// the order; one the wallet fails to sign stays open, unsigned, and is signed from the Orders list.
import type { Anvil, DemoMarket, DevnetClient } from "@swapdesk/evm/devnet"
import { startAnvil } from "@swapdesk/evm/devnet"
import type { Browser, Page } from "playwright-core"
import { type Address, erc20Abi, type Hex, parseUnits } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnvilWallet, installAnvilWallet } from "./anvilWallet.ts"
import {
  chooseToken,
  expectShortForm,
  goTo,
  launchBrowser,
  openPage,
  screenshot,
  seriousViolations,
  shownAmounts,
  signIn
} from "./browser.ts"
import { holdInterface } from "./interfaceLock.ts"

/** What this test uses of the server's live test fixture (`packages/server/test/liveFixture.ts`). */
interface LiveChain {
  readonly anvil: Anvil
  readonly deployer: DevnetClient
  readonly market: DemoMarket
  readonly contract: Address
}
interface LiveFixture {
  readonly keyOf: (index: number) => Hex
  readonly startLiveChain: (options: { readonly executorIndex: number; readonly wallet: Address }) => Promise<LiveChain>
  readonly mineEverySecond: (chain: LiveChain) => Promise<unknown>
  readonly liveConfigOf: (chain: LiveChain, account: { id: string; key: string; wallet: Address }) => unknown
  readonly sqliteRepositories: (prefix: string) => unknown
  readonly startLiveServer: (
    config: unknown,
    env: Record<string, string>,
    options: { readonly repositories: unknown }
  ) => Promise<{ readonly baseUrl: string; readonly runtime: { readonly dispose: () => Promise<void> } }>
}

// Loaded by path: this package does not depend on the server's.
const fixturePath = new URL("../../server/test/liveFixture.ts", import.meta.url).href

const KEY = `sd_live_${"w4L1e7B5r0".repeat(4)}`
/** The wallet's key: one of anvil's well-known development keys (never real funds). */
const OWNER_INDEX = 5
const EXECUTOR_INDEX = 1
/** The chain the wallet is on before the interface moves it: a node the server does not know. */
const OTHER_CHAIN_ID = 10

let chain: LiveChain
let otherChain: Anvil
let server: Awaited<ReturnType<LiveFixture["startLiveServer"]>>
let browser: Browser
let page: Page
let wallet: AnvilWallet
let problems: ReadonlyArray<string>
let closePage: () => Promise<void>

const read = async (path: string) => {
  const response = await fetch(server.baseUrl + path, { headers: { authorization: `Bearer ${KEY}` } })
  return ((await response.json()) as { data: any }).data
}

const balanceOf = (symbol: "USDC" | "LINK") =>
  chain.deployer.readContract({
    address: chain.market.tokens[symbol]!.address,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [wallet.address]
  })

/** Every text the wallet's step line showed, in order (a step can be shorter than a poll). */
const stepsShown = () => page.evaluate(() => [...((globalThis as any).__walletSteps as Array<string>)])

beforeAll(async () => {
  const fixture = (await import(fixturePath)) as LiveFixture
  const ownerKey = fixture.keyOf(OWNER_INDEX)
  const owner = privateKeyToAccount(ownerKey).address
  ;[chain, otherChain] = await Promise.all([
    fixture.startLiveChain({ executorIndex: EXECUTOR_INDEX, wallet: owner }),
    startAnvil({ chainId: OTHER_CHAIN_ID })
  ])
  await fixture.mineEverySecond(chain)
  const config = fixture.liveConfigOf(chain, { id: "acct_browser_wallet", key: KEY, wallet: owner })
  // Not while another test file builds the interface: the server reads its files as it starts.
  const release = await holdInterface("read")
  ;[server, browser] = await Promise.all([
    fixture.startLiveServer(config, { EXECUTOR_KEY: fixture.keyOf(EXECUTOR_INDEX) }, {
      repositories: fixture.sqliteRepositories("swapdesk-web-wallet-")
    }),
    launchBrowser()
  ]).finally(release)

  const opened = await openPage(browser, "about:blank")
  ;({ page, problems } = opened)
  closePage = opened.close
  wallet = await installAnvilWallet(page, {
    privateKey: ownerKey,
    // It does not know the server's chain yet: the user adds it when the interface asks.
    chains: new Map([[OTHER_CHAIN_ID, otherChain.rpcUrl]]),
    startChainId: OTHER_CHAIN_ID
  })
  await page.addInitScript(() => {
    const steps: Array<string> = []
    ;(globalThis as any).__walletSteps = steps
    new MutationObserver(() => {
      for (const line of document.querySelectorAll(".wallet-step")) {
        const text = line.textContent ?? ""
        if (steps.at(-1) !== text) steps.push(text)
      }
    }).observe(document, { subtree: true, childList: true, characterData: true })
  })
  await page.goto(`${server.baseUrl}/`)
  await signIn(page, KEY)
}, 180_000)

afterAll(async () => {
  await closePage?.()
  await browser?.close()
  await server?.runtime.dispose()
  await Promise.all([chain?.anvil.stop(), otherChain?.stop()])
}, 60_000)

describe("an external wallet in the browser, on a live server", () => {
  it(
    "connects, waits for the network's chain, approves, swaps and confirms with the amounts moved on chain",
    async () => {
      await goTo(page, "Swap")
      const connection = page.getByRole("group", { name: "Browser wallet" })
      await connection.getByRole("button", { name: "Connect wallet" }).click()
      await connection.getByText(`connected, on chain ${OTHER_CHAIN_ID}`).waitFor()
      expect(await connection.getByRole("button", { name: "Switch wallet to ethereum" }).isVisible()).toBe(true)
      expect(await connection.locator("code").getAttribute("title")).toBe(wallet.address)

      const swap = page.getByRole("form", { name: "Swap" })
      await chooseToken(page, swap, "Token in", "USDC")
      await chooseToken(page, swap, "Token out", "LINK")
      await swap.getByLabel("Amount").fill("100")
      const [usdcBefore, linkBefore] = await Promise.all([balanceOf("USDC"), balanceOf("LINK")])
      const button = swap.getByRole("button", { name: "Swap", exact: true })
      await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
      await button.click()

      // The wallet does not know chain 1 (4902): the trade waits while the user adds it, then goes on.
      const trading = page.getByRole("region", { name: "Your trade" })
      await trading.getByRole("alert").filter({ hasText: "your wallet does not know ethereum (chain 1)" }).waitFor()
      expect(await trading.getByText("pending, awaiting your wallet's approval").isVisible()).toBe(true)
      expect(wallet.chainId()).toBe(OTHER_CHAIN_ID)
      wallet.addChain(1, chain.anvil.rpcUrl)
      await trading.getByRole("button", { name: "Continue in wallet" }).click()

      const status = page.locator(".trade-status")
      await status.getByText("confirmed", { exact: true }).waitFor({ timeout: 60_000 })
      const id = await status.locator("code").first().innerText()
      const trade = await read(`/v1/trades/${id}`)
      expect(trade.status).toBe("confirmed")

      // The wallet was moved to the server's chain for ethereum, then asked for the approval and the swap, in that order.
      expect(wallet.chainId()).toBe(1)
      await connection.getByText("on chain 1 (ethereum)").waitFor()
      const sent = wallet.requests.filter((request) => request.method === "eth_sendTransaction")
      expect(sent.map((request) => [request.params[0].to.toLowerCase(), request.step])).toEqual([
        [chain.market.tokens["USDC"]!.address.toLowerCase(), "Approve USDC in your wallet"],
        [chain.contract.toLowerCase(), "Confirm the swap in your wallet"]
      ])
      expect(trade.txHash).toBe(sent[1]!.result)
      const steps = await stepsShown()
      expect(steps.filter((step) => step !== "Connect your wallet")).toEqual([
        "Approve USDC in your wallet",
        "Waiting for the USDC approval to confirm",
        "Confirm the swap in your wallet",
        "Waiting for confirmation"
      ])

      const [usdcAfter, linkAfter] = await Promise.all([balanceOf("USDC"), balanceOf("LINK")])
      expect(usdcBefore - usdcAfter).toBe(parseUnits(trade.amountIn, 6))
      expect(linkAfter - linkBefore).toBe(parseUnits(trade.amountOut, 18))
      // LINK has 18 decimals: the trade reads to 6, every digit in the title and under "Exact amounts".
      const [amountIn, received, fee] = await shownAmounts(status)
      expectShortForm(amountIn, trade.amountIn, "USDC")
      expectShortForm(received, trade.amountOut, "LINK")
      expectShortForm(fee, trade.fee, "LINK")
      expect(trade.amountOut.split(".")[1]!.length).toBeGreaterThan(6)
      const quoted = await shownAmounts(page.getByRole("region", { name: "Quote" }))
      for (const [index, symbol] of ["LINK", "LINK", "LINK", "ETH"].entries()) {
        expectShortForm(quoted[index], quoted[index]!.value, symbol)
      }
      expect(problems).toEqual([])
      expect(await seriousViolations(page)).toEqual([])

      await screenshot(page, "live-wallet-swap-1280")
      await page.setViewportSize({ width: 390, height: 900 })
      await screenshot(page, "live-wallet-swap-390")
      await page.setViewportSize({ width: 1280, height: 900 })
      await status.locator("summary", { hasText: "Exact amounts" }).click()
      await status.getByRole("group").getByText(`${trade.amountOut} LINK`, { exact: true }).waitFor()
    },
    120_000
  )

  it("rejects the trade when the wallet refuses it, holding and moving nothing", async () => {
    const swap = page.getByRole("form", { name: "Swap" })
    await swap.getByLabel("Amount").fill("50")
    const usdcBefore = await balanceOf("USDC")
    const button = swap.getByRole("button", { name: "Swap", exact: true })
    await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
    wallet.refuseNext("eth_sendTransaction")
    await button.click()

    await page.getByRole("status").filter({ hasText: "Rejected in wallet" }).waitFor({ timeout: 30_000 })
    const status = page.locator(".trade-status")
    await status.getByText("failed", { exact: true }).waitFor()
    const id = await status.locator("code").first().innerText()
    const trade = await read(`/v1/trades/${id}`)
    expect([trade.status, trade.failureReason, trade.amountIn]).toEqual(["failed", "WALLET_REJECTED", "50"])
    // The allowance was given by the first swap: the one request refused was the swap itself.
    expect(wallet.requests.at(-1)).toMatchObject({
      method: "eth_sendTransaction",
      step: "Confirm the swap in your wallet"
    })
    expect((await read("/v1/trades?status=pending")).total).toBe(0)
    expect(await balanceOf("USDC")).toBe(usdcBefore)
    expect(problems).toEqual([])
  }, 60_000)

  it("signs a limit order in the wallet, cancels one it refuses, and signs a left one from the list", async () => {
    await goTo(page, "Orders")
    const form = page.getByRole("form", { name: "Place limit order" })
    await chooseToken(page, form, "Token in", "USDC")
    await chooseToken(page, form, "Token out", "LINK")
    await form.getByLabel("Amount").fill("20")
    // 100 LINK per USDC: far above the market, so the order stays open.
    await form.getByLabel(/Limit price/).fill("100")
    await form.getByRole("button", { name: "Place order" }).click()
    await form.getByRole("status").filter({ hasText: "Order signed: it fills when its price is reached" }).waitFor({
      timeout: 30_000
    })
    const placed = form.getByRole("status").filter({ hasText: "pending until its price is reached" })
    const id = await placed.locator("code").innerText()
    const order = await read(`/v1/orders/${id}`)
    const signed = wallet.requests.filter((request) => request.method === "eth_signTypedData_v4")
    expect(signed).toHaveLength(1)
    expect(signed[0]!.step).toBe("Sign the order in your wallet")
    expect(JSON.parse(signed[0]!.params[1])).toEqual(order.typedData)
    expect([order.status, order.signature]).toEqual(["pending", signed[0]!.result])
    const row = page.getByRole("list", { name: "Orders" }).getByRole("listitem").filter({ hasText: "20 USDC" })
    await row.getByText("pending", { exact: true }).waitFor()

    wallet.refuseNext("eth_signTypedData_v4")
    await form.getByLabel("Amount").fill("21")
    await form.getByRole("button", { name: "Place order" }).click()
    await form.getByRole("status").filter({ hasText: "Rejected in wallet: the order is cancelled" }).waitFor({
      timeout: 30_000
    })
    const cancelled = await read("/v1/orders?status=cancelled")
    expect(cancelled.orders.map((each: any) => [each.amountIn, each.signature])).toEqual([["21", null]])

    // A wallet that fails (not a refusal) leaves the order unsigned and open: the list offers to sign it.
    wallet.failNext("eth_signTypedData_v4")
    await form.getByLabel("Amount").fill("22")
    await form.getByRole("button", { name: "Place order" }).click()
    await form.getByRole("alert").filter({ hasText: "WALLET_ERROR" }).filter({ hasText: "code -32603" }).waitFor({
      timeout: 30_000
    })
    const [unsigned] = (await read("/v1/orders?status=pending")).orders.filter((each: any) => each.amountIn === "22")
    expect(unsigned.signature).toBeNull()
    const orders = page.getByRole("list", { name: "Orders" })
    await orders.getByRole("button", { name: `Sign order ${unsigned.id} in wallet` }).click()
    await page.getByRole("status").filter({ hasText: "Order signed: it fills when its price is reached" }).last()
      .waitFor()
    await expect.poll(async () => (await read(`/v1/orders/${unsigned.id}`)).signature).toBe(
      wallet.requests.at(-1)!.result
    )
    await orders.getByRole("button", { name: `Sign order ${unsigned.id} in wallet` }).waitFor({ state: "detached" })
    expect(problems).toEqual([])
  }, 60_000)
})
