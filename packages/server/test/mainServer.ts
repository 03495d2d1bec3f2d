/**
 * The live server as operators run it: `main.ts` in a child process on an ephemeral port, its
 * environment given, ready once it logs where it listens (`startMainServer`, or
 * `startServerProcess` for another command or directory), stopped by a signal
 * (`stopMainServer`); on the devnet, with the environment the devnet writes (`devnetServerEnv`) and
 * a network reached through a relay of the test (`routeNetworkThrough`); and a client of its API
 * (`mainServerCall`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { LiveDevnet } from "../src/devnet/LiveDevnet.ts"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))

/** A `main.ts` child listening: its process, base URL, everything it wrote, and its exit code to come. */
export interface MainServer {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** How to run a server process other than by `node main.ts` in this process's directory. */
export interface ServerProcessOptions {
  /** The command and its arguments, run instead of `node main.ts`. */
  readonly command?: ReadonlyArray<string> | undefined
  /** The directory it runs in. */
  readonly cwd?: string | undefined
}

/**
 * Starts a server process (by default `node main.ts`) with `env` added to this process's, on a port the
 * system picks (read back from its listening line); fails with its output when it exits before listening.
 */
export const startServerProcess = (
  env: Record<string, string>,
  options: ServerProcessOptions = {}
): Promise<MainServer> =>
  new Promise((resolve, reject) => {
    const child = spawn(options.command?.[0] ?? process.execPath, options.command?.slice(1) ?? [mainPath], {
      cwd: options.cwd,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)
      // Reached on loopback whatever HOST is: the tests call from this machine only.
      if (match !== null) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output, exited })
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    void exited.then((code) => reject(new Error(`server exited ${code} before listening:\n${output}`)))
  })

/** Starts `main.ts` with `env` added to this process's, logging JSON unless `env` says otherwise. */
export const startMainServer = (env: Record<string, string>): Promise<MainServer> =>
  startServerProcess({ LOG_FORMAT: "json", ...env })

/** Sends `signal` to a server still running, and waits for it to exit. */
export const stopMainServer = async (server: MainServer | undefined, signal: "SIGTERM" | "SIGKILL") => {
  if (server === undefined || server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill(signal)
  await server.exited
}

/** The environment `main.ts` runs on the devnet with: its keys, its live configuration and its database. */
export const devnetServerEnv = (devnet: LiveDevnet): Record<string, string> => ({
  ...devnet.env,
  LIVE_CONFIG: devnet.configPath,
  DATABASE_URL: devnet.databaseUrl
})

/** Rewrites the devnet's live configuration so that `network` is reached at `rpcUrl` (a relay in front of its node). */
export const routeNetworkThrough = (devnet: LiveDevnet, network: string, rpcUrl: string) => {
  const file = JSON.parse(readFileSync(devnet.configPath, "utf8"))
  file.networks[network].rpcUrl = rpcUrl
  writeFileSync(devnet.configPath, JSON.stringify(file, null, 2))
}

/**
 * A call to the API of `server()`, with a bearer `key` when given: its status, headers and parsed
 * JSON body; `received` sees every body as text. Each call's connection closes after the answer: a
 * server stopped by a signal waits for its idle connections to close, which a client keeping one
 * alive does only after seconds.
 */
export const mainServerCall = (server: () => MainServer, received: (body: string) => void = () => {}) =>
async (
  method: string,
  path: string,
  options: { readonly key?: string; readonly body?: unknown } = {}
): Promise<
  { readonly status: number; readonly headers: { readonly get: (name: string) => string | null }; readonly json: any }
> => {
  const response = await fetch(server().baseUrl + path, {
    method,
    headers: {
      connection: "close",
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` })
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  received(text)
  return { status: response.status, headers: response.headers, json: JSON.parse(text) as any }
}
