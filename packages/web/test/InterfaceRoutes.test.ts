// Proves `InterfaceRoutes.layer`, the way a consumer mounts the interface in a server of its own:
// on a real server on port 0, a built directory is served at `/` and by exact path, every file
// with the interface's security headers and its content type, the hashed assets cacheable for
// good and the page revalidated; a path outside the built set is not found; and a directory with
// nothing built answers `GET /` with a 503 saying how to build it.
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Effect, Layer } from "effect"
import { HttpClient, HttpRouter } from "effect/http"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
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

/** GETs `paths` from a server that serves only `layer({ directory })`. */
const fetchAll = (directory: string, paths: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const answers = []
    for (const path of paths) {
      const response = yield* client.get(path)
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

  it("answers 503 saying how to build it when nothing is built", async () => {
    const empty = mkdtempSync(join(tmpdir(), "swapdesk-interface-"))
    const [page] = await fetchAll(empty, ["/"])
    expect(page!.status).toBe(503)
    expect(page!.body).toContain("--filter @swapdesk/web build")
    expect(page!.headers["x-content-type-options"]).toBe("nosniff")
  })
})
