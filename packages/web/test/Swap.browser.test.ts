// Proves the swap screen guards the user as a careful DEX front end does, and that the interface's
// words are true for the account in use, end to end on the standalone server (a manual-clock copy
// of the demo scenario whose Pro account holds enough SOL to move the market) driven in Chromium by
// roles and accessible names: the token picker searches by symbol, name and address and shows the
// free balances the API implies, offers the server's tokens to a key without read and says why when
// the list cannot be read; Max leaves the documented gas reserve; an amount that is negative,
// zero, too precise or over the free balance disables Swap with its reason and sends no request
// (every request is counted); a refusal is cleared when the inputs change; the flip reverses the
// pair; price impact above 1% warns and above 5% needs an explicit acceptance; the limit-order
// form guards its amount and price the same way; every screen at
// 390 px has no sideways scroll and no clipped card content; a Pro key sees no alert limit, a Free
// key its count against 5; the key in use is named and marked; a realtime clock offers no advance.
import type { Page, Request } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  api,
  browserSession,
  chooseToken,
  demoKeys,
  goTo,
  manualScenario,
  openPage,
  screenshot,
  seriousViolations,
  signIn,
  startServer
} from "./browser.ts"

const proReadOnly = "sd_test_DemoProReadOnly0000000000000000000000000"
const proTradeOnly = "sd_test_DemoProTradeOnly000000000000000000000000"

/**
 * The demo scenario with the Pro account's solana wallet holding 300 000 SOL (enough to move the
 * price) and a key of that account with the trade scope only.
 */
const scenario = {
  ...manualScenario,
  accounts: manualScenario.accounts!.map((account) =>
    account.id !== "acct_demo_pro" ? account : {
      ...account,
      apiKeys: [...account.apiKeys!, { name: "trade only", key: proTradeOnly, scopes: ["trade" as const] }],
      wallets: account.wallets!.map((wallet) =>
        wallet.network !== "solana" ? wallet : { ...wallet, balances: { ...wallet.balances, SOL: "300000" } }
      )
    }
  )
}

const session = browserSession(scenario)
const { signedIn } = session

const holding = async (key: string, token: string, network: string): Promise<string> => {
  const portfolio = (await session.api("GET", `/portfolio?network=${network}`, key)).body.data
  return portfolio.holdings.find((entry: any) => entry.token === token && entry.network === network)?.amount ?? "0"
}

/** The price impact (percent) the API quotes for selling `amountIn` SOL for USDC on solana. */
const impact = async (amountIn: string) =>
  (await api(
    session.server,
    "GET",
    `/quote?tokenIn=SOL&tokenOut=USDC&network=solana&amountIn=${amountIn}`,
    demoKeys.proAll
  ))
    .body.data.priceImpact as number

/** Every request to `path` (method and path) the page sends from now on. */
const recordRequests = (page: Page, method: string, path: string) => {
  const sent: Array<string> = []
  page.on("request", (request: Request) => {
    if (request.method() === method && new URL(request.url()).pathname === path) sent.push(request.url())
  })
  return sent
}

describe("the swap screen", () => {
  it("finds tokens by symbol, name and address, with the free balance beside each", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    await swap.getByRole("button", { name: "Token out: USDC" }).click()
    const dialog = page.getByRole("dialog", { name: "Choose token out" })
    const search = dialog.getByRole("combobox", { name: "Search by symbol, name or address" })
    const options = dialog.getByRole("listbox", { name: "Tokens on solana" }).getByRole("option")
    // The wallet's JUP (20 000 in the scenario) is shown beside it.
    await dialog.getByRole("option", { name: /^JUP Jupiter 20,000$/ }).waitFor()
    await search.fill("bon")
    expect(await options.allInnerTexts()).toEqual([expect.stringMatching(/^BONK\s+Bonk/)])
    await search.fill("dogwif")
    expect(await options.allInnerTexts()).toEqual([expect.stringMatching(/^WIF\s+dogwifhat/)])
    await search.fill("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
    expect(await options.allInnerTexts()).toEqual([expect.stringMatching(/^USDC\s+USD Coin\s+250,000$/)])
    // An Ethereum token is not offered on solana.
    await search.fill("WBTC")
    await dialog.getByText("No token on solana matches").waitFor()
    expect(await seriousViolations(page)).toEqual([])
    // The keyboard chooses: the arrow keys move, Enter picks.
    // (held tokens first: USDC, then USDT)
    await search.fill("us")
    await search.press("ArrowDown")
    const second = await options.nth(1).getAttribute("id")
    expect(await search.getAttribute("aria-activedescendant")).toBe(second)
    await search.press("Enter")
    await swap.getByRole("button", { name: "Token out: USDT" }).waitFor()
    expect(await dialog.isVisible()).toBe(false)
    expect(problems).toEqual([])
    await close()
  })

  it("offers the server's tokens to a key without read, and says why when the list cannot be read", async () => {
    const tradeOnly = await signedIn(proTradeOnly)
    await goTo(tradeOnly.page, "Swap")
    await tradeOnly.page.getByRole("form", { name: "Swap" }).getByRole("button", { name: /^Token out:/ }).click()
    const listed = tradeOnly.page.getByRole("dialog", { name: "Choose token out" })
    await listed.getByRole("listbox", { name: "Tokens on solana" }).getByRole("option", { name: /^JUP Jupiter/ })
      .waitFor()
    expect(tradeOnly.problems).toEqual([])
    await tradeOnly.close()

    const { page, problems, close } = await openPage(session.browser, `${session.server.url}/`)
    await page.route("**/v1/tokens", (route) => route.abort("connectionrefused"))
    await signIn(page, demoKeys.proAll)
    await goTo(page, "Swap")
    await page.getByRole("form", { name: "Swap" }).getByRole("button", { name: /^Token out:/ }).click()
    const unread = page.getByRole("dialog", { name: "Choose token out" })
    await unread.getByRole("status").filter({ hasText: "The server's token list could not be read" }).waitFor()
    expect(await unread.getByRole("option").count()).toBe(0)
    expect(problems).toEqual([])
    await close()
  })

  it("shows the free balance, and Max keeps the gas reserve on the native token only", async () => {
    const { page, problems, close } = await signedIn(demoKeys.freeAll)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    const sol = await holding(demoKeys.freeAll, "SOL", "solana")
    expect(sol).toBe("25")
    await swap.getByText("Free balance: 25 SOL").waitFor()
    await swap.getByRole("button", { name: /^Max: use 24\.99 SOL, keeping 0\.01 SOL for gas$/ }).click()
    expect(await swap.getByLabel("Amount").inputValue()).toBe("24.99")
    await chooseToken(page, swap, "Token in", "BONK")
    await swap.getByText("Free balance: 50,000,000 BONK").waitFor()
    await swap.getByRole("button", { name: /^Max: use 50000000 BONK$/ }).click()
    expect(await swap.getByLabel("Amount").inputValue()).toBe("50000000")
    await expect.poll(() => swap.getByRole("button", { name: "Swap", exact: true }).isEnabled()).toBe(true)
    expect(problems).toEqual([])
    await close()
  })

  it("refuses a wrong amount as it is typed, with the reason beside it, and sends nothing", async () => {
    const { page, problems, close } = await signedIn(demoKeys.freeAll)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    const amount = swap.getByLabel("Amount")
    const button = swap.getByRole("button", { name: "Swap", exact: true })
    await swap.getByText("Free balance: 25 SOL").waitFor()
    const trades = recordRequests(page, "POST", "/v1/trades")
    const quotes = recordRequests(page, "GET", "/v1/quote")
    const cases = [
      ["-1", "The amount must be greater than zero."],
      ["0", "The amount must be greater than zero."],
      ["1.0000000001", "SOL has at most 9 decimals."],
      ["1e3", "Enter the amount as a plain number, like 1.5."],
      ["26", "More than your free balance of 25 SOL."]
    ] as const
    for (const [typed, reason] of cases) {
      await amount.fill(typed)
      const problem = swap.getByText(reason, { exact: true })
      await problem.waitFor()
      // Shown once, beside the field, which is marked invalid and described by it.
      expect(await page.getByText(reason, { exact: true }).count()).toBe(1)
      expect(await amount.getAttribute("aria-invalid")).toBe("true")
      expect(await amount.getAttribute("aria-describedby")).toContain(await problem.getAttribute("id"))
      expect(await button.isDisabled()).toBe(true)
      // Enter in the field does not submit either.
      await amount.press("Enter")
    }
    await page.waitForTimeout(1_000)
    expect(trades).toEqual([])
    // Only the well-formed amount over the balance is quoted (the price is worth seeing); never the others.
    expect(quotes.every((url) => new URL(url).searchParams.get("amountIn") === "26")).toBe(true)
    await amount.fill("1")
    await expect.poll(() => button.isEnabled()).toBe(true)
    expect(await amount.getAttribute("aria-invalid")).toBe(null)
    expect(problems).toEqual([])
    await close()
  })

  it("clears a refusal when the inputs change, and flips the pair", async () => {
    const { page, problems, close } = await signedIn(proReadOnly)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    const button = swap.getByRole("button", { name: "Swap", exact: true })
    await expect.poll(() => button.isEnabled()).toBe(true)
    await button.click()
    const refusal = page.getByRole("alert").filter({ hasText: "INSUFFICIENT_SCOPE" })
    await refusal.waitFor()
    await swap.getByLabel("Amount").fill("2")
    await refusal.waitFor({ state: "detached" })

    await swap.getByRole("button", { name: "Flip: sell USDC for SOL" }).click()
    await swap.getByRole("button", { name: "Token in: USDC" }).waitFor()
    await swap.getByRole("button", { name: "Token out: SOL" }).waitFor()
    const quote = page.getByRole("region", { name: "Quote" })
    await quote.getByText(/^Rate\s*1 USDC = 0\.00\d+ SOL$/).waitFor()
    await swap.getByText("Free balance: 250,000 USDC").waitFor()
    expect(problems).toEqual([])
    await close()
  })

  it("warns of price impact above 1%, and asks for acceptance above 5%", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    const button = swap.getByRole("button", { name: "Swap", exact: true })
    const amount = swap.getByLabel("Amount")

    expect(await impact("1")).toBeLessThan(1)
    await expect.poll(() => button.isEnabled()).toBe(true)
    expect(await swap.getByText(/price impact/i).count()).toBe(0)

    const moderate = await impact("50000")
    expect(moderate).toBeGreaterThan(1)
    expect(moderate).toBeLessThanOrEqual(5)
    await amount.fill("50000")
    await swap.getByRole("status").filter({ hasText: /^Price impact \d+\.\d+%/ }).waitFor()
    await expect.poll(() => button.isEnabled()).toBe(true)

    expect(await impact("200000")).toBeGreaterThan(5)
    await amount.fill("200000")
    const warning = swap.getByRole("alert").filter({ hasText: "Very high price impact" })
    await warning.waitFor()
    const accept = warning.getByRole("checkbox", { name: /^I accept a price impact of \d+(\.\d+)?%$/ })
    expect(await button.isDisabled()).toBe(true)
    await page.getByRole("region", { name: "Quote" }).getByText(/Rate\s*1 SOL = \d+(\.\d+)? USDC/).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "swap-impact-1280")
    await accept.check()
    await expect.poll(() => button.isEnabled()).toBe(true)
    // A new amount asks again.
    await amount.fill("210000")
    await warning.getByRole("checkbox").waitFor()
    await expect.poll(() => warning.getByRole("checkbox").isChecked()).toBe(false)
    expect(await button.isDisabled()).toBe(true)
    expect(problems).toEqual([])
    await close()
  })
})

describe("words that are true for the user", () => {
  it("counts alerts against the Free limit for a Free key only", async () => {
    const pro = await signedIn(demoKeys.proAll)
    await goTo(pro.page, "Alerts")
    await pro.page.getByRole("form", { name: "Create alert" }).waitFor()
    await pro.page.getByRole("list", { name: "Alerts" }).or(pro.page.getByText(/^No alerts/)).first().waitFor()
    expect(await pro.page.getByText(/of 5 alerts|Free plan/).count()).toBe(0)
    await pro.close()

    const free = await signedIn(demoKeys.freeAll)
    await goTo(free.page, "Alerts")
    const used = (await session.api("GET", "/alerts?status=active&limit=1", demoKeys.freeAll)).body.data.total +
      (await session.api("GET", "/alerts?status=triggered&limit=1", demoKeys.freeAll)).body.data.total
    await free.page.getByText(`${used} of 5 alerts active or triggered (the Free plan's limit).`).waitFor()
    expect(free.problems).toEqual([])
    await free.close()
  })

  it("names the key in use and marks it among the account's keys", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await page.getByRole("banner").getByText("Demo Pro, all scopes", { exact: true }).waitFor()
    await goTo(page, "Account")
    const keys = page.getByRole("list", { name: "API keys" })
    await keys.getByRole("listitem").filter({ hasText: "demo: all scopes" }).getByText("in use in this tab").waitFor()
    expect(await keys.getByText("in use in this tab").count()).toBe(1)
    expect(problems).toEqual([])
    await close()
  })

  it("shows orders with the API's status words", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Orders")
    const form = page.getByRole("form", { name: "Place limit order" })
    await form.getByText("Free balance: 300,000 SOL").waitFor()
    // The order form guards its fields as the swap does: nothing is sent while one is wrong.
    const orders = recordRequests(page, "POST", "/v1/orders")
    const place = form.getByRole("button", { name: "Place order" })
    await form.getByLabel(/Limit price/).fill("5000")
    await form.getByLabel("Amount").fill("300001")
    await form.getByText("More than your free balance of 300,000 SOL.").waitFor()
    expect(await place.isDisabled()).toBe(true)
    await form.getByLabel(/Limit price/).fill("-5")
    await form.getByText("Enter the price as a plain number above zero, like 150.5.").waitFor()
    await form.getByLabel(/Limit price/).press("Enter")
    expect(orders).toEqual([])
    await form.getByLabel("Amount").fill("1")
    await form.getByLabel(/Limit price/).fill("5000")
    await form.getByRole("button", { name: "Place order" }).click()
    await form.getByRole("status").filter({ hasText: "pending until its price is reached" }).waitFor()
    const row = page.getByRole("list", { name: "Orders" }).getByRole("listitem").first()
    await row.getByText("pending", { exact: true }).waitFor()
    expect(await page.getByRole("list", { name: "Orders" }).getByText("open", { exact: true }).count()).toBe(0)
    expect(problems).toEqual([])
    await close()
  })

  it("offers to advance the clock only when the clock is manual", async () => {
    const realtime = await startServer({
      ...manualScenario,
      clock: { mode: "realtime", start: "2026-01-01T00:00:00Z", speed: 1 }
    })
    try {
      const opened = await openPage(session.browser, `${realtime.url}/`)
      await signIn(opened.page, demoKeys.proAll)
      await goTo(opened.page, "Simulator")
      await opened.page.getByText("This clock runs in real time, so it cannot be advanced.").waitFor()
      expect(await opened.page.getByRole("region", { name: "Advance the clock" }).count()).toBe(0)
      expect(opened.problems).toEqual([])
      await opened.close()
    } finally {
      await realtime.stop()
    }
  })

  it("fits 390 px on every screen: no sideways scroll, nothing clipped in the cards", async () => {
    const signIn390 = await openPage(session.browser, `${session.server.url}/`, 390)
    await signIn390.page.getByRole("button", { name: "Sign in as Demo Pro, all scopes" }).waitFor()
    expect(await seriousViolations(signIn390.page)).toEqual([])
    await screenshot(signIn390.page, "sign-in-390")
    await signIn390.close()
    const { page, problems, close } = await signedIn(demoKeys.proAll, 390)
    await goTo(page, "Swap")
    await page.getByRole("button", { name: "Token out: USDC" }).click()
    await page.getByRole("dialog", { name: "Choose token out" }).getByRole("option", { name: /^JUP / }).waitFor()
    await screenshot(page, "swap-picker-390")
    await page.keyboard.press("Escape")
    for (const screen of ["Market", "Swap", "Orders", "History", "Alerts", "Portfolio", "Account", "Simulator"]) {
      await goTo(page, screen)
      await page.waitForLoadState("networkidle")
      if (screen === "Market") await page.getByRole("table", { name: /Trending on solana/ }).waitFor()
      if (screen === "Portfolio") await page.getByRole("table", { name: "Holdings by value" }).waitFor()
      const layout = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        innerWidth,
        // A card's cell, list row or table that is wider than its box hides part of its content.
        // (A card table's header row and a caption for screen readers are hidden on purpose.)
        clipped: [...document.querySelectorAll("main td, main th, main caption, main .list > li, main .table-wrap")]
          .filter((element) => element.closest("table.cards thead, .visually-hidden") === null)
          .filter((element) => element.scrollWidth > element.clientWidth + 1)
          .map((element) => `${element.tagName.toLowerCase()}: ${(element.textContent ?? "").slice(0, 40)}`)
      }))
      expect(layout.scrollWidth, `${screen} scrolls sideways`).toBeLessThanOrEqual(layout.innerWidth)
      expect(layout.clipped, screen).toEqual([])
      expect(await seriousViolations(page), screen).toEqual([])
    }
    expect(problems).toEqual([])
    await close()
  })
})
