// Proves the trading interface works for a user, end to end: the standalone server is started as a
// user starts it (main.ts on a manual-clock copy of the demo scenario), Debian's Chromium opens `/`,
// and the tests drive the page by roles and accessible names (sign in, search the market, swap and
// see it confirm after a clock advance, approve a trade that waits for the wallet, create an alert
// and see it fire), reading every effect back through the API. Every screen is checked with axe-core
// (no serious or critical violation) at 1280 and 390 px, and no page ever breaks its own CSP. The
// quote and the trade in History read their amounts short, each carrying the API's exact amount.
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  api,
  browserSession,
  chooseToken,
  demoKeys,
  expectShortForm,
  goTo,
  manualScenario,
  openPage,
  screenshot,
  seriousViolations,
  shownAmounts,
  signIn,
  startServer
} from "./browser.ts"

const session = browserSession()
const { signedIn } = session

const advanceClock = async (page: Page, amount: string, unit: "seconds" | "minutes" | "hours") => {
  await goTo(page, "Simulator")
  const control = page.getByRole("region", { name: "Advance the clock" })
  await control.getByLabel("Advance by").fill(amount)
  await control.getByLabel("Unit").selectOption({ label: unit })
  await control.getByRole("button", { name: "Advance" }).click()
  await control.getByRole("status").filter({ hasText: "The market clock is now" }).waitFor()
}

describe("the trading interface", () => {
  it("is served at / with its own security policy, and its files with it", async () => {
    const page = await fetch(`${session.server.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const csp = page.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).not.toContain("unsafe-inline")
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(page.headers.get("x-content-type-options")).toBe("nosniff")
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    const html = await page.text()
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => match[1]!)
    expect(assets.length).toBeGreaterThanOrEqual(2)
    for (const asset of assets) {
      const file = await fetch(`${session.server.url}/${asset}`)
      expect(file.status).toBe(200)
      expect(file.headers.get("content-security-policy")).toBe(csp)
      expect(file.headers.get("x-content-type-options")).toBe("nosniff")
      expect(file.headers.get("cache-control")).toContain("immutable")
    }
    // Anything else outside /v1 is still the API's 404 envelope, not a file.
    const unknown = await session.api("GET", "/../assets/../../package.json")
    expect(unknown.status).toBe(404)
    const traversal = await fetch(`${session.server.url}/assets/..%2F..%2Fpackage.json`)
    expect(traversal.status).toBe(404)
  })

  it("signs in with a key kept in sessionStorage only, and says why a key is refused", async () => {
    const { page, problems, close } = await openPage(session.browser, `${session.server.url}/`)
    await page.getByRole("button", { name: "Sign in as Demo Pro, all scopes" }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "sign-in-1280")

    await page.getByLabel("API key").fill("sd_test_NotAKeyOfAnyAccount0000000000000000000")
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    const refusal = page.getByRole("alert")
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain("UNAUTHORIZED")

    await signIn(page, demoKeys.proAll)
    expect(await page.evaluate(() => sessionStorage.getItem("swapdesk.apiKey"))).toBe(demoKeys.proAll)
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    expect(await page.context().cookies()).toEqual([])
    // A reload keeps the tab signed in; signing out forgets the key.
    await page.reload()
    await page.getByRole("navigation", { name: "Screens" }).waitFor()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("API key").waitFor()
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    expect(problems).toEqual([])
    await close()
  })

  it("shows a token's price, extended fields, candles for every timeframe and the trending table", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await page.getByRole("heading", { name: "Price of SOL" }).waitFor()
    await page.locator(".chart-canvas[data-drawn]").waitFor()
    await page.getByRole("table", { name: /Trending on solana/ }).waitFor()
    expect(await page.getByText("On-chain detail").count()).toBe(1)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "market-1280")

    await page.getByLabel("Token (symbol or contract address)").fill("ETH")
    await page.getByLabel("Currency").selectOption("EUR")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByRole("heading", { name: "Price of ETH" }).waitFor()
    const expected = await session.api("GET", "/market-data?token=ETH&currency=EUR")
    const price = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", maximumFractionDigits: 2 })
      .format(expected.body.data.price)
    await page.getByText(price, { exact: true }).first().waitFor()

    for (const timeframe of ["1m", "5m", "15m", "1h", "4h", "1d"]) {
      await page.getByRole("group", { name: "Timeframe" }).getByRole("button", { name: timeframe, exact: true }).click()
      await page.getByRole("img", { name: new RegExp(`ETH ${timeframe} candles in EUR`) }).waitFor()
    }
    // A range reaching past the chart's limit is the API's own error, shown with its code.
    await page.getByRole("group", { name: "Timeframe" }).getByRole("button", { name: "1m", exact: true }).click()
    await page.getByLabel("From (UTC)").fill("2025-12-30T00:00")
    await page.getByLabel("To (UTC)").fill("2025-12-31T12:00")
    await page.getByRole("button", { name: "Show range" }).click()
    await page.getByRole("alert").filter({ hasText: "RANGE_TOO_LARGE" }).waitFor()
    await page.getByLabel("From (UTC)").fill("2025-12-31T00:00")
    await page.getByRole("button", { name: "Show range" }).click()
    await page.getByRole("img", { name: /720 candles from 2025-12-31 00:00:00 UTC to 2025-12-31 11:59:00 UTC/ })
      .waitFor()

    await page.getByLabel("Trending network").selectOption("ethereum")
    await page.getByRole("table", { name: /Trending on ethereum/ }).waitFor()

    await page.getByLabel("Token (symbol or contract address)").fill("NOTATOKEN")
    await page.getByRole("button", { name: "Search" }).click()
    await page.getByRole("alert").filter({ hasText: "INVALID_TOKEN" }).first().waitFor()
    await screenshot(page, "market-error-1280")
    expect(problems).toEqual([])
    await close()
  })

  it("swaps once on a double click, and follows the trade until it confirms", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    const before = (await session.api("GET", "/trades?limit=1", demoKeys.proAll)).body.data.total as number
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    await swap.getByLabel("Network").selectOption("solana")
    await chooseToken(page, swap, "Token in", "SOL")
    await chooseToken(page, swap, "Token out", "USDC")
    await swap.getByLabel("Amount").fill("2")
    await page.getByRole("region", { name: "Quote" }).getByText(/You receive \(estimated\)/).waitFor()
    await page.getByText(/Quote (expires in|valid until)/).waitFor()
    // The quote's amounts (estimate, minimum, fee, gas) read short, each carrying its exact amount.
    const quoted = await shownAmounts(page.getByRole("region", { name: "Quote" }), 4)
    expect(quoted.length).toBe(4)
    for (const [index, symbol] of ["USDC", "USDC", "USDC", "SOL"].entries()) {
      expectShortForm(quoted[index], quoted[index]!.value, symbol)
    }
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "swap-quote-1280")

    await swap.getByRole("button", { name: "Swap" }).dblclick()
    await page.getByRole("status").filter({ hasText: "pending, broadcast and awaiting confirmation" }).waitFor()
    const after = (await session.api("GET", "/trades?limit=5", demoKeys.proAll)).body.data
    expect(after.total).toBe(before + 1)
    const tradeId = after.trades[0].id as string

    await advanceClock(page, "30", "seconds")
    expect((await session.api("GET", `/trades/${tradeId}`, demoKeys.proAll)).body.data.status).toBe("confirmed")
    await goTo(page, "History")
    const row = page.getByRole("row").filter({ hasText: "2 SOL → USDC" }).filter({ hasText: "confirmed" })
    await row.waitFor()
    // The row reads the trade's amounts short, exact in their titles and, opened, as text to copy.
    const confirmed = (await session.api("GET", `/trades/${tradeId}`, demoKeys.proAll)).body.data
    const [amountIn, received] = await shownAmounts(row, 2)
    expectShortForm(amountIn, confirmed.amountIn, "SOL")
    expectShortForm(received, confirmed.amountOut, "USDC")
    await screenshot(page, "history-1280")
    await row.locator("summary", { hasText: "Exact amounts" }).click()
    await row.getByRole("group").getByText(`${confirmed.amountOut} USDC`, { exact: true }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(problems).toEqual([])
    await close()
  })

  it("says a trade awaits the wallet's approval, and confirms it once approved", async () => {
    // The demo Free account's ethereum wallet signs each trade itself.
    const { page, problems, close } = await signedIn(demoKeys.freeAll)
    await goTo(page, "Swap")
    const swap = page.getByRole("form", { name: "Swap" })
    await swap.getByLabel("Network").selectOption("ethereum")
    await chooseToken(page, swap, "Token in", "ETH")
    await chooseToken(page, swap, "Token out", "USDC")
    await swap.getByLabel("Amount").fill("0.1")
    await page.getByRole("region", { name: "Quote" }).getByText(/You receive \(estimated\)/).waitFor()
    await swap.getByRole("button", { name: "Swap" }).click()
    await page.getByRole("status").filter({ hasText: "awaiting your wallet's approval" }).waitFor()
    await screenshot(page, "swap-awaiting-approval-1280")
    const trade = (await session.api("GET", "/trades?limit=1", demoKeys.freeAll)).body.data.trades[0]
    expect(trade.status).toBe("pending")
    expect(trade.txHash).toBeUndefined()

    await goTo(page, "Simulator")
    await page.getByRole("button", { name: `Approve trade ${trade.id}` }).click()
    await page.getByText("No trade of this account waits for its wallet.").waitFor()
    await screenshot(page, "simulator-1280")
    expect(await seriousViolations(page)).toEqual([])
    await advanceClock(page, "5", "minutes")
    expect((await session.api("GET", `/trades/${trade.id}`, demoKeys.freeAll)).body.data.status).toBe(
      "confirmed"
    )
    expect(problems).toEqual([])
    await close()
  })

  it("creates an alert, shows it fire after a price move, and disables, re-arms and deletes it", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Alerts")
    const create = page.getByRole("form", { name: "Create alert" })
    for (const type of ["Volume spike", "Whale swap", "Portfolio change", "Price"]) {
      await create.getByLabel("Alert type").selectOption({ label: type })
      expect(await create.getByLabel("Token").count()).toBe(type === "Portfolio change" ? 0 : 1)
    }
    await create.getByLabel("Token").fill("SOL")
    await create.getByLabel("Condition").selectOption("above")
    await create.getByLabel("Target price (USD)").fill("500")
    await create.getByLabel("Channel").selectOption("email")
    await create.getByRole("button", { name: "Create alert" }).click()
    await create.getByRole("status").filter({ hasText: "Alert created: SOL above 500 USD" }).waitFor()
    const list = page.getByRole("list", { name: "Alerts" })
    await list.getByText("SOL above 500 USD").waitFor()
    const alerts = (await session.api("GET", "/alerts?status=active", demoKeys.proAll)).body.data.alerts
    expect(alerts.some((alert: any) => alert.targetPrice === 500 && alert.token === "SOL")).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "alerts-1280")

    await goTo(page, "Simulator")
    const move = page.getByRole("region", { name: "Move a price" })
    await move.getByLabel("Price token").fill("SOL")
    await move.getByLabel("New price (USD)").fill("510")
    await move.getByRole("button", { name: "Set price" }).click()
    await move.getByRole("status").filter({ hasText: "SOL now trades at 510 USD" }).waitFor()
    await page.getByRole("list", { name: "Notifications sent" }).getByText(/SOL/).first().waitFor()

    await goTo(page, "Alerts")
    const row = list.getByRole("listitem").filter({ hasText: "SOL above 500 USD" })
    await row.getByText("triggered").waitFor()
    await row.getByRole("button", { name: "Re-arm alert SOL above 500 USD" }).click()
    await row.getByText("active", { exact: true }).waitFor()
    await row.getByRole("button", { name: "Disable alert SOL above 500 USD" }).click()
    await row.getByText("disabled", { exact: true }).waitFor()
    await page.getByLabel("Status").selectOption("disabled")
    await list.getByText("SOL above 500 USD").waitFor()
    await row.getByRole("button", { name: "Delete alert SOL above 500 USD" }).click()
    await page.getByText("No alerts that are disabled.").waitFor()
    const left = (await session.api("GET", "/alerts", demoKeys.proAll)).body.data.alerts
    expect(left.some((alert: any) => alert.targetPrice === 500)).toBe(false)
    await screenshot(page, "alerts-empty-1280")
    expect(problems).toEqual([])
    await close()
  })

  it("reads the rate limit, and holds live updates back for Retry-After after a 429", async () => {
    const limited = await startServer({ ...manualScenario, rateLimits: { free: 8 } })
    const opened = await openPage(session.browser, `${limited.url}/`)
    const { page } = opened
    try {
      await signIn(page, demoKeys.freeAll)
      await page.getByText(/Realtime · \d+ of 8 requests left this minute/).waitFor()
      // The backend badge: the simulator, with no live networks beside it.
      expect(await page.getByLabel("Server").innerText()).toBe("Simulator")
      // Each search spends two requests (price and chart): the budget runs out.
      const search = page.getByLabel("Token (symbol or contract address)")
      const refused = page.getByRole("alert").filter({ hasText: "RATE_LIMITED" }).first()
      for (const token of ["ETH", "BONK", "JUP", "USDC", "WBTC", "ARB", "ETH", "BONK"]) {
        if (await refused.isVisible()) break
        await search.fill(token)
        await page.getByRole("button", { name: "Search" }).click()
        await page.getByRole("heading", { name: `Price of ${token}` }).or(refused).first().waitFor()
        await page.waitForLoadState("networkidle")
      }
      await refused.waitFor()
      const pause = page.getByText(/Rate limited: live updates resume in \d+ s/)
      await pause.waitFor()
      await screenshot(page, "market-rate-limited-1280")
      // While the pause runs, the page sends nothing on its own. Watched for 6 s, or less when the
      // key's window ends sooner (a slow run reaches the 429 late in its minute): after it, polling
      // rightly resumes.
      const sent: Array<string> = []
      page.on("request", (request) => {
        if (request.url().includes("/v1/")) sent.push(request.url())
      })
      const left = Number(/resume in (\d+) s/.exec(await pause.innerText())![1])
      await page.waitForTimeout(Math.min(6_000, Math.max(0, left - 1) * 1_000))
      expect(sent).toEqual([])
    } finally {
      await opened.close()
      await limited.stop()
    }
  })

  it("fits a 390 px wide screen, by keyboard, with no serious accessibility violation", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll, 390)
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    for (const screen of ["Market", "Swap", "History", "Alerts", "Simulator"]) {
      await goTo(page, screen)
      await page.waitForLoadState("networkidle")
      expect(await overflow(), `${screen} scrolls sideways`).toBeLessThanOrEqual(0)
      expect(await seriousViolations(page), screen).toEqual([])
      await screenshot(page, `${screen.toLowerCase()}-390`)
    }
    // Keyboard: the skip link comes first, then the screens; Enter follows a link.
    await goTo(page, "Market")
    await page.reload()
    await page.getByRole("navigation", { name: "Screens" }).waitFor()
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content")
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Market")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { level: 1, name: "Swap" }).waitFor()
    expect(problems).toEqual([])
    await close()
  })

  it("off loopback, the simulator panel asks for the control key once and sends it on every /v1/sim call", async () => {
    const controlKey = "browser-test-control-key-0123456789"
    const remote = await startServer(manualScenario, { HOST: "0.0.0.0", SIM_CONTROL_KEY: controlKey })
    try {
      const { page, close } = await openPage(session.browser, `${remote.url}/`, 1280)
      await signIn(page, demoKeys.freeAll)
      await goTo(page, "Simulator")
      // The server refuses the panel's first calls (401): it asks for the key.
      const form = page.getByRole("form", { name: "Control key" })
      await form.getByLabel("Simulator control key").fill(controlKey)
      await form.getByRole("button", { name: "Use control key" }).click()
      await page.getByRole("button", { name: "Forget control key" }).waitFor()
      expect(await page.evaluate(() => sessionStorage.getItem("swapdesk.simControlKey"))).toBe(controlKey)
      expect(await seriousViolations(page)).toEqual([])
      await advanceClock(page, "2", "hours")
      const clock = await api(remote, "GET", "/sim/clock", controlKey)
      expect(clock.body.data.now).toBe("2026-01-01T02:00:00.000Z")
      // Kept for the tab: a reload asks for nothing.
      await page.reload()
      await goTo(page, "Simulator")
      await page.getByRole("region", { name: "Market clock" }).getByText(/2026/).waitFor()
      expect(await page.getByRole("form", { name: "Control key" }).count()).toBe(0)
      await close()
    } finally {
      await remote.stop()
    }
  })
})
