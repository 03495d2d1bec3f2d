// Proves the version `/v1/health` and the OpenAPI document state is the http package's manifest's,
// by comparing the `VERSION` constant with the manifest read from disk: a release that bumps the
// manifests without running `scripts/version.ts` fails here.
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { VERSION } from "../src/Version.ts"

describe("VERSION", () => {
  it("is the http package's manifest version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      readonly version: string
    }
    assert.strictEqual(VERSION, manifest.version)
  })
})
