// Proves that a server on a database restores its simulation on restart, in real child processes on a
// SQLite file and on PostgreSQL (SWAPDESK_TEST_POSTGRES_URL): one run of every kind of write and
// control call (manual clock), killed with SIGKILL after a third of its calls and stopped with
// SIGTERM after two thirds, each time started again on the same database, ends with the same event
// log (every page of /v1/sim/events), outbox, trades, orders, alerts, keys, portfolio and clock as
// the same calls on a server that never stopped; that a webhook message whose attempt failed
// before a kill goes out after the restart with the same webhook-id, while one delivered before it
// is not sent again; and the same of a notification on a real channel (Telegram, a local stand-in
// of its Bot API), its outbox item following. A journal entry rewritten in the SQLite file so that it
// no longer decodes (or names an unknown call) stops the start with exit 1, naming the entry, and
// leaves the records as they were.
import { join } from "node:path"
import { DatabaseSync } from "node:sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { crash, otherScenarioPath, refused, type Running, start, stop, workDir } from "./databaseServer.ts"
import { keys } from "./harness.ts"
import { eventually, httpReceiver, observe, ok, type RunState, runSteps, withPostgresSchemas } from "./restartRun.ts"

const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
const skipPostgres = postgresUrl === undefined
  ? " (skipped: no PostgreSQL; export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) to run it, docs/storage.md)"
  : ""

let receiver: Awaited<ReturnType<typeof httpReceiver>>
beforeAll(async () => {
  receiver = await httpReceiver()
})
afterAll(() => receiver.close())

type Step = ReturnType<typeof runSteps>[number]

/** A day and a millisecond pass: a snapshot is due after the next call (docs/storage.md#snapshots). */
const dayPasses: Step = async (u) => void (await ok(u, "POST", "/v1/sim/clock/advance", { ms: 86_400_001 }))

/**
 * The run's calls with days passing between some of them, so that a snapshot is taken before the
 * second stop (a kill -9, a few calls after it) and the restart goes on from it, and more after.
 */
const stepsWithSnapshots = (): ReadonlyArray<Step> => {
  const steps = [...runSteps(receiver.url)]
  // After the approval, which would time out.
  for (const at of [17, 15, 13, 10]) steps.splice(at, 0, dayPasses)
  return steps
}

const setPrice = (price: number): Step => async (u) => void (await ok(u, "PUT", "/v1/sim/prices/SOL", { price }))
const trade: Step = async (u) =>
  void (await ok(u, "POST", "/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.5", network: "solana" }))
const minutePasses: Step = async (u) => void (await ok(u, "POST", "/v1/sim/clock/advance", { ms: 60_000 }))

/**
 * A restart whose journal holds a day (no snapshot before it), then a snapshot taken by the restarted
 * server before its first call, covering the journal it replayed: the next restart goes on from it.
 */
const stepsAcrossADay = (): ReadonlyArray<Step> => {
  return [
    setPrice(150),
    trade,
    trade,
    dayPasses,
    setPrice(160),
    trade,
    trade,
    setPrice(170),
    minutePasses,
    trade,
    trade,
    setPrice(150)
  ]
}

/** The journal's first entry and the snapshots kept, in a stopped server's SQLite file. */
const journalOf = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    return {
      firstEntry: Number((db.prepare("SELECT MIN(seq) AS seq FROM swapdesk_journal").get() as { seq: number }).seq),
      snapshots: Number((db.prepare("SELECT COUNT(*) AS n FROM swapdesk_snapshots").get() as { n: number }).n)
    }
  } finally {
    db.close()
  }
}

/**
 * The same calls, uninterrupted on `straight`, and on `restarted` with a kill -9 and a SIGTERM
 * between them (in the order `stops` says).
 */
const sameLogAcrossRestarts = async (
  straight: string,
  restarted: string,
  steps: ReadonlyArray<Step> = runSteps(receiver.url),
  stops: readonly ["kill" | "term", "kill" | "term"] = ["kill", "term"]
) => {
  const expected = await (async () => {
    const server = await start(straight)
    try {
      const state: RunState = {}
      for (const step of steps) await step(server.baseUrl, state)
      return await observe(server.baseUrl)
    } finally {
      await stop(server)
    }
  })()
  const state: RunState = {}
  const cuts = [Math.floor(steps.length / 3), Math.floor((2 * steps.length) / 3), steps.length]
  let from = 0
  let server: Running | undefined
  try {
    for (const [i, cut] of cuts.entries()) {
      server = await start(restarted)
      for (const step of steps.slice(from, cut)) await step(server.baseUrl, state)
      from = cut
      const how = stops[i]
      if (how === "kill") await crash(server)
      else if (how === "term") await stop(server)
    }
    const actual = await observe(server!.baseUrl)
    expect(actual.events.length).toBeGreaterThan(30)
    expect(actual).toEqual(expected)
  } finally {
    if (server !== undefined && server.child.exitCode === null) await stop(server)
  }
}

/**
 * A delivery that failed before a kill -9 is retried after the restart with the same webhook-id; one
 * delivered before it is not sent again.
 */
const deliveriesAcrossRestart = async (databaseUrl: string) => {
  const before = receiver.received.length
  // The first message of this run is answered 200, every later one 503, until the restart.
  receiver.state.answer = (count) => (count === before + 1 ? 200 : 503)
  const trade = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" }
  let server = await start(databaseUrl)
  let webhookId: string
  let failedId: string
  try {
    webhookId = (await ok(server.baseUrl, "POST", "/v1/webhooks", { url: receiver.url, events: ["trade.confirmed"] }))
      .id
    await ok(server.baseUrl, "POST", "/v1/trades", trade)
    await ok(server.baseUrl, "POST", "/v1/sim/clock/advance", { ms: 20_000 })
    await eventually("the first delivery", () => receiver.received.length === before + 1)
    await ok(server.baseUrl, "POST", "/v1/trades", trade)
    await ok(server.baseUrl, "POST", "/v1/sim/clock/advance", { ms: 20_000 })
    await eventually("the failed attempt, recorded", async () => {
      const page = await ok(server.baseUrl, "GET", `/v1/webhooks/${webhookId}/deliveries`)
      return page.deliveries.some((d: { status: string }) => d.status === "failed")
    })
    failedId = receiver.received[before + 1]!.id
  } finally {
    await crash(server)
  }
  const deliveredId = receiver.received[before]!.id
  expect(failedId).not.toBe(deliveredId)
  receiver.state.answer = () => 200
  server = await start(databaseUrl)
  try {
    await ok(server.baseUrl, "POST", "/v1/sim/clock/advance", { ms: 60_000 })
    await eventually("the retry", () => receiver.received.slice(before + 2).some((r) => r.id === failedId))
    const page = await ok(server.baseUrl, "GET", `/v1/webhooks/${webhookId}/deliveries`)
    const attempts = page.deliveries
      .filter((d: { webhookId: string }) => d.webhookId === failedId)
      .map((d: { attempt: number; status: string }) => `${d.attempt}:${d.status}`)
      .sort()
    expect(attempts).toEqual(["1:failed", "2:succeeded"])
  } finally {
    await stop(server)
  }
  const ours = receiver.received.slice(before)
  expect(ours.filter((r) => r.id === deliveredId)).toHaveLength(1)
  expect(ours.filter((r) => r.id === failedId)).toHaveLength(2)
  // The same message both times: the receiver can drop a copy by its webhook-id.
  const [first, again] = ours.filter((r) => r.id === failedId)
  expect(again!.body).toBe(first!.body)
}

/** A Telegram price alert on SOL for Bob. */
const alert = (targetPrice: number) => ({
  type: "price",
  token: "SOL",
  condition: "above",
  targetPrice,
  channel: "telegram"
})

/**
 * A notification whose attempt failed before a kill -9 is sent after the restart; one sent before
 * it is not sent again; the outbox says so.
 */
const notificationsAcrossRestart = async (databaseUrl: string) => {
  const telegram = await httpReceiver()
  const env = { TELEGRAM_BOT_TOKEN: "123456:restore-test", TELEGRAM_API_URL: telegram.origin }
  telegram.state.answer = (count) => (count === 1 ? 200 : 503)
  let server = await start(databaseUrl, env)
  let sentAlert: string
  let failedAlert: string
  try {
    sentAlert = (await ok(server.baseUrl, "POST", "/v1/alerts", alert(160), keys.bobAll)).id
    await ok(server.baseUrl, "PUT", "/v1/sim/prices/SOL", { price: 170 })
    await eventually("the first message", () => telegram.received.length === 1)
    failedAlert = (await ok(server.baseUrl, "POST", "/v1/alerts", alert(180), keys.bobAll)).id
    await ok(server.baseUrl, "PUT", "/v1/sim/prices/SOL", { price: 190 })
    await eventually("the failed attempt, in the outbox", async () => {
      const outbox = await ok(server.baseUrl, "GET", "/v1/sim/outbox")
      return outbox.notifications.some((n: { alertId: string; attempts: number }) =>
        n.alertId === failedAlert && n.attempts === 1
      )
    })
  } finally {
    await crash(server)
  }
  telegram.state.answer = () => 200
  server = await start(databaseUrl, env)
  try {
    await ok(server.baseUrl, "POST", "/v1/sim/clock/advance", { ms: 60_000 })
    await eventually("the retry", () => telegram.received.length === 3)
    // The stand-in has the message before the server has its answer: the outbox counts the attempt after.
    let outbox = await ok(server.baseUrl, "GET", "/v1/sim/outbox")
    await eventually("the retry's answer, in the outbox", async () => {
      outbox = await ok(server.baseUrl, "GET", "/v1/sim/outbox")
      return outbox.notifications.some((n: { alertId: string; attempts: number }) =>
        n.alertId === failedAlert && n.attempts === 2
      )
    })
    expect(
      outbox.notifications.map((n: { alertId: string; status: string; attempts: number }) => [
        n.alertId,
        n.status,
        n.attempts
      ])
    ).toEqual([[sentAlert, "sent", 1], [failedAlert, "sent", 2]])
  } finally {
    await stop(server)
    await telegram.close()
  }
  const texts = telegram.received.map((r) => JSON.parse(r.body).text as string)
  expect(texts.filter((text) => text.includes(sentAlert))).toHaveLength(1)
  expect(texts.filter((text) => text.includes(failedAlert))).toHaveLength(2)
}

describe("restoring a simulation on restart", () => {
  it("on SQLite: a run killed and stopped half-way logs what the same run uninterrupted logs", () =>
    sameLogAcrossRestarts(`sqlite:${join(workDir, "straight.db")}`, `sqlite:${join(workDir, "restarted.db")}`))

  it("on SQLite: a run restarted from snapshots logs what the same run uninterrupted logs", async () => {
    const file = join(workDir, "snapshots.db")
    await sameLogAcrossRestarts(
      `sqlite:${join(workDir, "straight-snapshots.db")}`,
      `sqlite:${file}`,
      stepsWithSnapshots()
    )
    // The journal before the last snapshot is gone: the restarts could not have replayed from the start.
    const { firstEntry, snapshots } = journalOf(file)
    expect(snapshots).toBe(1)
    expect(firstEntry).toBeGreaterThan(10)
  }, 240_000)

  it("on SQLite: a snapshot taken after a restart covers the journal the restart replayed", async () => {
    const file = join(workDir, "after-restart.db")
    await sameLogAcrossRestarts(`sqlite:${join(workDir, "straight-day.db")}`, `sqlite:${file}`, stepsAcrossADay())
    const { firstEntry, snapshots } = journalOf(file)
    expect(snapshots).toBe(1)
    expect(firstEntry).toBe(5)
  }, 120_000)

  it("on SQLite: a snapshot is not restored on another scenario: the server says so and exits 1", async () => {
    const databaseUrl = `sqlite:${join(workDir, "other-scenario.db")}`
    const server = await start(databaseUrl)
    await dayPasses(server.baseUrl, {})
    // The snapshot is taken before the next call.
    await ok(server.baseUrl, "PUT", "/v1/sim/prices/SOL", { price: 150 })
    await stop(server)
    const { code, output } = await refused(databaseUrl, { SCENARIO: otherScenarioPath })
    expect(code).toBe(1)
    expect(output).toContain("its snapshot was taken on another scenario")
    expect(output).toContain("seed 7, not the scenario's seed 99")
    expect(output).not.toContain("    at ")
  })

  it("on SQLite: a journal entry this server cannot replay stops the start, naming it, and changes nothing", async () => {
    const file = join(workDir, "undecodable-entry.db")
    const databaseUrl = `sqlite:${file}`
    const server = await start(databaseUrl)
    await setPrice(150)(server.baseUrl, {})
    await trade(server.baseUrl, {})
    await stop(server)
    const db = new DatabaseSync(file)
    const entry = db.prepare("SELECT seq, args FROM swapdesk_journal WHERE op = 'trades.create'").get() as {
      readonly seq: number
      readonly args: string
    }
    const rewrite = (op: string, args: string) =>
      db.prepare("UPDATE swapdesk_journal SET op = ?, args = ? WHERE seq = ?").run(op, args, entry.seq)
    try {
      // The amount as a number: what a journal written by another version of the call might hold.
      const stored = JSON.parse(entry.args) as { readonly body: object }
      rewrite("trades.create", JSON.stringify({ ...stored, body: { ...stored.body, amountIn: 0.5 } }))
      const undecodable = await refused(databaseUrl)
      expect(undecodable.code).toBe(1)
      expect(undecodable.output).toContain(
        `swapdesk: DATABASE_URL sqlite:${file}: its journal entry ${entry.seq} (trades.create) no longer decodes ` +
          `(body.amountIn: send amounts as decimal strings, e.g. "1.5" (found 0.5)); start the version of the server that wrote it, or on a new database`
      )
      expect(undecodable.output).not.toContain("    at ")
      rewrite("trades.settle", entry.args)
      const unknown = await refused(databaseUrl)
      expect(unknown.code).toBe(1)
      expect(unknown.output).toContain(
        `its journal entry ${entry.seq} (trades.settle) is a call this server does not know;`
      )
      // Nothing was replayed onto the records: with the entry as it was, the start goes on from them.
      rewrite("trades.create", entry.args)
    } finally {
      db.close()
    }
    const restarted = await start(databaseUrl)
    try {
      const trades = await ok(restarted.baseUrl, "GET", "/v1/trades")
      expect(trades.trades).toHaveLength(1)
    } finally {
      await stop(restarted)
    }
  })

  it("on SQLite: a failed webhook delivery goes out after a kill -9, with its webhook-id", () =>
    deliveriesAcrossRestart(`sqlite:${join(workDir, "deliveries.db")}`))

  it("on SQLite: a failed notification goes out after a kill -9, and a sent one does not again", () =>
    notificationsAcrossRestart(`sqlite:${join(workDir, "notifications.db")}`))

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: a run killed and stopped half-way logs what the same run uninterrupted logs${skipPostgres}`,
    () =>
      withPostgresSchemas(
        postgresUrl!,
        ["straight", "restarted"],
        ([straight, restarted]) => sameLogAcrossRestarts(straight!, restarted!)
      )
  )

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: a run restarted from snapshots logs what the same run uninterrupted logs${skipPostgres}`,
    () =>
      withPostgresSchemas(
        postgresUrl!,
        ["straight_snapshots", "restarted_snapshots"],
        ([straight, restarted]) => sameLogAcrossRestarts(straight!, restarted!, stepsWithSnapshots(), ["term", "kill"])
      ),
    240_000
  )

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: a failed webhook delivery goes out after a kill -9, with its webhook-id${skipPostgres}`,
    () => withPostgresSchemas(postgresUrl!, ["deliveries"], ([url]) => deliveriesAcrossRestart(url!))
  )

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: a failed notification goes out after a kill -9, and a sent one does not again${skipPostgres}`,
    () => withPostgresSchemas(postgresUrl!, ["notifications"], ([url]) => notificationsAcrossRestart(url!))
  )
})
