// Proves the dependency direction between the packages, from their sources and manifests: each
// package's `src` imports only the packages it may depend on (core: effect and decimal.js only, no
// Node built-ins; simulator: core, the signing libraries, a CSV parser and Node's file reading for
// history files; http: core and a SHA-256, with Node's built-ins and Effect's Node platform only behind
// its `@swapdesk/http/node` entry, whose main entry reaches neither; channels: core, Node and its two providers' libraries; store: core,
// PostgreSQL's driver and node:sqlite; evm: core, viem and Node; server: all of them; web: its browser libraries, and effect,
// Node and http's security headers for the layer that serves it), every package it imports is declared in its manifest,
// and nothing it declares at run time goes unused. The web app itself (packages/web/src/app)
// imports only its browser libraries: it reaches the server through the public API, never our
// code. A new import across a boundary
// fails here, not in a reader's review.
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..")

/** What each package's sources may import, besides their own relative modules. */
const allowed: Record<string, ReadonlyArray<string>> = {
  core: ["effect", "decimal.js"],
  // The order signatures' curves, hashes, base58 and EIP-712 (docs/decisions.md, "Order signing libraries"), the
  // history files' CSV parser and file reading (docs/simulator.md, "Replaying history").
  simulator: [
    "effect",
    "@swapdesk/core",
    "@noble/curves",
    "@noble/hashes",
    "@scure/base",
    "viem",
    "papaparse",
    "node:"
  ],
  // A SHA-256 that needs no platform (docs/decisions.md, "The contract runs on any platform"); Node's
  // built-ins and Effect's Node platform only in `src/node`, the `@swapdesk/http/node` entry.
  http: ["effect", "@swapdesk/core", "@noble/hashes", "node:", "@effect/platform-node"],
  channels: ["effect", "@swapdesk/core", "node:", "nodemailer", "standardwebhooks"],
  // PostgreSQL's driver and node:sqlite (docs/storage.md).
  store: ["effect", "@swapdesk/core", "@effect/sql-pg", "node:"],
  // viem for every chain call, Node for the devnet's anvil processes (docs/decisions.md, "Live mode's EVM package").
  evm: ["effect", "@swapdesk/core", "viem", "node:"],
  server: [
    "effect",
    "@effect/platform-node",
    "@swapdesk/core",
    "@swapdesk/http",
    "@swapdesk/simulator",
    "@swapdesk/channels",
    "@swapdesk/store",
    "@swapdesk/web",
    "@swapdesk/evm",
    "node:"
  ],
  web: ["effect", "node:", "preact", "@preact/signals", "lightweight-charts", "@swapdesk/http"]
}

const sourcesOf = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))

/** The package each import or export names (`effect/http` is `effect`, `node:fs` is `node:`). */
const importedPackages = (file: string): ReadonlyArray<string> =>
  [...readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*?from\s+"([^".][^"]*)"$/gm)].map(
    ([, specifier]) => {
      const name = specifier!
      if (name.startsWith("node:")) return "node:"
      const parts = name.split("/")
      return name.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!
    }
  )

const manifestOf = (name: string) =>
  JSON.parse(readFileSync(join(root, "packages", name, "package.json"), "utf8")) as {
    readonly dependencies?: Record<string, string>
    readonly peerDependencies?: Record<string, string>
  }

/** Every module `entry` reaches through relative imports and re-exports, itself included. */
const reachedFrom = (entry: string): ReadonlyArray<string> => {
  const reached = new Set<string>()
  const visit = (file: string) => {
    if (reached.has(file)) return
    reached.add(file)
    for (
      const [, specifier] of readFileSync(file, "utf8").matchAll(/^(?:import|export)\b[^;]*?from\s+"(\.[^"]*)"$/gm)
    ) {
      visit(join(dirname(file), specifier!))
    }
  }
  visit(entry)
  return [...reached]
}

describe("package boundaries", () => {
  it("knows every package", () => {
    expect(readdirSync(join(root, "packages")).sort()).toEqual(Object.keys(allowed).sort())
  })

  it("the web app imports only its browser libraries", () => {
    const imported = new Set(sourcesOf(join(root, "packages", "web", "src", "app")).flatMap(importedPackages))
    expect([...imported].sort()).toEqual(["@preact/signals", "lightweight-charts", "preact"])
  })

  it("http's main entry runs on any platform: it reaches no Node module, no Node global and not Effect's Node platform", () => {
    const http = join(root, "packages", "http")
    const reached = reachedFrom(join(http, "src", "index.ts"))
    expect(reached.length).toBeGreaterThan(20)
    const nodeOnly = reached.flatMap((file) => {
      const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "")
      const named = relative(http, file)
      return [
        ...importedPackages(file).filter((dependency) =>
          dependency === "node:" || dependency === "@effect/platform-node"
        )
          .map((dependency) => `${named} imports ${dependency}`),
        ...[...code.matchAll(/\b(Buffer|process|__dirname|__filename|require)\s*[.(]/g)].map(([, global]) =>
          `${named} uses ${global}`
        )
      ]
    })
    expect(nodeOnly).toEqual([])
  })

  it("http's Node entry is where its Node modules are", () => {
    const http = join(root, "packages", "http")
    const reached = new Set(reachedFrom(join(http, "src", "node", "index.ts")))
    const importingNode = sourcesOf(join(http, "src")).filter((file) => importedPackages(file).includes("node:"))
    expect(importingNode.length).toBeGreaterThan(0)
    expect(importingNode.filter((file) => !reached.has(file)).map((file) => relative(http, file))).toEqual([])
  })

  for (const [name, permitted] of Object.entries(allowed)) {
    const imported = new Set(sourcesOf(join(root, "packages", name, "src")).flatMap(importedPackages))

    it(`${name} imports only what it may depend on`, () => {
      expect([...imported].filter((dependency) => !permitted.includes(dependency))).toEqual([])
    })

    it(`${name} declares what it imports, and imports what it declares`, () => {
      const manifest = manifestOf(name)
      const declared = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {})
      ])
      expect([...imported].filter((dependency) => dependency !== "node:" && !declared.has(dependency))).toEqual([])
      expect([...declared].filter((dependency) => !imported.has(dependency))).toEqual([])
    })
  }
})
