/**
 * The routes that serve the interface's built files: `GET /` (the page) and `GET /assets/*` (its
 * scripts, styles and images), each with the interface's own `Content-Security-Policy` (its own
 * assets only, and calls to its own origin), `X-Frame-Options: DENY`, `X-Content-Type-Options:
 * nosniff` and `Referrer-Policy: no-referrer`. The files are read once, when the layer is built, so
 * no request path ever reaches the file system: a path outside the built set is the router's 404.
 * Each is sent brotli- or gzip-compressed as `Accept-Encoding` asks, from the compressed copies the
 * build wrote beside it, and cached by the browser for good when its name carries a content hash.
 * Any server built on `effect/http` that serves the contract can merge this layer into its router.
 */
import { pageSecurityHeaders } from "@swapdesk/http"
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { extname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { type ContentEncoding, negotiateEncoding } from "./ContentEncoding.ts"

/**
 * Where the built interface lives: `dist/app` beside this package's sources, or beside its
 * compiled module once published.
 */
export const interfaceDirectory: string = fileURLToPath(
  new URL(import.meta.url.endsWith(".ts") ? "../dist/app/" : "./app/", import.meta.url)
)

/**
 * The page's policy: scripts, styles, images and fonts from its own origin only, calls only to its
 * own origin (the `/v1` API), no plugins, no framing, no forms posted anywhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** The headers on every file the interface is made of: the server's page headers, with the page's policy. */
export const securityHeaders: Readonly<Record<string, string>> = pageSecurityHeaders(CONTENT_SECURITY_POLICY)

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8"
}

/** A built file: its bytes as they are, and as compressed at build time where that is smaller. */
interface StaticFile {
  readonly body: Uint8Array
  readonly contentType: string
  readonly compressed: ReadonlyMap<Exclude<ContentEncoding, "identity">, Uint8Array>
}

/** The suffixes the build writes its compressed copies under (`vite.config.ts`). */
const compressedSuffixes: ReadonlyArray<readonly [string, Exclude<ContentEncoding, "identity">]> = [
  [".br", "br"],
  [".gz", "gzip"]
]

/**
 * The built files by URL path. A `.br` or `.gz` file beside one of the same name is that file
 * compressed: it is served in its place to a client that accepts it, never at a path of its own.
 */
const filesUnder = (directory: string): ReadonlyMap<string, StaticFile> => {
  const paths = new Set<string>()
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) paths.add(join(entry.parentPath, entry.name))
  }
  const isCompressedCopy = (path: string) =>
    compressedSuffixes.some(([suffix]) => path.endsWith(suffix) && paths.has(path.slice(0, -suffix.length)))
  const files = new Map<string, StaticFile>()
  for (const path of paths) {
    if (isCompressedCopy(path)) continue
    const compressed = new Map<Exclude<ContentEncoding, "identity">, Uint8Array>()
    for (const [suffix, coding] of compressedSuffixes) {
      if (paths.has(path + suffix)) compressed.set(coding, readFileSync(path + suffix))
    }
    files.set("/" + relative(directory, path).split(sep).join("/"), {
      body: readFileSync(path),
      contentType: contentTypes[extname(path)] ?? "application/octet-stream",
      compressed
    })
  }
  return files
}

/** Built file names carry a content hash, so a browser may keep them; the page itself is revalidated. */
const cacheControlOf = (urlPath: string): string =>
  urlPath.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache"

/**
 * The handler of one file: its answers in each stored coding, built once, and the one that
 * `Accept-Encoding` picks. `Vary` tells caches that the answer depends on that header.
 */
const serveFile = (file: StaticFile, urlPath: string) => {
  const headers = {
    ...securityHeaders,
    "cache-control": cacheControlOf(urlPath),
    ...(file.compressed.size > 0 ? { vary: "Accept-Encoding" } : {})
  }
  const answers = new Map<ContentEncoding, HttpServerResponse.HttpServerResponse>([
    ["identity", HttpServerResponse.uint8Array(file.body, { contentType: file.contentType, headers })],
    ...[...file.compressed].map(([coding, body]) =>
      [
        coding,
        HttpServerResponse.uint8Array(body, {
          contentType: file.contentType,
          headers: { ...headers, "content-encoding": coding }
        })
      ] as const
    )
  ])
  const available = new Set(answers.keys())
  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.succeed(answers.get(negotiateEncoding(request.headers["accept-encoding"], available))!)
}

const notBuilt = (directory: string) =>
  HttpServerResponse.text(
    `The trading interface is not built (nothing at ${directory}). Build it with: npx -y pnpm@12.21.0 --filter @swapdesk/web build\n`,
    { status: 503, contentType: "text/plain; charset=utf-8", headers: securityHeaders }
  )

/**
 * The interface's routes, serving the built files in `directory` (default: this package's own
 * build), read when the layer is built. When nothing is built there, `GET /` answers `503` saying
 * how to build it, and the API is served as usual.
 */
export const layer = (options: { readonly directory?: string } = {}) =>
  Layer.unwrap(Effect.sync(() => {
    const directory = options.directory ?? interfaceDirectory
    if (!existsSync(join(directory, "index.html"))) return HttpRouter.add("GET", "/", notBuilt(directory))
    const files = filesUnder(directory)
    const page = serveFile(files.get("/index.html")!, "/index.html")
    return Layer.mergeAll(
      HttpRouter.add("GET", "/", page),
      ...[...files].map(([urlPath, file]) =>
        HttpRouter.add("GET", urlPath as `/${string}`, urlPath === "/index.html" ? page : serveFile(file, urlPath))
      )
    )
  }))
