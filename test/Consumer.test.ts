// Proves the packages work for a project outside the workspace, as a user installs them: the
// packages are built and packed with pnpm, the tarballs installed with npm (no workspace, no links)
// into a new project in the system's temporary folder, and the consumer programs in test/consumer
// (with examples/simulate.ts beside them) are type-checked there with plain strict TypeScript (NodeNext, no `.ts` imports) and run: the
// in-process simulator (on the pinned Node 24, and on the machine's Node 20 when it has one, the
// library's stated minimum), both HTTP compositions with the typed clients and `catchTag`, and the
// packed `swapdesk-server` binary driven by the typed client from each Node. The version
// `/v1/health` reports must be the packed manifest's.
import { assert, describe, it } from "@effect/vitest"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { withInterface } from "../packages/web/test/interfaceLock.ts"

const root = join(import.meta.dirname, "..")
const packages = ["core", "simulator", "http", "channels", "store", "web", "server"] as const
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  readonly packageManager: string
  readonly devDependencies: Record<string, string>
}
const version = (
  JSON.parse(readFileSync(join(root, "packages", "http", "package.json"), "utf8")) as { readonly version: string }
).version

/** The pinned Node running this test, and the machine's own when it is another major (Node 20 here). */
const node24 = process.execPath
const majorOf = (node: string) =>
  execFileSync(node, ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim()
const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find((path) =>
  existsSync(path) && majorOf(path) !== majorOf(process.execPath)
)
const nodes: ReadonlyArray<readonly [string, string]> = [
  [`Node ${majorOf(process.execPath)}`, process.execPath],
  ...(systemNode === undefined ? [] : [[`Node ${majorOf(systemNode)}`, systemNode] as const])
]

const work = mkdtempSync(join(tmpdir(), "swapdesk-consumer-"))
const tarballs = join(work, "tarballs")
const project = join(work, "project")

/** Runs a program to its end; a failure carries what it printed. */
const run = (file: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) => {
  try {
    return execFileSync(file, args, {
      cwd,
      encoding: "utf8",
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024
    })
  } catch (error) {
    const { stdout, stderr } = error as { readonly stdout?: string; readonly stderr?: string }
    throw new Error(`${file} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}${stderr ?? ""}`, { cause: error })
  }
}

/** npm and npx as the machine has them; their `#!/usr/bin/env node` finds the pinned Node first on a pnpm script's PATH. */
const npmCli = (name: "npm" | "npx") => {
  const bin = execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim()
  return (args: ReadonlyArray<string>, cwd: string) => run(bin, args, cwd)
}

/** The last line a consumer program printed, as JSON. */
const lastJson = (output: string): any => JSON.parse(output.trim().split("\n").at(-1)!)

/** Generous: a type check of effect's declarations takes 8 s alone, and more on a loaded machine. */
const TIMEOUT_MS = 300_000

let server: ChildProcess | undefined

beforeAll(async () => {
  mkdirSync(tarballs)
  mkdirSync(project)
  run(node24, [
    join(root, "node_modules", "typescript", "bin", "tsc"),
    "-b",
    ...packages.map((name) => join("packages", name, "tsconfig.build.json"))
  ], root)
  // pnpm, not npm, packs: it applies `publishConfig` and turns `workspace:^` into a version range.
  // The interface's prepack builds it again: not while another test file's server reads it.
  await withInterface("build", async () =>
    npmCli("npx")([
      "-y",
      rootManifest.packageManager,
      "--filter",
      "./packages/**",
      "pack",
      "--pack-destination",
      tarballs
    ], root))
  // swapdesk-http-0.1.0.tgz is @swapdesk/http; effect, the platform and Node's types at the workspace's versions.
  const tarballDependencies = readdirSync(tarballs).filter((file) => file.endsWith(".tgz")).map((file) =>
    [file.replace(/^swapdesk-(.*)-[0-9.]+\.tgz$/, "@swapdesk/$1"), `file:${join(tarballs, file)}`] as const
  )
  const registryDependencies = ["effect", "@effect/platform-node", "@types/node"].map((name) =>
    [name, rootManifest.devDependencies[name]!] as const
  )
  const dependencies = Object.fromEntries([...tarballDependencies, ...registryDependencies])
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "swapdesk-consumer", private: true, type: "module", dependencies }, null, 2)
  )
  for (const file of readdirSync(join(root, "test", "consumer"))) {
    cpSync(join(root, "test", "consumer", file), join(project, file))
  }
  // The in-process example runs as a consumer would have written it.
  cpSync(join(root, "examples", "simulate.ts"), join(project, "example-simulate.ts"))
  npmCli("npm")(["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], project)
}, 600_000)

afterAll(() => {
  server?.kill("SIGTERM")
  rmSync(work, { recursive: true, force: true })
})

describe("the packed packages, installed with npm outside the workspace", () => {
  it("are built JavaScript with declarations, published exports and plain version ranges", () => {
    for (const name of packages) {
      const installed = join(project, "node_modules", "@swapdesk", name)
      assert.isFalse(lstatSync(installed).isSymbolicLink(), `${name} is a copy, not a link`)
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))
      assert.deepStrictEqual(manifest.exports["."], { types: "./dist/index.d.ts", import: "./dist/index.js" })
      assert.isTrue(existsSync(join(installed, "dist", "index.js")))
      assert.isTrue(existsSync(join(installed, "dist", "index.d.ts.map")))
      assert.isTrue(existsSync(join(installed, "LICENSE")))
      assert.isTrue(existsSync(join(installed, "README.md")))
      assert.strictEqual(manifest.license, "MIT")
      assert.match(manifest.engines.node, /^>=\d+/)
      const ranges = Object.values({ ...manifest.dependencies, ...manifest.peerDependencies }) as Array<string>
      assert.isEmpty(ranges.filter((range) => range.startsWith("workspace:")))
      assert.strictEqual(manifest.peerDependencies.effect, "~4.1.0")
    }
    assert.strictEqual(
      JSON.parse(readFileSync(join(project, "node_modules", "@swapdesk", "server", "package.json"), "utf8")).bin[
        "swapdesk-server"
      ],
      "./dist/main.js"
    )
    // Subpath exports resolve as a consumer's tools ask for them.
    const resolved = run(node24, ["-p", "require.resolve(\"@swapdesk/simulator/scenario.schema.json\")"], project)
      .trim()
    assert.strictEqual(JSON.parse(readFileSync(resolved, "utf8")).title, "swapdesk scenario")
    assert.strictEqual(run(node24, ["-p", "require(\"@swapdesk/http/package.json\").version"], project).trim(), version)
  })

  it("type-check in a consumer's strict NodeNext project", () => {
    // Throws with tsc's diagnostics on stdout when a declaration or a consumer program is wrong.
    run(node24, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], project)
    assert.isTrue(existsSync(join(project, "out", "simulate.js")))
  }, TIMEOUT_MS)

  for (const [label, node] of nodes) {
    it(`run the in-process simulator on ${label}: a swap confirms as the clock advances`, () => {
      const result = lastJson(run(node, ["out/simulate.js"], project))
      assert.strictEqual(result.created, "pending")
      assert.strictEqual(result.confirmed.status, "confirmed")
      assert.strictEqual(result.confirmed.amountIn, "1.5")
      assert.isString(result.confirmed.txHash)
      assert.isAbove(result.events, 2)
    }, TIMEOUT_MS)
  }

  it("serve the contract both ways, matched by the typed clients' tags", () => {
    const result = lastJson(run(node24, ["out/server.js"], project))
    assert.strictEqual(result.standalone.version, version)
    assert.strictEqual(result.standalone.created, "pending")
    assert.strictEqual(result.standalone.confirmed.status, "confirmed")
    assert.match(result.standalone.missing, /^NotFound TRADE_NOT_FOUND: /)
    assert.isAbove(result.ownAdapters.price, 0)
    assert.strictEqual(result.ownAdapters.refused, "Unauthorized UNAUTHORIZED")
    assert.strictEqual(result.ownAdapters.simRoutes, 404)
    assert.strictEqual(result.ownAdapters.malformed, "HTTP/1.1 400 Bad Request VALIDATION_ERROR")
  }, TIMEOUT_MS)

  it("start the swapdesk-server binary, which the typed client drives from each Node", async () => {
    const scenario = join(work, "scenario.json")
    writeFileSync(
      scenario,
      JSON.stringify({
        seed: 5,
        clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
        networks: { solana: { failureRate: 0 } },
        accounts: [{
          id: "acct_cli",
          apiKeys: [{ name: "cli", key: `sd_test_${"Cli".padEnd(40, "0")}`, scopes: ["read", "trade", "alerts"] }],
          wallets: [{
            network: "solana",
            address: "CliSolanaWallet1111111111111111111111111111",
            delegatedSigning: true,
            balances: { SOL: "10" }
          }]
        }]
      })
    )
    const running = spawn(join(project, "node_modules", ".bin", "swapdesk-server"), [], {
      cwd: project,
      // The binary's `#!/usr/bin/env node` finds the pinned Node first.
      env: { ...process.env, PATH: `${dirname(node24)}:${process.env["PATH"]}`, PORT: "0", SCENARIO: scenario },
      stdio: ["ignore", "pipe", "pipe"]
    })
    server = running
    const exited = new Promise<number | null>((resolve) => running.on("exit", resolve))
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = ""
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /listening on (http:\/\/\S+)/.exec(output)
        if (match !== null) resolve(match[1]!)
      }
      running.stdout!.on("data", read)
      running.stderr!.on("data", read)
      void exited.then((code) => reject(new Error(`swapdesk-server exited ${code}:\n${output}`)))
    })
    for (const [, node] of nodes) {
      const result = lastJson(
        run(node, ["out/client.js"], project, {
          SWAPDESK_URL: baseUrl,
          SWAPDESK_KEY: `sd_test_${"Cli".padEnd(40, "0")}`
        })
      )
      assert.strictEqual(result.version, version)
      assert.isAbove(result.price, 0)
      assert.strictEqual(result.status, "confirmed")
      assert.strictEqual(result.missing, "ALERT_NOT_FOUND")
    }
    // The packed server serves the packed interface's built files at `/`.
    // On a connection closed after it: the server the SIGTERM stops waits for idle ones.
    const page = await fetch(`${baseUrl}/`, { headers: { connection: "close" } })
    assert.strictEqual(page.status, 200)
    assert.match(page.headers.get("content-type") ?? "", /^text\/html/)
    assert.include(await page.text(), "<script")
    running.kill("SIGTERM")
    assert.strictEqual(await exited, 0)
    server = undefined
  }, TIMEOUT_MS)
})
