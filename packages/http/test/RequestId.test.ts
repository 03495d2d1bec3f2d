// Proves how a request is named: a client's valid `X-Request-Id` is echoed as it came, and where
// there is none (or an invalid one) the id is new, UUID-shaped and never repeated, across many
// requests and across two processes (each draws its own prefix at start). Calls `requestIdFrom`
// directly, and a second Node process for the second prefix.
import { REQUEST_ID_MAX_LENGTH } from "@swapdesk/core"
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { requestIdFrom } from "../src/RequestId.ts"

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("requestIdFrom", () => {
  it("echoes a client's valid id", () => {
    expect(requestIdFrom("trace 42/b")).toBe("trace 42/b")
    const longest = "x".repeat(REQUEST_ID_MAX_LENGTH)
    expect(requestIdFrom(longest)).toBe(longest)
  })

  it("names a request without a valid id anew: UUID-shaped and distinct", () => {
    const invalid = [undefined, "", " padded", "x".repeat(REQUEST_ID_MAX_LENGTH + 1), "tab\there", "é"]
    const ids = Array.from({ length: 10_000 }, (_, i) => requestIdFrom(invalid[i % invalid.length]))
    for (const id of ids) expect(id).toMatch(UUID_SHAPE)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("names requests apart from another process's", () => {
    const here = requestIdFrom(undefined)
    const there = execFileSync(process.execPath, [
      "--input-type=module",
      "--eval",
      `import { requestIdFrom } from ${JSON.stringify(new URL("../src/RequestId.ts", import.meta.url).href)}
       console.log(requestIdFrom(undefined))`
    ]).toString().trim()
    expect(there).toMatch(UUID_SHAPE)
    expect(there.slice(0, 24)).not.toBe(here.slice(0, 24))
  })
})
