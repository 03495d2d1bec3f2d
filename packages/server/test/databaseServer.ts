// Spawns the standalone server on a DATABASE_URL for the database tests, stops or kills it, and checks
// the one-owner rules.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect } from "vitest"
import { keys, testScenario } from "./harness.ts"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))
export const workDir = mkdtempSync(join(tmpdir(), "swapdesk-database-"))
const scenarioPath = join(workDir, "scenario.json")
writeFileSync(scenarioPath, JSON.stringify(testScenario))
/** The test scenario with another seed: another world. */
export const otherScenarioPath = join(workDir, "other-scenario.json")
writeFileSync(otherScenarioPath, JSON.stringify({ ...testScenario, seed: 99 }))
// A test that fails half-way leaves no server behind.
const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  rmSync(workDir, { recursive: true, force: true })
})

export interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly exited: Promise<number | null>
}

const spawnServer = (databaseUrl: string, env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [mainPath], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: scenarioPath, DATABASE_URL: databaseUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.add(child)
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
  return { child, exited, output: () => output }
}

/** A server on `databaseUrl` (and `env`), once it says it listens. */
export const start = (databaseUrl: string, env?: Record<string, string>): Promise<Running> => {
  const spawned = spawnServer(databaseUrl, env)
  return new Promise((resolve, reject) => {
    spawned.child.stdout.on("data", () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(spawned.output())
      if (match !== null) resolve({ child: spawned.child, baseUrl: match[1]!, exited: spawned.exited })
    })
    void spawned.exited.then((code) =>
      reject(new Error(`server exited ${code} before listening:\n${spawned.output()}`))
    )
  })
}

export const refused = async (databaseUrl: string, env?: Record<string, string>) => {
  const spawned = spawnServer(databaseUrl, env)
  const code = await spawned.exited
  return { code, output: spawned.output() }
}

const createAlert = async (running: Running) => {
  const response = await fetch(`${running.baseUrl}/v1/alerts`, {
    method: "POST",
    // No keep-alive: each test's server is stopped right after, and a pooled socket must not outlive it.
    headers: { "content-type": "application/json", authorization: `Bearer ${keys.aliceAll}`, connection: "close" },
    body: JSON.stringify({ type: "price", token: "SOL", condition: "below", targetPrice: 1, channel: "email" })
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { readonly data: { readonly id: string } }).data.id
}

/** Stops the server as an operator does (SIGTERM): it exits 0. */
export const stop = async (running: Running) => {
  running.child.kill("SIGTERM")
  expect(await running.exited).toBe(0)
}

/** Kills the server with SIGKILL (`kill -9`): nothing of it runs after this returns. */
export const crash = async (running: Running) => {
  running.child.kill("SIGKILL")
  await running.exited
}

/**
 * The one-owner rules, on a database whose alert ids `alertIds` reads: an alert created over HTTP is
 * stored, a second server is refused while the first runs, and a start on its records after it
 * restores them.
 */
export const ownership = async (databaseUrl: string, alertIds: () => Promise<ReadonlyArray<string>>) => {
  const first = await start(databaseUrl)
  try {
    const id = await createAlert(first)
    expect(await alertIds()).toContain(id)
    const second = await refused(databaseUrl)
    expect(second.code).toBe(1)
    expect(second.output).toMatch(/another swapdesk simulator server is using it/)
    expect(second.output).not.toMatch(/listening/)
  } finally {
    await stop(first)
  }
  const later = await start(databaseUrl)
  try {
    const response = await fetch(`${later.baseUrl}/v1/alerts`, {
      headers: { authorization: `Bearer ${keys.aliceAll}`, connection: "close" }
    })
    const body = (await response.json()) as { readonly data: { readonly alerts: ReadonlyArray<{ id: string }> } }
    expect(body.data.alerts.map((alert) => alert.id)).toEqual(await alertIds())
  } finally {
    await stop(later)
  }
}
