#!/usr/bin/env node
/**
 * `pnpm live:devnet`: the one-command live demo (docs/live.md#the-devnet). Starts the devnet
 * (`LiveDevnet.ts`), runs `live:deploy` on its file, then the live server on it (`main.ts` with
 * `LIVE_CONFIG`, a SQLite file beside it, `PORT`/`HOST` as for `pnpm start`), and prints the demo
 * account's keys. One Ctrl-C (SIGINT) or SIGTERM stops the server, then every node, and exits.
 */
import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { runLiveDeploy, startLiveDevnet } from "./LiveDevnet.ts"

const serverMain = fileURLToPath(new URL("../main.ts", import.meta.url))
const directory = mkdtempSync(join(tmpdir(), "swapdesk-devnet-"))

let stopping = false
const stopHandlers: Array<() => Promise<void>> = []
const stop = async (code: number) => {
  if (stopping) return
  stopping = true
  for (const handler of stopHandlers.toReversed()) await handler().catch(() => undefined)
  process.exit(code)
}
// The terminal sends Ctrl-C to the whole group (the server included); each part is stopped once.
process.on("SIGINT", () => void stop(0))
process.on("SIGTERM", () => void stop(0))

console.log(`live:devnet: starting anvil for ethereum (1), base (8453) and arbitrum (42161) in ${directory}`)
try {
  const devnet = await startLiveDevnet({ directory })
  stopHandlers.push(devnet.stop)
  for (const [name, { anvil }] of Object.entries(devnet.nodes)) console.log(`live:devnet: ${name} at ${anvil.rpcUrl}`)
  await runLiveDeploy(devnet)
  const server = spawn(process.execPath, [serverMain], {
    env: {
      ...process.env,
      ...devnet.env,
      LIVE_CONFIG: devnet.configPath,
      DATABASE_URL: devnet.databaseUrl,
      PORT: process.env["PORT"] ?? "3000"
    },
    stdio: ["ignore", "inherit", "inherit"]
  })
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()))
  stopHandlers.push(async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill("SIGINT")
    await exited
  })
  server.once("exit", (code) => void stop(code ?? 0))
  console.log(
    [
      `live:devnet: live file ${devnet.configPath}, database ${devnet.databaseUrl}`,
      `live:devnet: account ${devnet.account.id}, delegated wallet ${devnet.wallet} on every network`,
      `live:devnet: API key (all scopes): ${devnet.account.keys.all}`,
      `live:devnet: API key (read only):  ${devnet.account.keys.read}`,
      "live:devnet: Ctrl-C stops the server and the nodes"
    ].join("\n")
  )
} catch (error) {
  console.error(`live:devnet: ${error instanceof Error ? error.message : String(error)}`)
  await stop(1)
}
