/**
 * Builds the interface into `dist/app`: one page, hashed assets under `assets/`, relative URLs so
 * that the files work wherever a server mounts them. No inline script or style is emitted, as the
 * page's Content-Security-Policy allows its own files only. Every text file is written a second
 * and a third time, brotli- and gzip-compressed (`.br`, `.gz` beside it), so that the server sends
 * compressed bytes without compressing on each request (docs/decisions.md, "The interface's files
 * are compressed at build time").
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { extname, join } from "node:path"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { defineConfig, type Plugin } from "vite"

/** The extensions worth compressing: text. Images such as PNG and fonts are compressed already. */
const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".ico", ".map"])

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * file of the build, each only when it is smaller than the file itself: once per build, at the
 * strongest settings, as no request waits for it.
 */
const precompress = (): Plugin => {
  let outDir = ""
  return {
    name: "swapdesk:precompress",
    apply: "build",
    configResolved(config) {
      outDir = join(config.root, config.build.outDir)
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { withFileTypes: true, recursive: true })) {
        if (!entry.isFile() || !compressible.has(extname(entry.name))) continue
        const path = join(entry.parentPath, entry.name)
        const body = readFileSync(path)
        const variants = {
          br: brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT
            }
          }),
          gz: gzipSync(body, { level: 9 })
        }
        for (const [suffix, compressed] of Object.entries(variants)) {
          if (compressed.length < body.length) writeFileSync(`${path}.${suffix}`, compressed)
        }
      }
    }
  }
}

export default defineConfig({
  root: import.meta.dirname,
  base: "./",
  build: {
    outDir: "dist/app",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // The compression above takes seconds by design (the strongest settings, once per build); the
    // bundler would warn about that slow callback on every build.
    rolldownOptions: { checks: { bundlerTimings: false } }
  },
  plugins: [precompress()],
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } }
})
