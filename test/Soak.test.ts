// Proves that `pnpm soak` keeps working: the script run as `pnpm soak` runs it (node
// scripts/soak.ts), for 4 seconds on 2 workers with a list checkpoint every 150 trades, starts the
// server, drives every kind of traffic without a single error, measures the trades list at 0 and
// at a checkpoint, prints its report, and leaves no server behind. No figure is judged here: the
// soak's numbers are evidence for docs/performance.md, not a verdict.
import { assert, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")

it("a short soak runs, reports, and has no errors", () => {
  const run = spawnSync(
    process.execPath,
    ["scripts/soak.ts", "--seconds", "4", "--concurrency", "2", "--checkpoint", "150"],
    { cwd: root, encoding: "utf8", timeout: 50_000 }
  )
  assert.strictEqual(run.status, 0, run.stderr)
  const output = run.stdout
  assert.match(output, /requests \(\d+\/s\)/)
  assert.match(output, /errors: none/)
  assert.match(output, /latency: p50 [0-9.]+ ms, p99 [0-9.]+ ms/)
  assert.match(output, /RSS: [0-9.]+ MB at start, [0-9.]+ MB at end, -?\d+ bytes per request/)
  assert.match(output, /RSS after the warm-up \(1 s\): [0-9.]+ MB, then -?[0-9.]+% to the end/)
  assert.match(output, /heap after a full collection: [0-9.]+ MB at start, [0-9.]+ MB at end/)
  assert.match(output, /GET \/v1\/trades p50: [0-9.]+ ms at 0, [0-9.]+ ms at 150/)
  const trades = Number(/trades of the busy account: (\d+)/.exec(output)?.[1])
  assert.isAtLeast(trades, 150)
}, 60_000)
