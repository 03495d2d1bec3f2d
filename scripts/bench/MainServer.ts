/**
 * The standalone server (`packages/server/src/main.ts`, as an operator starts it) in a child process
 * of its own, for the benchmarks that measure it from outside: started on an ephemeral loopback port
 * and known to be ready once it logs the address it listens on.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const mainPath = fileURLToPath(new URL("../../packages/server/src/main.ts", import.meta.url))

export interface MainServer {
  readonly child: ChildProcess
  /** The address the server logged, e.g. `http://127.0.0.1:41234`. */
  readonly baseUrl: string
  /** Settles when the process has exited. */
  readonly exited: Promise<void>
  /** From the spawn to the listening line, in milliseconds. */
  readonly startMs: number
}

/**
 * Spawns the server with `env` over this process's environment (port 0 on 127.0.0.1) and resolves
 * once it listens; rejects with everything it printed if it exits first.
 */
export const startMainServer = (env: Record<string, string>): Promise<MainServer> => {
  const started = performance.now()
  const child = spawn(process.execPath, [mainPath], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const exited = new Promise<void>((done) => child.on("exit", () => done()))
  let output = ""
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (match !== null) resolve({ child, baseUrl: match[1]!, exited, startMs: performance.now() - started })
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)))
  })
}
