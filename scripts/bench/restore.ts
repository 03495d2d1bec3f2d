/**
 * The restore benchmark: how long the standalone server takes to start again on a database that
 * holds 30 simulated days of a busy market, against a start on an empty one. The run is made over
 * HTTP on a manual-clock copy of the demo scenario in a SQLite file: every simulated hour the Pro
 * account makes two trades on solana (a sale and a purchase), every 6 hours it sets a price alert
 * that stays active (120 by the end, all evaluated on every tick), every 12 hours a limit order that
 * never fills and expires after two days, then the clock advances an hour. The server takes a
 * snapshot each simulated day (docs/storage.md#snapshots); it is killed (`kill -9`) an hour before
 * the 30th day ends, the worst moment, 23 hours of calls after the last snapshot, and each restart
 * (spawned until it logs its address) restores the snapshot and replays the journal after it: the
 * figure is the median of `runs` restarts, beside the median of `runs` starts on an empty file.
 * Each restore is checked: the clock and the event log's length are what they were at the kill.
 *
 * Run alone with `node scripts/bench/restore.ts`, or through `pnpm bench restore`.
 */
import { decodeScenario, demoKeys, demoScenario } from "@swapdesk/simulator"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { type MainServer, startMainServer } from "./MainServer.ts"
import { atMost, type BenchResult, formatMs, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "restore"
const { progress, row } = reporter(BENCHMARK)
const DAYS = 30
const HOUR_MS = 3_600_000

const startServer = (scenarioPath: string, databaseUrl: string): Promise<MainServer> =>
  startMainServer({ SCENARIO: scenarioPath, DATABASE_URL: databaseUrl })

const kill = async (server: MainServer) => {
  server.child.kill("SIGKILL")
  await server.exited
}

const call = async (baseUrl: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${demoKeys.proAll}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = (await response.json()) as { readonly data: any }
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json.data
}

/** Where a run stands: its clock and the number of entries in its event log. */
const standing = async (baseUrl: string) => {
  const clock = (await call(baseUrl, "GET", "/v1/sim/clock")).now as string
  let after = 0
  for (;;) {
    const page = await call(baseUrl, "GET", `/v1/sim/events?after=${after}&limit=10000`)
    if (page.nextAfter === null) return { clock, lastSeq: page.events.at(-1)?.seq ?? after }
    after = page.nextAfter
  }
}

/** What the database holds at the kill: the snapshot's size and the journal entries after it. */
const stored = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const snapshot = db.prepare("SELECT length(doc) AS bytes FROM swapdesk_snapshots").get() as
      | { readonly bytes: number }
      | undefined
    const journal = db.prepare("SELECT COUNT(*) AS n FROM swapdesk_journal").get() as { readonly n: number }
    return { snapshotBytes: snapshot?.bytes ?? 0, journalEntries: Number(journal.n) }
  } finally {
    db.close()
  }
}

/** 30 busy days but their last hour, driven over HTTP; answers how many calls were made. */
const busyMonth = async (baseUrl: string) => {
  let calls = 0
  for (let hour = 0; hour < DAYS * 24 - 1; hour++) {
    await call(baseUrl, "POST", "/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.2", network: "solana" })
    await call(baseUrl, "POST", "/v1/trades", { tokenIn: "USDC", tokenOut: "SOL", amountIn: "30", network: "solana" })
    calls += 2
    if (hour % 6 === 0) {
      await call(baseUrl, "POST", "/v1/alerts", {
        type: "price",
        token: hour % 12 === 0 ? "SOL" : "ETH",
        condition: "above",
        targetPrice: 1_000_000 + hour,
        channel: "email"
      })
      calls++
    }
    if (hour % 12 === 0) {
      const expiresAt = new Date(Date.parse("2026-01-01T00:00:00Z") + (hour + 48) * HOUR_MS).toISOString()
      await call(baseUrl, "POST", "/v1/orders", {
        tokenIn: "SOL",
        tokenOut: "USDC",
        amountIn: "0.1",
        minAmountOut: "1000000",
        network: "solana",
        expiresAt
      })
      calls++
    }
    await call(baseUrl, "POST", "/v1/sim/clock/advance", { ms: HOUR_MS })
    calls++
    if (hour % 120 === 119) progress(`${(hour + 1) / 24} of ${DAYS} days driven`)
  }
  return calls
}

export const runRestoreBench = async ({ runs }: { readonly runs: number }): Promise<BenchResult> => {
  const dir = mkdtempSync(join(tmpdir(), "swapdesk-bench-restore-"))
  try {
    const scenarioPath = join(dir, "scenario.json")
    const scenario = decodeScenario(demoScenario)
    writeFileSync(
      scenarioPath,
      JSON.stringify({ ...demoScenario, clock: { ...scenario.clock, mode: "manual" }, rateLimits: false })
    )
    const file = join(dir, "busy.db")
    const database = `sqlite:${file}`
    progress(`driving ${DAYS} busy days over HTTP`)
    const driveStarted = performance.now()
    const first = await startServer(scenarioPath, database)
    const calls = await busyMonth(first.baseUrl)
    const before = await standing(first.baseUrl)
    const driveMs = performance.now() - driveStarted
    await kill(first)
    const { journalEntries, snapshotBytes } = stored(file)

    const restores: Array<number> = []
    const fresh: Array<number> = []
    for (let run = 0; run <= runs; run++) {
      progress(`${run === 0 ? "warm-up" : `run ${run}/${runs}`}`)
      const restored = await startServer(scenarioPath, database)
      const after = await standing(restored.baseUrl)
      await kill(restored)
      if (after.clock !== before.clock || after.lastSeq !== before.lastSeq) {
        throw new Error(`the restore is at ${JSON.stringify(after)}, the run was at ${JSON.stringify(before)}`)
      }
      const empty = `sqlite:${join(dir, `empty-${run}.db`)}`
      const started = await startServer(scenarioPath, empty)
      await kill(started)
      if (run === 0) continue
      restores.push(restored.startMs)
      fresh.push(started.startMs)
    }
    const restoreMs = median(restores)
    const freshMs = median(fresh)
    const rows = [
      row(
        `restart on ${DAYS} busy days (${calls.toLocaleString("en-US")} calls, ${journalEntries} replayed)`,
        formatMs(restoreMs),
        { value: restoreMs / 1_000, target: atMost(10, "< 10 s") }
      ),
      row("start on an empty database", formatMs(freshMs)),
      row("restore (restart - empty start)", formatMs(restoreMs - freshMs)),
      row("the stored snapshot", `${(snapshotBytes / 1_048_576).toFixed(1)} MB`)
    ]
    return {
      rows,
      notes: [
        `restore: spawn to the listening line, medians of ${runs} runs after a warm-up; killed 23 h after the ` +
        `last snapshot; the ${DAYS} days took ` +
        `${formatMs(driveMs)} to drive over HTTP; each restore ended at the kill's clock (${before.clock}) ` +
        `and event ${before.lastSeq}`
      ]
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) printResult(await runRestoreBench({ runs: 3 }))
