/**
 * The interface's budget, in headless Chromium on the loopback server (the standalone server
 * started as `main.ts` starts, on a manual-clock copy of the demo scenario, so every load draws the
 * same data):
 *
 * - first load: the JS and CSS the page loads before it can draw, gzipped (level 9), as a server
 *   that compresses would send them;
 * - time to interactive: from navigation start to the market screen's chart drawn (the page's
 *   `chart-drawn` mark, the frame after the candles painted), signed in with a `read` key, the
 *   median of `--loads` fresh loads (each in a new browser context, so nothing is cached);
 * - 1,440 one-minute candles: from the data handed to the chart (`chart-data`) to `chart-drawn`,
 *   the median over the same number of loads of a day of 1m candles, drawn on a page already
 *   loaded and idle (a day of SOL, then the same day of ETH: the chart is created and drawn anew); beside it, the part spent in
 *   the library's `setData` (`chart-set`), and the baseline wait for an animation frame with
 *   nothing to draw, measured in the same page, since the draw includes waiting for one frame.
 *
 * The interface is built first (`vite build`).
 */
import { demoScenario } from "@swapdesk/simulator"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"
import { build } from "vite"
import { atMost, type BenchResult, formatMs, median } from "./Report.ts"

const root = join(import.meta.dirname, "../..")
const appDirectory = join(root, "packages/web/dist/app")
const READ_KEY = "sd_test_DemoProReadOnly0000000000000000000000000"

const startServer = () => {
  const file = join(mkdtempSync(join(tmpdir(), "swapdesk-bench-web-")), "scenario.json")
  writeFileSync(file, JSON.stringify({ ...demoScenario, clock: { mode: "manual", start: "2026-01-01T00:00:00Z" } }))
  const child = spawn(process.execPath, [join(root, "packages/server/src/main.ts")], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: file },
    stdio: ["ignore", "pipe", "inherit"]
  })
  return new Promise<{ url: string; stop: () => void }>((resolve, reject) => {
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^ ]+)/.exec(output)
      if (match !== null) resolve({ url: match[1]!, stop: () => child.kill("SIGTERM") })
    })
    child.once("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)))
  })
}

/** The JS and CSS the page names, gzipped. */
const firstLoadBytes = () => {
  const html = readFileSync(join(appDirectory, "index.html"), "utf8")
  const files = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
  const sizes = files.map((file) => {
    const bytes = readFileSync(join(appDirectory, file))
    return { file, raw: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength }
  })
  return {
    raw: sizes.reduce((sum, size) => sum + size.raw, 0),
    gzip: sizes.reduce((sum, size) => sum + size.gzip, 0),
    files: sizes.length
  }
}

/**
 * Read in the page (a string, as it runs there and not here): the last of each mark, the number of
 * candles drawn, and the baseline, how long the next animation frame takes when nothing is drawn.
 */
const readMarks = `(async () => {
  const at = (name) => performance.getEntriesByName(name).at(-1)?.startTime ?? Number.NaN
  const before = performance.now()
  await new Promise((resolve) => requestAnimationFrame(resolve))
  return {
    data: at("chart-data"),
    set: at("chart-set"),
    drawn: at("chart-drawn"),
    frame: performance.now() - before,
    candles: document.querySelector(".chart-canvas")?.getAttribute("data-drawn") ?? undefined
  }
})()`

export const runWebBench = async (options: { readonly loads: number }): Promise<BenchResult> => {
  console.error("web: building the interface")
  await build({ configFile: join(root, "packages/web/vite.config.ts"), logLevel: "warn" })
  const size = firstLoadBytes()
  const server = await startServer()
  const browser = await chromium.launch({
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
   * One fresh load of `hash`, signed in; the marks' times once the chart is drawn. With
   * `redrawAs`, the chart is then drawn again for that token, once the page is idle, and the marks
   * are those of the second draw: the first one shares its frame with the rest of the page's
   * first paint.
   */
  const load = async (hash: string, redrawAs?: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addInitScript((key) => sessionStorage.setItem("swapdesk.apiKey", key), READ_KEY)
    const page = await context.newPage()
    await page.goto(`${server.url}/${hash}`)
    await page.locator(".chart-canvas[data-drawn]").waitFor({ timeout: 30_000 })
    if (redrawAs !== undefined) {
      await page.waitForLoadState("networkidle")
      await page.getByLabel("Token (symbol or contract address)").fill(redrawAs)
      await page.getByRole("button", { name: "Search" }).click()
      await page.waitForFunction("performance.getEntriesByName(\"chart-drawn\").length >= 2", undefined, {
        timeout: 30_000
      })
    }
    const marks = (await page.evaluate(readMarks)) as {
      readonly data: number
      readonly set: number
      readonly drawn: number
      readonly frame: number
      readonly candles: string | undefined
    }
    await context.close()
    return marks
  }
  try {
    // One load to warm the server's caches and the browser's process; not counted.
    await load("#/market")
    const interactive: Array<number> = []
    const draws: Array<number> = []
    const takes: Array<number> = []
    const frames: Array<number> = []
    let candles = ""
    for (let i = 0; i < options.loads; i++) {
      console.error(`web: load ${i + 1} of ${options.loads}`)
      interactive.push((await load("#/market")).drawn)
      const day = await load("#/market?token=SOL&timeframe=1m&from=2025-12-31T00:00&to=2026-01-01T00:00", "ETH")
      draws.push(day.drawn - day.data)
      takes.push(day.set - day.data)
      frames.push(day.frame)
      candles = day.candles ?? ""
    }
    if (candles !== "1440") throw new Error(`the day chart drew ${candles} candles, not 1440`)
    return {
      rows: [
        {
          benchmark: "web",
          metric: `first load JS + CSS, gzipped (${size.files} files, ${(size.raw / 1024).toFixed(0)} KB raw)`,
          shown: `${(size.gzip / 1024).toFixed(1)} KB`,
          value: size.gzip / 1024,
          target: atMost(150, "<= 150 KB")
        },
        {
          benchmark: "web",
          metric: `interactive (market chart drawn), median of ${options.loads}`,
          shown: formatMs(median(interactive)),
          value: median(interactive),
          target: atMost(1_000, "< 1 s")
        },
        {
          benchmark: "web",
          metric: `1,440 one-minute candles drawn, median of ${options.loads}`,
          shown: formatMs(median(draws)),
          value: median(draws),
          target: atMost(100, "< 100 ms")
        },
        {
          benchmark: "web",
          metric: "  of which the library taking the data (setData, fitContent)",
          shown: formatMs(median(takes))
        },
        {
          benchmark: "web",
          metric: "  baseline: an animation frame with nothing to draw",
          shown: formatMs(median(frames))
        }
      ],
      notes: [
        `web: interactive ${interactive.map((ms) => ms.toFixed(0)).join(", ")} ms; ` +
        `1,440 candles ${draws.map((ms) => ms.toFixed(1)).join(", ")} ms`
      ]
    }
  } finally {
    await browser.close()
    server.stop()
  }
}
