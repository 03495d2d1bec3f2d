// Proves the committed contract artifacts are what the committed Solidity sources compile to: each
// source is compiled again with solc from npm (the pinned version, the fixed settings) and its
// creation code compared with the artifact byte for byte, its ABI signature by signature (the
// artifact keeps the ABI in viem's human-readable form, which `parseAbi` types). A contract edited without
// regenerating its artifact (`pnpm --filter @swapdesk/evm compile:contracts`) fails here.
import { type Abi, formatAbi } from "abitype"
import { describe, expect, it } from "vitest"
import { artifacts } from "../scripts/Artifacts.ts"
import { compilerVersion, compileSolidity } from "../scripts/Solidity.ts"
import { demoTokenAbi, demoTokenBytecode } from "../src/contracts/DemoTokenArtifact.ts"
import { swapdeskRouterAbi, swapdeskRouterBytecode } from "../src/contracts/SwapdeskRouterArtifact.ts"
import { hostileTokenAbi, hostileTokenBytecode } from "./contracts/HostileTokenArtifact.ts"

const committed: Record<string, { readonly abi: Abi; readonly bytecode: string }> = {
  SwapdeskRouter: { abi: swapdeskRouterAbi, bytecode: swapdeskRouterBytecode },
  DemoToken: { abi: demoTokenAbi, bytecode: demoTokenBytecode },
  HostileToken: { abi: hostileTokenAbi, bytecode: hostileTokenBytecode }
}

describe("contract artifacts", () => {
  it("are built by the pinned compiler", () => {
    expect(compilerVersion()).toMatch(/^0\.8\.37\+commit\.f401782d/)
  })

  it("match their sources byte for byte", () => {
    const compiled = compileSolidity(artifacts.map((artifact) => artifact.source))
    expect(Object.keys(committed).sort()).toEqual(artifacts.map((artifact) => artifact.contract).sort())
    for (const artifact of artifacts) {
      const fresh = compiled[artifact.contract]
      expect(fresh, artifact.contract).toBeDefined()
      expect(committed[artifact.contract]!.bytecode, artifact.contract).toBe(fresh!.bytecode)
      expect(formatAbi(committed[artifact.contract]!.abi), artifact.contract).toEqual(formatAbi(fresh!.abi))
    }
  })
})
