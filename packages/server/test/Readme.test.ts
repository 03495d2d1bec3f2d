// Proves the README tells the truth about what it documents: its demo keys are exactly the demo
// scenario's keys (and each opens the server with the scopes it claims), and CI runs the README's
// test command verbatim.
import { assert, layer } from "@effect/vitest"
import { demoScenario } from "@swapdesk/simulator"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { call, testServer } from "./harness.ts"

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), "utf8")
const readme = read("README.md")

const demoKeyScopes = new Map(
  (demoScenario.accounts ?? []).flatMap((account) => (account.apiKeys ?? []).map((k) => [k.key, k.scopes] as const))
)

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

  it.effect("its test command is the one CI runs", () =>
    Effect.sync(() => {
      const commands = [...readme.matchAll(/```sh\n(npx -y pnpm@[^\n]+)\n```/g)].map((m) => m[1]!)
      assert.lengthOf(commands, 2)
      assert.include(read(".ci/run"), commands[1]!)
      assert.include(commands[0]!, "start")
    }))
})
