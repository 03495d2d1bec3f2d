// Proves the release rules that a tool can check: the six packages share one version (they are
// released together, docs/releasing.md), and the changelog has an Unreleased section for the next
// change to go into, or a section for the current version.
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")
const versionOf = (name: string) =>
  (JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) as { readonly version: string })
    .version

describe("release", () => {
  it("the packages share one version", () => {
    const versions = ["core", "simulator", "http", "channels", "web", "server"].map(versionOf)
    assert.deepStrictEqual(new Set(versions).size, 1, versions.join(", "))
  })

  it("the changelog has an Unreleased section or one for the current version", () => {
    const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8")
    const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1]!)
    assert.isTrue(
      headings[0] === "Unreleased" || headings[0]!.startsWith(`${versionOf("http")} `),
      `first section: ${headings[0]}`
    )
  })
})
