// Proves the header's server badge from `GET /v1/health` bodies as the servers answer them: the
// simulator is labelled as such with no networks, a live server lists its networks in name order
// with a down node marked, a network not indexed yet is described without a lag, and a network
// whose index lags says by how many blocks beside its name.
import { describe, expect, it } from "vitest"
import type { Health } from "../src/app/api/Types.ts"
import { backendLabel, networkBadges } from "../src/app/Backend.ts"

const base = { status: "ok", version: "0.0.0", time: "2026-11-28T00:00:00.000Z" }

/** A network whose node answers, as the server reports it: lagging more than 50 blocks behind. */
const network = (headBlock: number, indexedBlock: number) => ({
  chainId: 1,
  rpc: "up" as const,
  headBlock,
  indexedBlock,
  lagBlocks: headBlock - indexedBlock,
  lagging: headBlock - indexedBlock > 50
})

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
        ethereum: { chainId: 31337, rpc: "up", headBlock: 120, indexedBlock: 118, lagBlocks: 2, lagging: false },
        base: { chainId: 31338, rpc: "down", headBlock: null, indexedBlock: null, lagBlocks: null, lagging: true },
        arbitrum: { chainId: 31339, rpc: "up", headBlock: 7, indexedBlock: null, lagBlocks: null, lagging: true }
      }
    }
    expect(backendLabel(health)).toBe("Live")
    const badges = networkBadges(health)
    expect(badges.map((badge) => [badge.network, badge.up])).toEqual([
      ["arbitrum", true],
      ["base", false],
      ["ethereum", true]
    ])
    expect(badges.map((badge) => badge.status)).toEqual(["indexing", "down", null])
    expect(badges[0]!.title).toBe("arbitrum (chain 31339): node up, head block 7")
    expect(badges[1]!.title).toContain("node down")
    expect(badges[2]!.title).toBe("ethereum (chain 31337): node up, head block 120, indexing 2 blocks behind")
  })

  it("says how far behind a lagging index is, beside the network's name", () => {
    const health: Health = {
      ...base,
      backend: "live",
      networks: { ethereum: network(1_061, 1_000), base: network(1_050, 1_000) }
    }
    const [onBase, onEthereum] = networkBadges(health)
    expect(onEthereum!.status).toBe("indexing, 61 blocks behind")
    expect(onEthereum!.up).toBe(true)
    // 50 blocks is within the limit: nothing beside the name, the lag still in the title.
    expect(onBase!.status).toBeNull()
    expect(onBase!.title).toContain("indexing 50 blocks behind")
  })
})
