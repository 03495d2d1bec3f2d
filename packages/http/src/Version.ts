/**
 * The service's version: what `/v1/health` reports and what the OpenAPI document states. Read from
 * the http package's own manifest, so that a release changes it in one place. The manifest sits one
 * folder above this module both in the sources (`src/`) and in the published build (`dist/`).
 */
import { createRequire } from "node:module"

const manifest = createRequire(import.meta.url)("../package.json") as { readonly version: string }

export const VERSION: string = manifest.version
