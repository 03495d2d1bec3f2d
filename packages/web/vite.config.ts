/**
 * Builds the interface into `dist/app`: one page, hashed assets under `assets/`, relative URLs so
 * that the files work wherever a server mounts them. No inline script or style is emitted, as the
 * page's Content-Security-Policy allows its own files only.
 */
import { defineConfig } from "vite"

export default defineConfig({
  root: import.meta.dirname,
  base: "./",
  build: {
    outDir: "dist/app",
    emptyOutDir: true,
    target: "es2022",
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false
  },
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } }
})
