/**
 * What the browser tests share: the standalone server started as a user starts it (`main.ts`, a
 * scenario file, port 0), Debian's Chromium driven by playwright-core, axe-core injected into the
 * page, screenshots, and a JSON client to read every action's effect back through the API.
 */
import { demoScenario, type ScenarioFile } from "@swapdesk/simulator"
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type Browser, chromium, type Locator, type Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { holdInterface } from "./interfaceLock.ts"

const root = new URL("../../../", import.meta.url).pathname

/** The demo scenario on a clock that moves only when told, without rate limits. */
export const manualScenario: ScenarioFile = {
  ...demoScenario,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: false
}

export const demoKeys = {
  freeAll: "sd_test_DemoFreeAllScopes00000000000000000000000",
  proAll: "sd_test_DemoProAllScopes000000000000000000000000"
} as const

export interface RunningServer {
  readonly url: string
  readonly stop: () => Promise<void>
}

/**
 * Starts `packages/server/src/main.ts` on `scenario` at an ephemeral loopback port, with `env` over
 * the defaults (`HOST: "0.0.0.0"` listens beyond loopback; the page is still reached at 127.0.0.1).
 */
export const startServer = async (
  scenario: ScenarioFile = manualScenario,
  env: Readonly<Record<string, string>> = {}
): Promise<RunningServer> => {
  const file = join(mkdtempSync(join(tmpdir(), "swapdesk-web-")), "scenario.json")
  writeFileSync(file, JSON.stringify(scenario))
  // Not while another test file builds the interface: the server reads its files as it starts.
  const release = await holdInterface("read")
  const child = spawn(process.execPath, [join(root, "packages/server/src/main.ts")], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: file, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const started = new Promise<RunningServer>((resolve, reject) => {
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^ ]+)/.exec(output)
      if (match === null) return
      child.stdout.off("data", onData)
      resolve({
        url: match[1]!.replace("//0.0.0.0:", "//127.0.0.1:"),
        stop: () =>
          new Promise((done) => {
            child.once("exit", () => done())
            child.kill("SIGTERM")
          })
      })
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)))
  })
  try {
    return await started
  } finally {
    await release()
  }
}

/** The launch flags that work in this project's containers (docs/interface.md). */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })

/**
 * A page that records what should never happen: a Content-Security-Policy violation, an uncaught
 * error, a console error other than a failed request the test caused on purpose.
 */
export const openPage = async (browser: Browser, url: string, width = 1280) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) {
      problems.push(`console error: ${message.text()}`)
    }
  })
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  await page.goto(url)
  return { page, problems, close: () => context.close() }
}

/** Signs in through the form, as a user pastes a key. */
export const signIn = async (page: Page, key: string) => {
  await page.getByLabel("API key").fill(key)
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  await page.getByRole("navigation", { name: "Screens" }).waitFor()
}

/** The server and the browser a test file runs against (`browserSession`), with the steps every test takes. */
export interface BrowserSession {
  readonly server: RunningServer
  readonly browser: Browser
  /** A fresh tab on the interface, `width` pixels wide, signed in with `key`. */
  readonly signedIn: (key: string, width?: number) => ReturnType<typeof openPage>
  /** `api` on this session's server. */
  readonly api: (method: string, path: string, key?: string, body?: unknown) => ReturnType<typeof api>
}

/**
 * The standalone server on `scenario` and a browser, for the tests of one file: both started
 * before its first test and stopped after its last. Read `server` and `browser` inside tests,
 * once they have started.
 */
export const browserSession = (scenario: ScenarioFile = manualScenario): BrowserSession => {
  let started: { readonly server: RunningServer; readonly browser: Browser } | undefined
  beforeAll(async () => {
    const [server, browser] = await Promise.all([startServer(scenario), launchBrowser()])
    started = { server, browser }
  })
  afterAll(async () => {
    await started?.browser.close()
    await started?.server.stop()
  })
  const running = () => {
    if (started === undefined) throw new Error("the server and the browser are read before they started")
    return started
  }
  return {
    get server() {
      return running().server
    },
    get browser() {
      return running().browser
    },
    signedIn: async (key, width = 1280) => {
      const opened = await openPage(running().browser, `${running().server.url}/`, width)
      await signIn(opened.page, key)
      return opened
    },
    api: (method, path, key, body) => api(running().server, method, path, key, body)
  }
}

export const goTo = async (page: Page, screen: string) => {
  await page.getByRole("navigation", { name: "Screens" }).getByRole("link", { name: screen, exact: true }).click()
  await page.getByRole("heading", { level: 1 }).filter({ hasText: screen === "Orders" ? "Limit orders" : screen })
    .waitFor()
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

/** axe-core's serious and critical violations on the page as it is now, one line each. */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a script tag would be refused).
  await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] })
    return (result.violations as Array<any>).map((violation) => ({
      id: violation.id as string,
      impact: violation.impact as string,
      targets: (violation.nodes as Array<any>).map((node) => String(node.target)).slice(0, 3)
    }))
  })
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.targets.join(" | ")}`)
}

const screenshotDirectories = [
  join(root, ".reports/screenshots"),
  ...(process.env.SWAPDESK_UPDATE_SCREENSHOTS === "1" ? [join(root, "docs/images")] : [])
]

/**
 * Saves a screenshot under `.reports/screenshots`, and into `docs/images` (the ones
 * docs/interface.md shows) when `SWAPDESK_UPDATE_SCREENSHOTS=1`.
 */
export const screenshot = async (page: Page, name: string) => {
  const image = await page.screenshot({ fullPage: true, animations: "disabled" })
  for (const directory of screenshotDirectories) {
    mkdirSync(directory, { recursive: true })
    writeFileSync(join(directory, `${name}.png`), image)
  }
}

/** One API call from the test, to read an effect back as any client would. */
export const api = async (server: RunningServer, method: string, path: string, key?: string, body?: unknown) => {
  const response = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: {
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) }
}

/**
 * Chooses `symbol` in the token picker named `label` ("Token in", "Token out") inside `scope`: opens
 * its dialog, searches, and picks the option, as a user does.
 */
export const chooseToken = async (page: Page, scope: Locator, label: string, symbol: string) => {
  await scope.getByRole("button", { name: new RegExp(`^${label}: `) }).click()
  const dialog = page.getByRole("dialog", { name: `Choose ${label.toLowerCase()}` })
  await dialog.getByRole("combobox", { name: "Search by symbol, name or address" }).fill(symbol)
  await dialog.getByRole("option", { name: new RegExp(`^${symbol} `) }).click()
  await scope.getByRole("button", { name: `${label}: ${symbol}` }).waitFor()
}

/** A token amount as a screen shows it: its text, and the exact amount it carries. */
export interface ShownAmount {
  readonly text: string
  readonly value: string
  readonly title: string
}

/**
 * Every token amount shown inside `scope`, in page order, once there are at least `atLeast` of them:
 * a card being redrawn (a quote refreshed, a trade's status changing) shows none for a moment.
 */
export const shownAmounts = async (scope: Locator, atLeast = 1): Promise<ReadonlyArray<ShownAmount>> => {
  const deadline = Date.now() + 10_000
  for (;;) {
    const amounts = await scope.locator("data.amount").evaluateAll((elements) =>
      elements.map((element) => ({
        text: element.textContent ?? "",
        value: element.getAttribute("value") ?? "",
        title: element.getAttribute("title") ?? ""
      }))
    )
    if (amounts.length >= atLeast || Date.now() > deadline) return amounts
    await scope.page().waitForTimeout(50)
  }
}

/** A decimal string with its whole part grouped by thousands. */
const groupThousands = (amount: string) =>
  amount.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ","))

/**
 * Asserts `shown` reads `exact` (a decimal string from the API) of `symbol` as the interface's rule
 * says (docs/decisions.md, "Token amounts read to 6 decimals"): grouped, at most 6 decimals, its
 * digits those of the exact amount cut toward zero, "<0.000001" only for a non-zero amount below
 * it; the exact amount in its `value` and, grouped, in its title.
 */
export const expectShortForm = (shown: ShownAmount | undefined, exact: string, symbol: string) => {
  expect(shown?.value).toBe(exact)
  expect(shown?.title).toBe(`${groupThousands(exact)} ${symbol}`)
  const text = shown?.text ?? ""
  expect(text).toMatch(new RegExp(`^(<0\\.000001|\\d{1,3}(,\\d{3})*(\\.\\d{1,6})?) ${symbol}$`))
  const digits = text.slice(0, -symbol.length - 1).replaceAll(",", "")
  if (digits === "<0.000001") {
    expect(exact).toMatch(/^0\.0{6}\d*[1-9]/)
    return
  }
  // Cut toward zero: the exact amount starts with the digits shown, and only zeros follow them up to the 6th place.
  expect(exact.startsWith(digits)).toBe(true)
  const places = digits.includes(".") ? digits.split(".")[1]!.length : 0
  const rest = exact.slice(digits.length)
  expect(rest === "" || (places === 0 ? rest.startsWith(".") : /^\d/.test(rest))).toBe(true)
  expect(rest.replace(/^\./, "").slice(0, 6 - places)).toMatch(/^0*$/)
}
