// Proves the README tells the truth about what it documents: its demo keys are exactly the demo
// scenario's keys (and each opens the server with the scopes it claims), its quick start is two
// commands (the live demo beside it), CI runs the README's test
// command verbatim, and its tour runs as written: the tour's shell block is run by `sh` against a
// server on the demo scenario (its realtime clock sped up, so the wait for a confirmation is short),
// and every answer is a success, in the order the tour's comments promise: the swap confirmed
// before the confirmed list, the alert active before the price move and triggered after it (with
// its email in the outbox), the limit order open before its cancellation, the new API key listed,
// the webhook listed with its delivery log,
// the arbitrum swap waiting without a txHash before its approval, a second one failed WALLET_REJECTED by its
// owner's `POST /trades/{id}/approval`; the token list answers the catalogue, and the tour names the live-mode
// order signature route.
import { assert, layer } from "@effect/vitest"
import { demoScenario } from "@swapdesk/simulator"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { call, testServer } from "./harness.ts"

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8")
const readme = read("README.md")

const demoKeyScopes = new Map(
  (demoScenario.accounts ?? []).flatMap((account) => (account.apiKeys ?? []).map((k) => [k.key, k.scopes] as const))
)

/** The JSON values `curl -s` printed back to back, in order. */
const jsonValues = (text: string): Array<any> => {
  const values: Array<any> = []
  let depth = 0
  let start = 0
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (escaped) escaped = false
      else if (c === "\\") escaped = true
      else if (c === "\"") inString = false
    } else if (c === "\"") inString = true
    else if (c === "{" && depth++ === 0) start = i
    else if (c === "}" && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)))
  }
  return values
}

const runShell = (script: string) =>
  Effect.callback<{ readonly code: number | null; readonly output: string }>((resume) => {
    const child = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("close", (code) => resume(Effect.succeed({ code, output })))
  })

const fastDemo = { ...demoScenario, clock: { ...demoScenario.clock!, speed: 20 } }

layer(testServer(fastDemo), { excludeTestServices: true })("README tour", (it) => {
  it.effect("runs as written, each step answering what its comment says", () =>
    Effect.gen(function*() {
      const tour = /## A tour[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!
      assert.include(tour, "URL=http://127.0.0.1:3000/v1")
      const baseUrl = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
      const { code, output } = yield* runShell(tour.replace("http://127.0.0.1:3000", baseUrl))
      assert.strictEqual(code, 0, output)
      const answers = jsonValues(output)
      assert.deepStrictEqual(answers.filter((answer) => answer.success !== true), [], output)
      const trades = answers.filter((answer) =>
        typeof answer.data?.id === "string" && answer.data.id.startsWith("trd_")
      )
      const [swap, waiting, approved] = [trades[0]!.data, trades[1]!.data, trades[2]!.data]
      assert.notStrictEqual(swap.status, "pending")
      const confirmedList = answers.find((answer) => Array.isArray(answer.data?.trades))!.data.trades
      if (swap.status === "confirmed") assert.include(confirmedList.map((t: { id: string }) => t.id), swap.id)
      const alerts = answers.filter((answer) => answer.data?.id?.startsWith("alrt_")).map((answer) =>
        answer.data.status
      )
      assert.deepStrictEqual(alerts, ["active", "triggered", "disabled"])
      const activeList = answers.find((answer) => Array.isArray(answer.data?.alerts))!.data.alerts
      assert.deepStrictEqual(activeList.map((a: { status: string }) => a.status), ["active"])
      const outbox = answers.find((answer) => Array.isArray(answer.data?.notifications))!.data.notifications
      assert.strictEqual(outbox.at(-1).channel, "email")
      const orders = answers.filter((answer) => answer.data?.id?.startsWith("ord_")).map((answer) => answer.data.status)
      assert.deepStrictEqual(orders, ["pending", "cancelled"])
      assert.isTrue(answers.some((answer) => Array.isArray(answer.data?.holdings)))
      const keyList = answers.find((answer) => Array.isArray(answer.data?.keys))!.data.keys
      assert.include(keyList.map((key: { name: string }) => key.name), "trading bot")
      const hooks = answers.find((answer) => Array.isArray(answer.data?.webhooks))!.data.webhooks
      assert.deepStrictEqual(hooks.map((hook: { url: string }) => hook.url), ["http://127.0.0.1:9/swapdesk"])
      assert.isTrue(answers.some((answer) => Array.isArray(answer.data?.deliveries)))
      assert.strictEqual(waiting.network, "arbitrum")
      assert.strictEqual(waiting.status, "pending")
      assert.isUndefined(waiting.txHash)
      assert.strictEqual(approved.id, waiting.id)
      assert.isString(approved.txHash)
      const rejected = trades[3]!.data
      assert.strictEqual(rejected.network, "arbitrum")
      assert.notStrictEqual(rejected.id, waiting.id)
      assert.strictEqual(rejected.status, "failed")
      assert.strictEqual(rejected.failureReason, "WALLET_REJECTED")
      const tokens = answers.find((answer) => Array.isArray(answer.data) && answer.data[0]?.symbol !== undefined)!.data
      assert.includeMembers(tokens.map((token: { symbol: string }) => token.symbol), ["SOL", "USDC"])
      assert.include(tour, "$URL/orders/$ORDER/signature")
    }), 120_000)
})

layer(testServer(demoScenario), { excludeTestServices: true })("README", (it) => {
  it.effect("lists exactly the demo scenario's keys, and each authenticates", () =>
    Effect.gen(function*() {
      const documented = [...new Set(readme.match(/sd_test_[0-9A-Za-z]{40}/g) ?? [])]
      assert.sameMembers(documented, [...demoKeyScopes.keys()])
      for (const key of documented) {
        const reply = yield* call("GET", "/v1/trades?limit=1", { key })
        assert.strictEqual(reply.status, demoKeyScopes.get(key)!.includes("read") ? 200 : 403, key)
      }
    }))

  it.effect("its quick start is two commands, start and the test command CI runs; the live demo is one more", () =>
    Effect.sync(() => {
      const start = readme.indexOf("## Quick start")
      const quickStart = readme.slice(start, readme.indexOf("\n## ", start + 1))
      const commands = [...quickStart.matchAll(/```sh\n(npx -y pnpm@[^\n]+)\n```/g)].map((m) => m[1]!)
      assert.lengthOf(commands, 2)
      assert.include(readme, "```sh\nnpx -y pnpm@12.21.0 live:devnet\n```")
      assert.include(read(".ci/run"), commands[1]!)
      assert.include(commands[0]!, "start")
    }))
})
