/**
 * A Vitest reporter that closes the run with the slowest test files, so that the test command shows
 * where its time goes (docs/testing.md). For each it prints the time from the worker taking the file
 * to its last test or hook finishing (setup, import and tests), and of that the import; the files run
 * side by side, so the times add up to more than the run took. It also says once, at the end, how
 * many PostgreSQL tests were skipped for want of a database, and how to give them one.
 */
import type { Reporter, TestModule } from "vitest/node"

/** How many files it lists. */
const SHOWN = 12

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export default class SlowestFiles implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const timed = testModules.map((module) => {
      const d = module.diagnostic()
      const importMs = d.collectDuration + d.setupDuration
      return {
        name: `${module.relativeModuleId}${module.project.name === "" ? "" : ` [${module.project.name}]`}`,
        totalMs: d.environmentSetupDuration + d.prepareDuration + importMs + d.duration,
        importMs
      }
    }).sort((a, b) => b.totalMs - a.totalMs)
    if (timed.length > 1) {
      const width = Math.max(...timed.slice(0, SHOWN).map((file) => file.name.length))
      console.log(`\nSlowest test files (of ${timed.length}; time from start to end of each, import in brackets):`)
      for (const file of timed.slice(0, SHOWN)) {
        console.log(`  ${seconds(file.totalMs).padStart(8)}  ${file.name.padEnd(width)}  (${seconds(file.importMs)})`)
      }
    }
    // A skipped PostgreSQL test or suite names the variable in its title.
    const withoutPostgres = testModules.flatMap((module) => [...module.children.allTests("skipped")])
      .filter((test) => test.fullName.includes("SWAPDESK_TEST_POSTGRES_URL")).length
    if (withoutPostgres > 0) {
      console.log(
        `\n${withoutPostgres} PostgreSQL test${withoutPostgres === 1 ? " was" : "s were"} skipped: ` +
          "SWAPDESK_TEST_POSTGRES_URL is not set. " +
          "`export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres)` starts a local server and runs them."
      )
    }
  }
}
