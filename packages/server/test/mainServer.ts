/**
 * The live server as operators run it: `main.ts` in a child process on an ephemeral port, its
 * environment given, ready once it logs where it listens (`startMainServer`).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))

/** A `main.ts` child listening: its process, base URL, everything it wrote, and its exit code to come. */
export interface MainServer {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly output: () => string
  readonly exited: Promise<number | null>
}

/** Starts `main.ts` with `env` added to this process's; fails with its output when it exits before listening. */
export const startMainServer = (env: Record<string, string>): Promise<MainServer> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "json", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)
      if (match !== null) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output, exited })
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    void exited.then((code) => reject(new Error(`server exited ${code} before listening:\n${output}`)))
  })
