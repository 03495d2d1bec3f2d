// Proves the interface's first load stays small: on the standalone server started as a user starts
// it, Debian's Chromium opens the sign-in page and every byte it receives until the page is idle
// (headers and bodies as sent, measured by the browser) adds up to at most 150 KB, without the
// OpenAPI document; and every built file is served brotli- or gzip-compressed as `Accept-Encoding`
// asks, byte for byte the build's compressed copy, with `Vary: Accept-Encoding`, read over a raw
// HTTP connection that decodes nothing.
import { readdirSync, readFileSync } from "node:fs"
import { request } from "node:http"
import { join, relative, sep } from "node:path"
import { describe, expect, it } from "vitest"
import { interfaceDirectory } from "../src/InterfaceRoutes.ts"
import { browserSession, openPage } from "./browser.ts"

/** The budget of docs/performance.md, "The trading interface". */
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024

const session = browserSession()

/** One GET over node:http, which sends only the headers given and decodes nothing. */
const rawGet = (url: string, headers: Readonly<Record<string, string>>) =>
  new Promise<{ readonly headers: Record<string, string | Array<string> | undefined>; readonly body: Buffer }>(
    (resolve, reject) => {
      request(url, { headers }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }))
        response.on("error", reject)
      }).on("error", reject).end()
    }
  )

describe("the interface's first load", () => {
  it("is at most 150 KB over the wire, and reads no OpenAPI document", async () => {
    const { page, problems, close } = await openPage(session.browser, "about:blank")
    const measured: Array<Promise<{ readonly url: string; readonly bytes: number }>> = []
    page.on("requestfinished", (finished) => {
      measured.push(
        finished.sizes().then((sizes) => ({
          url: finished.url(),
          bytes: sizes.responseHeadersSize + sizes.responseBodySize
        }))
      )
    })
    await page.goto(`${session.server.url}/`, { waitUntil: "networkidle" })
    await page.getByRole("button", { name: "Sign in as Demo Pro, all scopes" }).waitFor()
    await page.waitForLoadState("networkidle")
    const received = await Promise.all(measured)
    const total = received.reduce((sum, entry) => sum + entry.bytes, 0)
    expect(received.every((entry) => entry.bytes > 0)).toBe(true)
    expect(received.map((entry) => new URL(entry.url).pathname)).not.toContain("/v1/openapi.json")
    expect(received.some((entry) => entry.url.includes("/assets/") && entry.url.endsWith(".js"))).toBe(true)
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES)
    expect(problems).toEqual([])
    await close()
  })

  it("serves every built file compressed as asked, with Vary", async () => {
    const files = readdirSync(interfaceDirectory, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name))
    expect(files.length).toBeGreaterThanOrEqual(3)
    for (const file of files) {
      const urlPath = "/" + relative(interfaceDirectory, file).split(sep).join("/")
      const url = `${session.server.url}${urlPath}`
      const brotli = await rawGet(url, { "accept-encoding": "gzip, deflate, br, zstd" })
      const gzip = await rawGet(url, { "accept-encoding": "gzip" })
      const plain = await rawGet(url, {})
      expect([urlPath, brotli.headers["content-encoding"]]).toEqual([urlPath, "br"])
      expect(brotli.body.equals(readFileSync(`${file}.br`))).toBe(true)
      expect(gzip.headers["content-encoding"]).toBe("gzip")
      expect(gzip.body.equals(readFileSync(`${file}.gz`))).toBe(true)
      expect(plain.headers["content-encoding"]).toBeUndefined()
      expect(plain.body.equals(readFileSync(file))).toBe(true)
      for (const answer of [brotli, gzip, plain]) expect(answer.headers["vary"]).toBe("Accept-Encoding")
      expect(brotli.body.length).toBeLessThan(plain.body.length)
    }
  })
})
