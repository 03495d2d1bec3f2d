// Proves history replay end to end, through the standalone server as an operator runs it (a child
// process on `SCENARIO`), with a scenario and two candle files this test writes beside it and names
// by relative paths: a CSV of 1-minute SOL candles with a gap and a JSON array of 5-minute ETH
// candles. Over HTTP, the 1m chart equals the SOL file before and after the clock's start, and a
// 5m ETH candle equals its file's; the gap is priced by the model; a price alert set between two
// historical prices fires at the crossing minute; `PUT /v1/sim/prices/SOL` answers
// 409 PRICE_FROM_HISTORY; two fresh processes given the same calls serve the same event log and
// chart byte for byte; and a file with a bad row stops start-up naming the file, the line and the fault.
import { assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const workDir = mkdtempSync(join(tmpdir(), "swapdesk-history-"))
const MINUTE_MS = 60_000
/** 2026-01-01T00:00:00Z: the clock starts 30 minutes into the SOL file. */
const START_MS = 1_767_225_600_000
const KEY = `sd_test_${"History".padEnd(40, "0")}`

type Row = [number, number, number, number, number, number]

/** SOL: 1-minute candles from 30 minutes before the start to 90 after, with 10 missing from minute 50. */
const solRows: Array<Row> = []
{
  let close = 150
  for (let i = -30; i < 90; i++) {
    const open = close * (1 + 0.0004 * Math.cos(i))
    close = open * (1 + 0.003 * Math.sin(i / 3))
    if (i >= 50 && i < 60) continue
    solRows.push([
      START_MS + i * MINUTE_MS,
      open,
      Math.max(open, close) * 1.001,
      Math.min(open, close) * 0.999,
      close,
      100 + i
    ])
  }
}
/** ETH: 5-minute candles over the same two hours. */
const ethRows: Array<Row> = Array.from({ length: 24 }, (_, i) => {
  const open = 3_000 + 10 * i
  const close = open + 5
  return [START_MS - 30 * MINUTE_MS + i * 5 * MINUTE_MS, open, close + 3, open - 2, close, 40]
})

const csv = (rows: ReadonlyArray<Row>, iso: boolean) =>
  [
    "timestamp,open,high,low,close,volume",
    ...rows.map(([t, ...rest]) => [iso ? new Date(t).toISOString() : t, ...rest].join(","))
  ]
    .join("\n")

/** A scenario in its own directory, its candle files in `data/` beside it. */
const writeWorld = (name: string, sol: string) => {
  const directory = join(workDir, name)
  mkdirSync(join(directory, "data"), { recursive: true })
  writeFileSync(join(directory, "data", "sol-1m.csv"), sol)
  writeFileSync(join(directory, "data", "eth-5m.json"), JSON.stringify(ethRows))
  const scenario = {
    seed: 16,
    historyDays: 1,
    clock: { mode: "manual", start: new Date(START_MS).toISOString() },
    rateLimits: false,
    history: { SOL: { file: "./data/sol-1m.csv" }, ETH: { file: "data/eth-5m.json" } },
    accounts: [{
      id: "acct_history",
      apiKeys: [{ name: "all", key: KEY, scopes: ["read", "alerts", "trade", "account"] }],
      notifications: { email: "history@example.com" }
    }]
  }
  const path = join(directory, "scenario.json")
  writeFileSync(path, JSON.stringify(scenario))
  return path
}

interface Running {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly exited: Promise<number | null>
}

const start = (scenarioPath: string): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: scenarioPath },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(output)
      if (match !== null) resolve({ child, baseUrl: match[1]!, exited })
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    void exited.then((code) => reject(new Error(`server exited ${code} before listening:\n${output}`)))
  })

const stop = async (running: Running) => {
  running.child.kill("SIGTERM")
  await running.exited
}

const call = async (running: Running, method: string, path: string, body?: unknown) => {
  const response = await fetch(running.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as any }
}

const chart = (running: Running, token: string, timeframe: string, fromMs: number, toMs: number) =>
  call(
    running,
    "GET",
    `/v1/market-data/chart?token=${token}&timeframe=${timeframe}&from=${new Date(fromMs).toISOString()}&to=${
      new Date(toMs).toISOString()
    }`
  )

const asRow = (c: any) => [Date.parse(c.timestamp), c.open, c.high, c.low, c.close]

describe("replaying history through the server", () => {
  it("serves the files' candles, fires an alert at a historical crossing and refuses a price override", async () => {
    const running = await start(writeWorld("live", csv(solRows, true)))
    try {
      const firstMs = solRows[0]![0]
      const endMs = solRows[solRows.length - 1]![0] + MINUTE_MS
      // Before the start: the file's minutes up to the start.
      const before = await chart(running, "SOL", "1m", firstMs, START_MS)
      assert.strictEqual(before.status, 200)
      assert.deepStrictEqual(
        before.body.data.candles.map(asRow),
        solRows.filter((r) => r[0] < START_MS).map((r) => r.slice(0, 5))
      )

      // An alert between the price at the start and a later historical high.
      const target = Math.max(
        ...solRows.filter((r) => r[0] >= START_MS && r[0] < START_MS + 20 * MINUTE_MS).map((r) => r[2])
      ) * 0.9995
      const crossing = solRows.find((r) => r[0] >= START_MS && r[2] >= target)!
      // The price starts below the target, so the alert waits for the file to get there.
      assert.isAbove(crossing[0], START_MS)
      const alert = await call(running, "POST", "/v1/alerts", {
        type: "price",
        token: "SOL",
        condition: "above",
        targetPrice: target,
        channel: "email"
      })
      assert.strictEqual(alert.status, 201, JSON.stringify(alert.body))

      const refused = await call(running, "PUT", "/v1/sim/prices/SOL", { price: 1 })
      assert.strictEqual(refused.status, 409)
      assert.strictEqual(refused.body.error.code, "PRICE_FROM_HISTORY")

      const advanced = await call(running, "POST", "/v1/sim/clock/advance", { ms: endMs - START_MS })
      assert.strictEqual(advanced.status, 200)

      const outbox = await call(running, "GET", "/v1/sim/outbox")
      const fired = outbox.body.data.notifications.filter((n: any) => n.alertId === alert.body.data.id)
      assert.strictEqual(fired.length, 1)
      const sentAt = Date.parse(fired[0].sentAt)
      assert.isTrue(sentAt >= crossing[0] && sentAt < crossing[0] + MINUTE_MS, `fired at ${fired[0].sentAt}`)

      // After the start: every minute the file has is the file's; the gap's ten are the model's.
      const after = await chart(running, "SOL", "1m", START_MS, endMs)
      const served = new Map(after.body.data.candles.map((c: any) => [Date.parse(c.timestamp), asRow(c)]))
      assert.strictEqual(served.size, 90)
      for (const row of solRows.filter((r) => r[0] >= START_MS)) {
        assert.deepStrictEqual(served.get(row[0]), row.slice(0, 5))
      }

      // ETH's 5-minute candles are the file's (volume: the file's × its close, in USD).
      const eth = await chart(running, "ETH", "5m", ethRows[0]![0], ethRows[ethRows.length - 1]![0] + 1)
      assert.deepStrictEqual(
        eth.body.data.candles.map(asRow),
        ethRows.map((r) => r.slice(0, 5))
      )
      const lastEth = ethRows[ethRows.length - 1]!
      const lastEthVolume = eth.body.data.candles.at(-1).volume
      assert.closeTo(lastEthVolume / (lastEth[5] * lastEth[4]), 1, 1e-9)
    } finally {
      await stop(running)
    }
  }, 60_000)

  it("replays byte for byte in two fresh processes", async () => {
    const scenario = writeWorld("replay", csv(solRows, false))
    const session = async () => {
      const running = await start(scenario)
      try {
        await call(running, "POST", "/v1/sim/clock/advance", { ms: 95 * MINUTE_MS })
        await call(running, "POST", "/v1/sim/whales", { token: "SOL", network: "solana", valueUsd: 2_000_000 })
        await call(running, "POST", "/v1/sim/clock/advance", { ms: 5 * MINUTE_MS })
        const events = await call(running, "GET", "/v1/sim/events")
        const candles = await chart(running, "SOL", "1m", START_MS - 30 * MINUTE_MS, START_MS + 100 * MINUTE_MS)
        return JSON.stringify([events.body.data, candles.body.data])
      } finally {
        await stop(running)
      }
    }
    const first = await session()
    assert.include(first, "whale.swap")
    assert.strictEqual(await session(), first)
  }, 90_000)

  it("refuses a file with a bad row at start, naming the file, the line and the fault", async () => {
    const bad = solRows.map((r) => [...r] as Row)
    bad[2]![2] = bad[2]![1] * 0.9 // high below the open
    const child = spawn(process.execPath, [mainPath], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SCENARIO: writeWorld("bad", csv(bad, false)) }
    })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((done) => child.on("exit", done))
    assert.strictEqual(code, 1)
    assert.match(
      stderr,
      /history\.SOL\.file: \S+\/bad\/data\/sol-1m\.csv: line 4: high \S+ is below max\(open, close\) \S+/
    )
  }, 30_000)
})
