/** The contracts whose compiled artifacts are committed, and where each one is written. */
export const artifacts: ReadonlyArray<{
  readonly source: string
  readonly contract: string
  readonly exportPrefix: string
  readonly output: string
}> = [
  {
    source: "contracts/SwapdeskRouter.sol",
    contract: "SwapdeskRouter",
    exportPrefix: "swapdeskRouter",
    output: "src/contracts/SwapdeskRouterArtifact.ts"
  },
  {
    source: "contracts/DemoToken.sol",
    contract: "DemoToken",
    exportPrefix: "demoToken",
    output: "src/contracts/DemoTokenArtifact.ts"
  },
  {
    source: "contracts/test/HostileToken.sol",
    contract: "HostileToken",
    exportPrefix: "hostileToken",
    output: "test/contracts/HostileTokenArtifact.ts"
  }
]
