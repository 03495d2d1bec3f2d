/**
 * A local EVM node for tests and the demo: anvil, run by path from its npm platform package (its
 * install script, which would only download the same binary again, is not needed), on a port the
 * system picks, with the chain id and mining mode asked for. The process is killed when `stop` is
 * called or, failing that, when this process exits.
 */
import { Data, Effect, type Scope } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { createPublicClient, http } from "viem"

/** How the node mines: a block per transaction, or a block every `blockTimeSeconds`. */
export type AnvilMining = { readonly _tag: "auto" } | { readonly _tag: "interval"; readonly blockTimeSeconds: number }

/** What to start. */
export interface AnvilOptions {
  /** The chain id the node reports (1, 8453 and 42161 stand for the three networks). */
  readonly chainId: number
  /** Automine when absent. */
  readonly mining?: AnvilMining
  /** How many funded dev accounts (from the well-known test mnemonic); 10 when absent. */
  readonly accounts?: number
  /** How long to wait for the node to answer; 15 s when absent. */
  readonly startTimeoutMs?: number
}

/** A running node. */
export interface Anvil {
  readonly rpcUrl: string
  readonly port: number
  readonly chainId: number
  /** Stops the node and waits for its process to end. */
  readonly stop: () => Promise<void>
}

const platformPackages: Readonly<Record<string, string>> = {
  "linux-x64": "@foundry-rs/anvil-linux-amd64",
  "linux-arm64": "@foundry-rs/anvil-linux-arm64",
  "darwin-x64": "@foundry-rs/anvil-darwin-amd64",
  "darwin-arm64": "@foundry-rs/anvil-darwin-arm64",
  "win32-x64": "@foundry-rs/anvil-win32-amd64"
}

/**
 * The path of the anvil binary: `ANVIL_BINARY` when set, else the one in `@foundry-rs/anvil`'s
 * platform package for this machine (an optional dependency the package manager installs).
 */
export const anvilBinaryPath = (): string => {
  const configured = process.env["ANVIL_BINARY"]
  if (configured !== undefined && configured !== "") return configured
  const platformPackage = platformPackages[`${process.platform}-${process.arch}`]
  if (platformPackage === undefined) throw new Error(`anvil is not published for ${process.platform}-${process.arch}`)
  const anvilManifest = createRequire(import.meta.url).resolve("@foundry-rs/anvil/package.json")
  const manifest = createRequire(anvilManifest).resolve(`${platformPackage}/package.json`)
  return join(dirname(manifest), "bin", process.platform === "win32" ? "anvil.exe" : "anvil")
}

const listening = /Listening on ([\d.]+):(\d+)/

/** Starts a node and resolves once it answers `eth_chainId` with the chain id asked for. */
export const startAnvil = async (options: AnvilOptions): Promise<Anvil> => {
  const mining = options.mining ?? { _tag: "auto" }
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--chain-id",
    String(options.chainId),
    "--accounts",
    String(options.accounts ?? 10),
    ...(mining._tag === "interval" ? ["--block-time", String(mining.blockTimeSeconds)] : [])
  ]
  const child = spawn(anvilBinaryPath(), args, { stdio: ["ignore", "pipe", "pipe"] })
  const killOnExit = () => child.kill("SIGKILL")
  process.once("exit", killOnExit)
  // A binary that cannot be spawned emits `error` and never `exit`.
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve())
    child.once("error", () => resolve())
  })
  const stop = async () => {
    process.removeListener("exit", killOnExit)
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }
  try {
    const port = await listeningPort(child, options.startTimeoutMs ?? 15_000)
    const rpcUrl = `http://127.0.0.1:${port}`
    const reported = await createPublicClient({ transport: http(rpcUrl, { retryCount: 20, retryDelay: 50 }) })
      .getChainId()
    if (reported !== options.chainId) throw new Error(`anvil reports chain id ${reported}, not ${options.chainId}`)
    return { rpcUrl, port, chainId: options.chainId, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A node did not start: the binary is missing, exited, or never answered. */
export class AnvilStartFailed extends Data.TaggedError("AnvilStartFailed")<{ readonly message: string }> {}

/** A node for the life of the enclosing scope: started when acquired, stopped when the scope closes. */
export const anvilScoped = (options: AnvilOptions): Effect.Effect<Anvil, AnvilStartFailed, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => startAnvil(options),
      catch: (cause) => new AnvilStartFailed({ message: cause instanceof Error ? cause.message : String(cause) })
    }),
    (anvil) => Effect.promise(() => anvil.stop())
  )

/** Reads the port anvil bound from its banner, or fails with what it printed. */
const listeningPort = (child: ChildProcess, timeoutMs: number): Promise<number> =>
  new Promise((resolve, reject) => {
    let output = ""
    const timer = setTimeout(() => fail(`anvil did not start within ${timeoutMs} ms`), timeoutMs)
    const fail = (reason: string) => {
      clearTimeout(timer)
      reject(new Error(`${reason}\n${output.slice(-2000)}`))
    }
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8")
      const match = listening.exec(output)
      if (match !== null) {
        clearTimeout(timer)
        // Keep draining the pipes so a chatty node never blocks on a full buffer.
        child.stdout?.removeListener("data", onData)
        child.stdout?.resume()
        resolve(Number(match[2]))
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
    })
    child.once("error", (error) => fail(`anvil could not be started: ${error.message}`))
    child.once("exit", (code, signal) => fail(`anvil exited (${signal ?? code}) before listening`))
  })
