// Proves the header's server badge from `GET /v1/health` bodies as the servers answer them: the
// simulator is labelled as such with no networks, a live server lists its networks in name order
// with a down node marked, and a network not indexed yet is described without a lag.
import { describe, expect, it } from "vitest"
import type { Health } from "../src/app/api/Types.ts"
import { backendLabel, networkBadges } from "../src/app/Backend.ts"

const base = { status: "ok", version: "0.0.0", time: "2026-11-28T00:00:00.000Z" }

describe("backend badge", () => {
  it("labels the simulator, with no networks", () => {
    const health: Health = { ...base, backend: "simulator" }
    expect(backendLabel(health)).toBe("Simulator")
    expect(networkBadges(health)).toEqual([])
    expect(backendLabel(null)).toBeNull()
  })

  it("labels live mode and marks a network whose node is down", () => {
    const health: Health = {
      ...base,
      backend: "live",
      networks: {
        ethereum: { chainId: 31337, rpc: "up", headBlock: 120, indexedBlock: 118, lagBlocks: 2 },
        base: { chainId: 31338, rpc: "down", headBlock: null, indexedBlock: null, lagBlocks: null },
        arbitrum: { chainId: 31339, rpc: "up", headBlock: 7, indexedBlock: null, lagBlocks: null }
      }
    }
    expect(backendLabel(health)).toBe("Live")
    const badges = networkBadges(health)
    expect(badges.map((badge) => [badge.network, badge.up])).toEqual([
      ["arbitrum", true],
      ["base", false],
      ["ethereum", true]
    ])
    expect(badges[0]!.title).toBe("arbitrum (chain 31339): node up, head block 7")
    expect(badges[1]!.title).toContain("node down")
    expect(badges[2]!.title).toBe("ethereum (chain 31337): node up, head block 120, indexing 2 blocks behind")
  })
})
