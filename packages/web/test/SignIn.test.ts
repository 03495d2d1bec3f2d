// Proves the sign-in screen offers exactly the demo scenario's keys (the README's), read from the
// interface's sources as the browser receives them, so that a change to the demo scenario cannot
// leave the interface offering keys that open nothing.
import { demoScenario } from "@swapdesk/simulator"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

describe("the sign-in screen's demo keys", () => {
  it("are the demo scenario's keys", () => {
    const source = readFileSync(new URL("../src/app/Session.ts", import.meta.url), "utf8")
    const offered = [...new Set(source.match(/sd_test_[0-9A-Za-z]{40}/g) ?? [])].sort()
    const scenario = (demoScenario.accounts ?? []).flatMap((account) => (account.apiKeys ?? []).map((key) => key.key))
    expect(offered).toEqual([...scenario].sort())
  })
})
