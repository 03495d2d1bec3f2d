import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import LongestFirst from "./test/LongestFirst.ts"

// Node keeps the code it compiles on disk (its module compile cache), so that the hundred or so
// servers the tests start in child processes, and the test workers, load effect and the sources
// compiled once: set here, every process the run starts inherits it.
process.env["NODE_COMPILE_CACHE"] ??= fileURLToPath(new URL("node_modules/.cache/node-compile-cache", import.meta.url))

export default defineConfig({
  test: {
    globalSetup: ["packages/web/test/buildInterface.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One file more than the cores (Vitest's default is one fewer): many files wait on nodes' blocks,
    // servers and browsers in other processes, and the cores would idle meanwhile; one more starves
    // the tests that measure throughput (docs/testing.md).
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
    include: ["packages/*/test/**/*.test.ts", "examples/test/**/*.test.ts", "test/**/*.test.ts"]
  }
})
