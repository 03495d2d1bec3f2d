// Proves `live:devnet` as a developer runs it (its main module in a child process, as the root
// script runs it after building the interface): it prints the three nodes, the demo account's
// `sd_live_` keys and the live server's address, the server answers live health with every network
// up and takes the printed key; then one SIGINT stops the server and every node (their RPCs no
// longer answer) and the command exits 0.
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "vitest"
import { waitUntil } from "./waitUntil.ts"

const devnetMain = fileURLToPath(new URL("../src/devnet/main.ts", import.meta.url))

const answers = async (url: string): Promise<boolean> => {
  try {
    await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(2_000)
    })
    return true
  } catch {
    return false
  }
}

describe("live:devnet", () => {
  it("starts the nodes and the live server, and one SIGINT stops them all", async () => {
    const child = spawn(process.execPath, [devnetMain], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    try {
      await waitUntil("the server's address", () => /listening on http:\/\/[^\s]+:[0-9]+/.test(output), {
        withinMs: 150_000,
        everyMs: 200
      })
      const baseUrl = `http://127.0.0.1:${/listening on http:\/\/[^\s]+:([0-9]+)/.exec(output)![1]}`
      const nodes = [...output.matchAll(/live:devnet: (ethereum|base|arbitrum) at (http:\/\/\S+)/g)].map((m) => m[2]!)
      assert.strictEqual(nodes.length, 3, output)
      const key = /API key \(all scopes\): (sd_live_[0-9A-Za-z]{40})/.exec(output)?.[1]
      assert.isDefined(key, output)
      // Each request on a connection closed after it: the server the SIGINT stops waits for idle ones.
      const health = await (await fetch(`${baseUrl}/v1/health`, { headers: { connection: "close" } })).json() as any
      assert.strictEqual(health.data.backend, "live")
      assert.deepStrictEqual(
        Object.values(health.data.networks).map((n: any) => n.rpc),
        ["up", "up", "up"]
      )
      assert.strictEqual(
        (await fetch(`${baseUrl}/v1/portfolio`, { headers: { authorization: `Bearer ${key}`, connection: "close" } }))
          .status,
        200
      )
      child.kill("SIGINT")
      assert.strictEqual(await exited, 0, output)
      for (const node of nodes) assert.isFalse(await answers(node), `${node} still answers`)
      assert.isFalse(await answers(`${baseUrl}/v1/health`), "the server still answers")
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  }, 200_000)
})
