// Proves `InterfaceRoutes.layer`, the way a consumer mounts the interface in a server of its own:
// on a real server on port 0, a built directory is served at `/` and by exact path, every file
// with the interface's security headers and its content type, the hashed assets cacheable for
// good and the page revalidated; the build's compressed copies sent in their file's place as
// `Accept-Encoding` asks (with `Content-Encoding` and `Vary`), never at paths of their own; a path
// outside the built set is not found; and a directory with nothing built answers `GET /` with a 503
// saying how to build it.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpClient, HttpRouter } from "effect/http"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { CONTENT_SECURITY_POLICY, layer } from "../src/InterfaceRoutes.ts"

const built = () => {
  const directory = mkdtempSync(join(tmpdir(), "swapdesk-interface-"))
  mkdirSync(join(directory, "assets"))
  writeFileSync(join(directory, "index.html"), "<!doctype html><title>t</title>")
  writeFileSync(join(directory, "assets", "index-abc.js"), "console.log(1)")
  writeFileSync(join(directory, "assets", "index-abc.css"), "body{}")
  return directory
}

/** GETs `paths` from a server that serves only `layer({ directory })`, with `headers` on each request. */
const fetchAll = (directory: string, paths: ReadonlyArray<string>, headers: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const answers = []
    for (const path of paths) {
      const response = yield* client.get(path, { headers })
      answers.push({ status: response.status, headers: response.headers, body: yield* response.text })
    }
    return answers
  }).pipe(
    Effect.provide(
      HttpRouter.serve(layer({ directory }), { disableLogger: true, disableListenLog: true }).pipe(
        Layer.provideMerge(NodeHttpServer.layerTest)
      )
    ),
    Effect.scoped,
    Effect.runPromise
  )

describe("InterfaceRoutes.layer", () => {
  it("serves the built files with the interface's headers, and nothing else", async () => {
    const [page, index, script, style, outside, traversal] = await fetchAll(built(), [
      "/",
      "/index.html",
      "/assets/index-abc.js",
      "/assets/index-abc.css",
      "/assets/missing.js",
      "/assets/..%2Findex.html"
    ])
    for (const answer of [page!, index!, script!, style!]) {
      expect(answer.status).toBe(200)
      expect(answer.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
      expect(answer.headers["x-frame-options"]).toBe("DENY")
      expect(answer.headers["x-content-type-options"]).toBe("nosniff")
      expect(answer.headers["referrer-policy"]).toBe("no-referrer")
    }
    expect(page!.body).toBe("<!doctype html><title>t</title>")
    expect(page!.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(page!.headers["cache-control"]).toBe("no-cache")
    expect(script!.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(script!.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(style!.headers["content-type"]).toBe("text/css; charset=utf-8")
    expect(outside!.status).toBe(404)
    expect(traversal!.status).toBe(404)
  })

  it("sends the compressed copy the client accepts, saying so, and the file as it is otherwise", async () => {
    const directory = built()
    const script = "console.log('a script long enough to be worth compressing, '.repeat(20))"
    writeFileSync(join(directory, "assets", "index-abc.js"), script)
    writeFileSync(join(directory, "assets", "index-abc.js.br"), brotliCompressSync(script))
    writeFileSync(join(directory, "assets", "index-abc.js.gz"), gzipSync(script))
    const path = ["/assets/index-abc.js"]
    const [brotli] = await fetchAll(directory, path, { "accept-encoding": "gzip, deflate, br" })
    const [gzip] = await fetchAll(directory, path, { "accept-encoding": "gzip" })
    const [plain] = await fetchAll(directory, path, { "accept-encoding": "identity" })
    const [refused] = await fetchAll(directory, path, { "accept-encoding": "br;q=0, gzip;q=0" })
    // The test client decodes what it is sent, as a browser does: each answer reads as the script.
    expect(brotli!.headers["content-encoding"]).toBe("br")
    expect(gzip!.headers["content-encoding"]).toBe("gzip")
    expect(plain!.headers["content-encoding"]).toBeUndefined()
    expect(refused!.headers["content-encoding"]).toBeUndefined()
    for (const answer of [brotli!, gzip!, plain!, refused!]) {
      expect(answer.body).toBe(script)
      expect(answer.status).toBe(200)
      expect(answer.headers["vary"]).toBe("Accept-Encoding")
      expect(answer.headers["content-type"]).toBe("text/javascript; charset=utf-8")
      expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
      expect(answer.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
    }
    // The copies are the file's other forms, not files of their own.
    const [copy] = await fetchAll(directory, ["/assets/index-abc.js.br"])
    expect(copy!.status).toBe(404)
    // A file without copies does not vary.
    const [style] = await fetchAll(directory, ["/assets/index-abc.css"], { "accept-encoding": "br" })
    expect(style!.headers["content-encoding"]).toBeUndefined()
    expect(style!.headers["vary"]).toBeUndefined()
  })

  it("answers 503 saying how to build it when nothing is built", async () => {
    const empty = mkdtempSync(join(tmpdir(), "swapdesk-interface-"))
    const [page] = await fetchAll(empty, ["/"])
    expect(page!.status).toBe(503)
    expect(page!.body).toContain("--filter @swapdesk/web build")
    expect(page!.headers["x-content-type-options"]).toBe("nosniff")
  })
})
