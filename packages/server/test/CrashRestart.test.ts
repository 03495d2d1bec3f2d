// Proves what a kill -9 under write load leaves, in real child processes on a SQLite file and on
// PostgreSQL (SWAPDESK_TEST_POSTGRES_URL): seven clients write at once until each has had 25 answers
// (trades for two accounts, alerts past the Free plan's limit, API keys past their limit, limit
// orders, clock advances), the server is killed with SIGKILL with requests in flight and started
// again on the same database. Then every write answered 2xx is there (read back over HTTP), the
// records number no more than the writes answered 2xx plus those never answered (so nothing answered
// as failed took effect), every balance is what the scenario's opening balance and the trade records
// say it must be (funds conserved, to the base unit), and a trade.confirmed webhook reaches a local
// receiver for every confirmed trade, those pending at the kill included.
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { crash, start, stop, workDir } from "./databaseServer.ts"
import { keys, testScenario } from "./harness.ts"
import { type Answer, eventually, httpReceiver, ok, request, withPostgresSchemas } from "./restartRun.ts"

const postgresUrl = process.env["SWAPDESK_TEST_POSTGRES_URL"]
const skipPostgres = postgresUrl === undefined
  ? " (skipped: no PostgreSQL; export SWAPDESK_TEST_POSTGRES_URL=$(.ci/postgres) to run it, docs/storage.md)"
  : ""
/** Answers each writer has had before the kill: enough for every kind to pass and be refused past its limit. */
const LOAD_ANSWERS = 25

let receiver: Awaited<ReturnType<typeof httpReceiver>>
beforeAll(async () => {
  receiver = await httpReceiver()
})
afterAll(() => receiver.close())

type Kind = "trade" | "alert" | "key" | "order" | "advance"

interface Outcome {
  readonly kind: Kind
  readonly key: string
  /** The HTTP status, or null when the server died before answering. */
  readonly status: number | null
  readonly id?: string
}

/** A decimal string of token units as an integer of 10^-18 units (every token has at most 18 decimals). */
const units = (amount: string): bigint => {
  const [whole, fraction = ""] = amount.split(".")
  return BigInt(whole!) * 10n ** 18n + BigInt(fraction.padEnd(18, "0"))
}

const nativeOf: Record<string, string> = { solana: "SOL", ethereum: "ETH", base: "ETH", arbitrum: "ETH" }

/** Every page of a list route, with the key of its owner. */
const everything = async (baseUrl: string, path: string, field: string, key: string) => {
  const items: Array<any> = []
  for (let offset = 0;; offset += 100) {
    const page = await ok(
      baseUrl,
      "GET",
      `${path}${path.includes("?") ? "&" : "?"}limit=100&offset=${offset}`,
      undefined,
      key
    )
    items.push(...page[field])
    if (items.length >= page.total) return items
  }
}

const crashUnderLoad = async (databaseUrl: string) => {
  let server = await start(databaseUrl)
  const accounts = [{ id: "acct_alice", key: keys.aliceAll }, { id: "acct_bob", key: keys.bobAll }]
  const outcomes: Array<Outcome> = []
  try {
    for (const { key } of accounts) {
      await ok(server.baseUrl, "POST", "/v1/webhooks", { url: receiver.url, events: ["trade.confirmed"] }, key)
    }
    // Set once the server is killed (an object, so the workers' loops read it afresh).
    const load = { killed: false }
    const busy: Array<readonly [Kind, string]> = []
    const worker = async (kind: Kind, key: string, body: (i: number) => [string, string, unknown]) => {
      busy.push([kind, key])
      for (let i = 0; !load.killed; i++) {
        const [method, path, payload] = body(i)
        let answer: Answer | undefined
        try {
          answer = await request(server.baseUrl, method, path, payload, key)
        } catch {
          // The server died with the request in flight.
        }
        outcomes.push({
          kind,
          key,
          status: answer?.status ?? null,
          ...(typeof answer?.body?.data?.id === "string" ? { id: answer.body.data.id } : {})
        })
        if (answer === undefined) return
      }
    }
    const writers = Promise.all([
      worker("trade", keys.aliceAll, () => [
        "POST",
        "/v1/trades",
        { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.05", network: "solana" }
      ]),
      worker("trade", keys.bobAll, (i) => [
        "POST",
        "/v1/trades",
        i % 2 === 0
          ? { tokenIn: "USDC", tokenOut: "SOL", amountIn: "20", network: "solana" }
          : { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.1", network: "solana" }
      ]),
      worker("alert", keys.aliceAll, (i) => [
        "POST",
        "/v1/alerts",
        { type: "price", token: "SOL", condition: "above", targetPrice: 1_000 + i, channel: "email" }
      ]),
      worker("key", keys.aliceAll, (i) => ["POST", "/v1/auth/api-keys", { name: `load ${i}`, scopes: ["read"] }]),
      worker("order", keys.bobAll, () => [
        "POST",
        "/v1/orders",
        {
          tokenIn: "SOL",
          tokenOut: "USDC",
          amountIn: "0.5",
          minAmountOut: "1000000",
          network: "solana",
          expiresAt: "2026-02-01T00:00:00.000Z"
        }
      ]),
      worker("advance", keys.aliceAll, () => ["POST", "/v1/sim/clock/advance", { ms: 700 }]),
      worker("alert", keys.bobAll, (i) => [
        "POST",
        "/v1/alerts",
        { type: "price", token: "SOL", condition: "below", targetPrice: 1 + i / 100, channel: "email" }
      ])
    ])
    const kinds = ["trade", "alert", "key", "order", "advance"] as const
    const answered = (kind: Kind, key: string) =>
      outcomes.filter((o) => o.kind === kind && o.key === key && o.status !== null).length
    await eventually(
      "every writer under load, every kind of write passing and an alert refused past the limit",
      () =>
        busy.every(([kind, key]) => answered(kind, key) >= LOAD_ANSWERS) &&
        kinds.every((kind) => outcomes.some((o) => o.kind === kind && o.status !== null && o.status < 300)) &&
        outcomes.some((o) => o.kind === "alert" && o.status === 403)
    )
    load.killed = true
    await crash(server)
    await writers
  } finally {
    if (server.child.exitCode === null && server.child.signalCode === null) await crash(server)
  }

  server = await start(databaseUrl)
  try {
    const answered = outcomes.filter((o) => o.status !== null)
    expect(answered.every((o) => o.status! < 500), JSON.stringify(answered.filter((o) => o.status! >= 500))).toBe(
      true
    )
    const succeeded = (kind: Kind, key: string) =>
      outcomes.filter((o) => o.kind === kind && o.key === key && o.status !== null && o.status < 300)
    const unanswered = (kind: Kind, key: string) =>
      outcomes.filter((o) => o.kind === kind && o.key === key && o.status === null).length
    // Enough of every kind happened for the check to mean something, refusals included.
    for (const kind of ["trade", "alert", "key", "order", "advance"] as const) {
      expect(outcomes.filter((o) => o.kind === kind && o.status !== null && o.status < 300).length, kind)
        .toBeGreaterThan(0)
    }
    expect(outcomes.some((o) => o.kind === "alert" && o.status === 403)).toBe(true)

    const stored = {
      trade: async (key: string) => everything(server.baseUrl, "/v1/trades", "trades", key),
      alert: async (key: string) => everything(server.baseUrl, "/v1/alerts", "alerts", key),
      order: async (key: string) => everything(server.baseUrl, "/v1/orders", "orders", key),
      key: async (key: string) => (await ok(server.baseUrl, "GET", "/v1/auth/api-keys", undefined, key)).keys
    }
    const seededKeys = testScenario.accounts!.find((a) => a.id === "acct_alice")!.apiKeys!.length
    for (const { key } of accounts) {
      for (const kind of ["trade", "alert", "order", "key"] as const) {
        const records: Array<{ id: string }> = await stored[kind](key)
        const ids = new Set(records.map((r) => r.id))
        for (const outcome of succeeded(kind, key)) expect(ids.has(outcome.id!), `${kind} ${outcome.id}`).toBe(true)
        const extra = kind === "key" && key === keys.aliceAll ? seededKeys : kind === "key" ? 1 : 0
        expect(records.length, `${kind}s of ${key}`).toBeLessThanOrEqual(
          succeeded(kind, key).length + unanswered(kind, key) + extra
        )
        expect(records.length, `${kind}s of ${key}`).toBeGreaterThanOrEqual(succeeded(kind, key).length + extra)
      }
    }

    // Every trade ends within the hour; then each balance line is its opening balance, less what
    // confirmed trades sent and gas, plus what they received.
    await ok(server.baseUrl, "POST", "/v1/sim/clock/advance", { ms: 3_600_000 })
    for (const account of accounts) {
      const scenarioAccount = testScenario.accounts!.find((a) => a.id === account.id)!
      const expected = new Map<string, bigint>()
      const add = (network: string, token: string, amount: bigint) =>
        expected.set(`${network} ${token}`, (expected.get(`${network} ${token}`) ?? 0n) + amount)
      for (const wallet of scenarioAccount.wallets ?? []) {
        for (const [token, amount] of Object.entries(wallet.balances ?? {})) add(wallet.network, token, units(amount))
      }
      const trades = []
      // The single-trade view has every field (the list's has no gasFee).
      for (const { id } of await stored.trade(account.key)) {
        trades.push(await ok(server.baseUrl, "GET", `/v1/trades/${id}`, undefined, account.key))
      }
      for (const trade of trades) {
        expect(["confirmed", "failed"]).toContain(trade.status)
        if (trade.status === "confirmed") {
          add(trade.network, trade.tokenIn, -units(trade.amountIn))
          add(trade.network, trade.tokenOut, units(trade.amountOut))
        }
        add(trade.network, nativeOf[trade.network]!, -units(trade.gasFee))
      }
      const portfolio = await ok(server.baseUrl, "GET", "/v1/portfolio?range=24h", undefined, account.key)
      const actual = new Map<string, bigint>()
      for (const holding of portfolio.holdings) actual.set(`${holding.network} ${holding.token}`, units(holding.amount))
      for (const [line, amount] of expected) expect(actual.get(line) ?? 0n, `${account.id} ${line}`).toBe(amount)

      // Every confirmed trade's webhook went out, those pending at the kill after the restart.
      const confirmed = trades.filter((t: { status: string }) => t.status === "confirmed").map((t: { id: string }) =>
        t.id
      )
      expect(confirmed.length).toBeGreaterThan(0)
      await eventually(`the trade.confirmed webhooks of ${account.id}`, () => {
        const delivered = new Set(receiver.received.map((r) => JSON.parse(r.body).data.id))
        return confirmed.every((id: string) => delivered.has(id))
      })
    }
  } finally {
    await stop(server)
  }
}

describe("kill -9 under write load", () => {
  it("on SQLite: every write answered 2xx is there, none answered as failed, funds conserved, webhooks out", () =>
    crashUnderLoad(`sqlite:${join(workDir, "crash.db")}`))

  it.skipIf(postgresUrl === undefined)(
    `on PostgreSQL: every write answered 2xx is there, none answered as failed, funds conserved, webhooks out${skipPostgres}`,
    () => withPostgresSchemas(postgresUrl!, ["crash"], ([url]) => crashUnderLoad(url!))
  )
})
