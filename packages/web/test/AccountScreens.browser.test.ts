// Proves the screens built on the account routes work for a user, end to end, as the interface
// tests do (the standalone server on a manual-clock copy of the demo scenario, Debian's Chromium,
// roles and accessible names, effects read back through the API): a limit order placed by price
// fills after a price move, another is cancelled, each shows its signer and signature; an API key
// is created (its secret shown once and working) and revoked (then refused); a webhook is created
// with its secret shown once; notification settings are saved; the portfolio shows its holdings
// and its performance per range. Orders and holdings read their amounts short (at most 6 decimals,
// cut toward zero), each carrying the API's exact amount.
// Each screen passes axe-core with no serious or critical violation at 1280 and 390 px.
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  browserSession,
  chooseToken,
  demoKeys,
  expectShortForm,
  goTo,
  screenshot,
  seriousViolations,
  shownAmounts
} from "./browser.ts"

const session = browserSession()
const { signedIn } = session

const placeOrder = async (page: Page, limitPrice: string) => {
  const form = page.getByRole("form", { name: "Place limit order" })
  await form.getByLabel("Network").selectOption("solana")
  await chooseToken(page, form, "Token in", "SOL")
  await chooseToken(page, form, "Token out", "USDC")
  await form.getByLabel("Amount").fill("1")
  await form.getByRole("group", { name: "Order by" }).getByRole("button", { name: "Limit price" }).click()
  await form.getByLabel(/Limit price/).fill(limitPrice)
  await form.getByRole("button", { name: "Place order" }).click()
  await form.getByRole("status").filter({ hasText: "placed" }).waitFor()
  const orders = (await session.api("GET", "/orders?limit=1", demoKeys.proAll)).body.data.orders
  return orders[0] as {
    readonly id: string
    readonly signer: string
    readonly signature: string
    readonly amountIn: string
    readonly minAmountOut: string
  }
}

describe("the account screens", () => {
  it("places a limit order that fills after a price move, and cancels another", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Orders")
    const filling = await placeOrder(page, "150")
    const cancelling = await placeOrder(page, "1000")
    const list = page.getByRole("list", { name: "Orders" })
    const fillingRow = list.getByRole("listitem").filter({ hasText: "at least 150 USDC" })
    await fillingRow.locator("summary", { hasText: "Signature" }).click()
    await fillingRow.getByText(filling.signer).waitFor()
    await fillingRow.getByText(filling.signature).waitFor()
    const [amountIn, minimum] = await shownAmounts(fillingRow, 2)
    expectShortForm(amountIn, filling.amountIn, "SOL")
    expectShortForm(minimum, filling.minAmountOut, "USDC")
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "orders-1280")

    await list.getByRole("button", { name: `Cancel order ${cancelling.id}` }).click()
    await list.getByRole("listitem").filter({ hasText: "at least 1,000 USDC" }).getByText("cancelled").waitFor()
    expect((await session.api("GET", `/orders/${cancelling.id}`, demoKeys.proAll)).body.data.status).toBe(
      "cancelled"
    )

    await session.api("PUT", "/sim/prices/SOL", undefined, { price: 200 })
    await session.api("POST", "/sim/clock/advance", undefined, { ms: 60_000 })
    await fillingRow.getByText("confirmed", { exact: true }).waitFor()
    expect((await session.api("GET", `/orders/${filling.id}`, demoKeys.proAll)).body.data.status).toBe(
      "confirmed"
    )
    expect(problems).toEqual([])
    await close()
  })

  it("creates an API key, shows its secret once, and revokes it", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Account")
    const create = page.getByRole("form", { name: "Create API key" })
    await create.getByLabel("Key name").fill("reporting bot")
    await create.getByLabel("trade").check()
    await create.getByRole("button", { name: "Create key" }).click()
    const secret = await page.locator("[data-secret]").textContent()
    expect(secret).toMatch(/^sd_test_[0-9A-Za-z]{40}$/)
    expect((await session.api("GET", "/trades?limit=1", secret!)).status).toBe(200)
    await page.getByRole("button", { name: "Copy API key" }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "account-1280")

    await page.getByRole("button", { name: "Revoke key reporting bot" }).click()
    await page.getByRole("list", { name: "API keys" }).getByText("reporting bot").waitFor({ state: "detached" })
    expect((await session.api("GET", "/trades?limit=1", secret!)).status).toBe(401)
    expect(problems).toEqual([])
    await close()
  })

  it("creates a webhook, shows its signing secret once, and lists it", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Account")
    const hooks = page.getByRole("form", { name: "Create webhook" })
    await hooks.getByLabel("Webhook URL").fill("http://127.0.0.1:9/hooks")
    await hooks.getByRole("button", { name: "Create webhook" }).click()
    expect(await page.locator("[data-secret]").textContent()).toMatch(/^whsec_/)
    await page.getByRole("button", { name: "Copy signing secret" }).waitFor()
    await page.getByRole("list", { name: "Webhooks" }).getByText("http://127.0.0.1:9/hooks").waitFor()
    const listed = (await session.api("GET", "/webhooks", demoKeys.proAll)).body.data.webhooks
    expect(listed.some((webhook: any) => webhook.url === "http://127.0.0.1:9/hooks")).toBe(true)
    await page.getByText("Delivery log").first().click()
    await page.getByText("No deliveries yet.").first().waitFor()
    expect(problems).toEqual([])
    await close()
  })

  it("saves notification settings", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Alerts")
    const settings = page.getByRole("form", { name: "Notification settings" })
    await settings.getByLabel("Email address").fill("desk@example.com")
    await settings.getByRole("button", { name: "Save notification settings" }).click()
    await settings.getByRole("status").filter({ hasText: "saved" }).waitFor()
    expect((await session.api("GET", "/account/notifications", demoKeys.proAll)).body.data.email).toBe(
      "desk@example.com"
    )
    expect(problems).toEqual([])
    await close()
  })

  it("shows the portfolio: value, holdings and the performance chart per range", async () => {
    // Six hours of market time: the default range (24 h, a point every 15 minutes) draws a curve.
    await session.api("POST", "/sim/clock/advance", undefined, { ms: 6 * 3_600_000 })
    const { page, problems, close } = await signedIn(demoKeys.proAll)
    await goTo(page, "Portfolio")
    await page.getByRole("table", { name: "Holdings by value" }).waitFor()
    const day = (await session.api("GET", "/portfolio?range=24h", demoKeys.proAll)).body.data
    expect(day.performance.points.length).toBeGreaterThan(20)
    await page.getByRole("img", { name: /Portfolio value over 24h/ }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, "portfolio-1280")
    await page.getByRole("group", { name: "Performance range" }).getByRole("button", { name: "30d" }).click()
    await page.getByRole("img", { name: /Portfolio value over 30d/ }).waitFor()
    const portfolio = (await session.api("GET", "/portfolio?range=30d", demoKeys.proAll)).body.data
    const holdings = page.getByRole("table", { name: "Holdings by value" }).getByRole("row")
    expect(await holdings.count()).toBe(portfolio.holdings.length + 1)
    // Each holding reads short, its exact amount in the cell's value and title.
    const amounts = await shownAmounts(page.getByRole("table", { name: "Holdings by value" }))
    expect(amounts.map((shown) => shown.value)).toEqual(
      portfolio.holdings.map((holding: { amount: string }) => holding.amount)
    )
    for (const [index, holding] of portfolio.holdings.entries()) {
      expectShortForm(
        { ...amounts[index]!, text: `${amounts[index]!.text} ${holding.token}` },
        holding.amount,
        holding.token
      )
    }
    expect(problems).toEqual([])
    await close()
  })

  it("fits a 390 px wide screen with no serious accessibility violation", async () => {
    const { page, problems, close } = await signedIn(demoKeys.proAll, 390)
    for (const screen of ["Orders", "Portfolio", "Account"]) {
      await goTo(page, screen)
      await page.waitForLoadState("networkidle")
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
        .toBeLessThanOrEqual(0)
      expect(await seriousViolations(page), screen).toEqual([])
      await screenshot(page, `${screen.toLowerCase()}-390`)
    }
    expect(problems).toEqual([])
    await close()
  })
})
