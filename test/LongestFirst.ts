/**
 * Vitest's file order with the longest test files first, so that the workers finish together rather
 * than one of them running a long file alone at the end. Vitest orders by the durations of the last
 * run it remembers, and by file size without them (a fresh clone, CI): then the files below, the
 * longest in the closing print of `pnpm test` (docs/testing.md), go first, in this order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** The longest files, longest first (paths from the repository's root). */
export const LONGEST: ReadonlyArray<string> = [
  "packages/server/test/Restore.test.ts",
  "packages/server/test/Process.test.ts",
  "packages/server/test/LiveFailures.test.ts",
  "test/Consumer.test.ts",
  "packages/web/test/Interface.browser.test.ts",
  "packages/server/test/Fuzz.test.ts",
  "packages/server/test/LiveExternalOrders.test.ts",
  "packages/web/test/Swap.browser.test.ts",
  "packages/server/test/LiveApprovals.test.ts",
  "packages/server/test/LiveStart.test.ts",
  "packages/server/test/CrashRestart.test.ts",
  "packages/web/test/AccountScreens.browser.test.ts",
  "packages/server/test/LiveDevnet.test.ts",
  "packages/server/test/LiveMarket.test.ts",
  "packages/web/test/LiveDevnet.browser.test.ts",
  "packages/server/test/History.test.ts",
  "packages/server/test/LiveFailuresMidSend.test.ts",
  "packages/simulator/test/market/Snapshot.test.ts",
  "packages/server/test/LiveDevnetCommand.test.ts",
  "packages/simulator/test/market/HistoryReplay.test.ts",
  "packages/web/test/LiveWallet.browser.test.ts",
  "packages/simulator/test/SimulationSnapshot.test.ts",
  "packages/store/test/RepositoryConformance.test.ts",
  "packages/server/test/LiveOrders.test.ts",
  "test/Soak.test.ts",
  "packages/simulator/test/ScenarioBounds.test.ts",
  "packages/evm/test/indexer/ChainIndex.test.ts",
  "packages/simulator/test/SimulatorDeterminism.test.ts",
  "packages/evm/test/ContractArtifacts.test.ts",
  "packages/server/test/Concurrency.test.ts",
  "packages/simulator/test/SimulatorConservation.test.ts",
  "packages/evm/test/LiveDeploy.test.ts",
  "packages/server/test/CutShortClaims.test.ts",
  "packages/server/test/Database.test.ts",
  "packages/simulator/test/SimulatorRefunds.test.ts",
  "packages/server/test/AccountProperties.test.ts"
]

const rank = (spec: TestSpecification) => {
  const at = LONGEST.findIndex((path) => spec.moduleId.endsWith(`/${path}`))
  return at === -1 ? LONGEST.length : at
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    // Vitest's order already puts what it remembers first; only files it has no duration for move.
    const remembered = (spec: TestSpecification) => this.ctx.cache.getTestSpecificationResult(spec) !== undefined
    if (sorted.every(remembered)) return sorted
    // Stable: within a project (vitest keeps each project's files together), by rank, else as before.
    const position = new Map(sorted.map((spec, i) => [spec, i]))
    return [...sorted].sort((a, b) =>
      a.project.name !== b.project.name
        ? position.get(a)! - position.get(b)!
        : rank(a) - rank(b) || position.get(a)! - position.get(b)!
    )
  }
}
