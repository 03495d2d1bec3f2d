/**
 * Writes the http package's manifest version into `packages/http/src/Version.ts`, the constant
 * `/v1/health` and the OpenAPI document report (docs/releasing.md, step 3).
 *
 *   node scripts/version.ts
 */
import { readFileSync, writeFileSync } from "node:fs"

const manifest = new URL("../packages/http/package.json", import.meta.url)
const target = new URL("../packages/http/src/Version.ts", import.meta.url)
const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { readonly version: string }
const source = readFileSync(target, "utf8")
const written = source.replace(/^export const VERSION: string = ".*"$/m, `export const VERSION: string = "${version}"`)
if (!written.includes(`"${version}"`)) throw new Error(`no VERSION constant to set in ${target.pathname}`)
writeFileSync(target, written)
console.log(`VERSION = "${version}"`)
