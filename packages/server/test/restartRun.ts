// What the restart tests share: a small HTTP client for a server in a child process, the calls of one
// deterministic run (manual clock), a run's full observable state, a local webhook receiver, and a
// PostgreSQL schema of a test's own.
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { expect } from "vitest"
import { keys } from "./harness.ts"

export interface Answer {
  readonly status: number
  readonly body: any
}

/** One request to the server at `baseUrl` (no keep-alive: the server may be killed at any time). */
export const request = async (
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  key: string = keys.aliceAll
): Promise<Answer> => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      connection: "close",
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
}

/** The request, which must answer 2xx; its `data`. */
export const ok = async (baseUrl: string, method: string, path: string, body?: unknown, key?: string) => {
  const answer = await request(baseUrl, method, path, body, key)
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
  return answer.body?.data
}

/** Every page of `/v1/sim/events`, oldest first. */
export const allEvents = async (baseUrl: string): Promise<Array<unknown>> => {
  const events: Array<unknown> = []
  let after = 0
  for (;;) {
    const page = await ok(baseUrl, "GET", `/v1/sim/events?after=${after}&limit=500`)
    events.push(...page.events)
    if (page.nextAfter === null) return events
    after = page.nextAfter
  }
}

/** What a client can see of a run: the event log, the outbox and Alice's records and portfolio. */
export const observe = async (baseUrl: string) => ({
  events: await allEvents(baseUrl),
  outbox: (await ok(baseUrl, "GET", "/v1/sim/outbox?limit=10000")).notifications,
  trades: await ok(baseUrl, "GET", "/v1/trades?limit=100"),
  orders: await ok(baseUrl, "GET", "/v1/orders?limit=100"),
  alerts: await ok(baseUrl, "GET", "/v1/alerts?limit=100"),
  keys: await ok(baseUrl, "GET", "/v1/auth/api-keys"),
  portfolio: await ok(baseUrl, "GET", "/v1/portfolio?range=24h"),
  clock: await ok(baseUrl, "GET", "/v1/sim/clock")
})

/** The state one run's steps carry from call to call (ids answered earlier). */
export interface RunState {
  tradeAwaitingApproval?: string
  orderId?: string
  alertId?: string
}

/**
 * The calls of one run, in order: every kind of write and control call the journal records. Each
 * step takes the server's address (which changes across a restart) and the run's state.
 */
export const runSteps = (webhookUrl: string): ReadonlyArray<(baseUrl: string, state: RunState) => Promise<void>> => [
  async (u) => void (await ok(u, "POST", "/v1/webhooks", { url: webhookUrl, events: ["trade.confirmed"] })),
  async (u) =>
    void (await ok(u, "POST", "/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1", network: "solana" })),
  async (u, state) => {
    const alert = await ok(u, "POST", "/v1/alerts", {
      type: "price",
      token: "SOL",
      condition: "above",
      targetPrice: 160,
      channel: "email"
    })
    state.alertId = alert.id
  },
  async (u) => void (await ok(u, "PUT", "/v1/sim/prices/SOL", { price: 150 })),
  async (u) => void (await ok(u, "POST", "/v1/sim/clock/advance", { ms: 20_000 })),
  async (u, state) => {
    const trade = await ok(u, "POST", "/v1/trades", {
      tokenIn: "ETH",
      tokenOut: "USDC",
      amountIn: "0.1",
      network: "ethereum"
    })
    state.tradeAwaitingApproval = trade.id
  },
  async (u, state) => {
    const order = await ok(u, "POST", "/v1/orders", {
      tokenIn: "SOL",
      tokenOut: "USDC",
      amountIn: "2",
      minAmountOut: "400",
      network: "solana",
      expiresAt: "2026-01-10T00:00:00.000Z"
    })
    state.orderId = order.id
  },
  async (u) => void (await ok(u, "POST", "/v1/auth/api-keys", { name: "restored", scopes: ["read"] })),
  async (u) =>
    void (await ok(u, "PUT", "/v1/account/notifications", {
      email: "alice@example.com",
      telegram: { chatId: "7" }
    })),
  async (u, state) =>
    void (await ok(u, "POST", "/v1/sim/approvals", { tradeId: state.tradeAwaitingApproval, approve: true })),
  async (u) =>
    void (await ok(u, "POST", "/v1/sim/faults", { network: "solana", kind: "congestion", durationMs: 60_000 })),
  async (u) =>
    void (await ok(u, "POST", "/v1/trades", { tokenIn: "USDC", tokenOut: "SOL", amountIn: "25", network: "solana" })),
  async (u) => void (await ok(u, "POST", "/v1/sim/whales", { token: "SOL", network: "solana", valueUsd: 50_000_000 })),
  async (u) => void (await ok(u, "PUT", "/v1/sim/prices/SOL", { price: 170 })),
  async (u, state) => void (await ok(u, "DELETE", `/v1/orders/${state.orderId}`)),
  async (u) => void (await ok(u, "POST", "/v1/sim/clock/advance", { ms: 120_000 })),
  async (u) =>
    void (await ok(u, "POST", "/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.5", network: "solana" })),
  async (u) => void (await ok(u, "POST", "/v1/sim/clock/advance", { ms: 60_000 }))
]

/**
 * An HTTP receiver on 127.0.0.1 (a webhook endpoint at `/hooks`, or the Telegram Bot API): records
 * each request; `answer` chooses its status, and the body says `ok` as Telegram's does.
 */
export const httpReceiver = async () => {
  const received: Array<{ readonly id: string; readonly body: string; readonly headers: IncomingHttpHeaders }> = []
  const state = { answer: (_count: number): number => 200 }
  const server = createServer((req, res) => {
    let body = ""
    req.setEncoding("utf8")
    req.on("data", (chunk: string) => (body += chunk))
    req.on("end", () => {
      received.push({ id: String(req.headers["webhook-id"]), body, headers: req.headers })
      const status = state.answer(received.length)
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(status < 300 ? { ok: true } : { ok: false, description: "stand-in failure" }))
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    url: `${origin}/hooks`,
    received,
    state,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

/** Waits on the real clock until `done` holds (every 25 ms, at most 15 s). */
export const eventually = async (what: string, done: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 600; i++) {
    if (await done()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`still waiting for ${what}`)
}

/**
 * Runs `body` with database URLs in fresh schemas of the PostgreSQL database `postgresUrl` (one per
 * name), dropped at the end.
 */
export const withPostgresSchemas = async (
  postgresUrl: string,
  names: ReadonlyArray<string>,
  body: (urls: ReadonlyArray<string>) => Promise<void>
) => {
  const admin = ManagedRuntime.make(Layer.orDie(SqlStore.layerPlainClient(SqlStore.parseDatabaseUrl(postgresUrl))))
  const run = (statement: string) =>
    admin.runPromise(Effect.orDie(Effect.gen(function*() {
      return yield* (yield* SqlClient.SqlClient).unsafe(statement)
    })))
  const schemas = names.map((name) => `${name}_${process.pid}_${Date.now()}`)
  try {
    for (const schema of schemas) await run(`CREATE SCHEMA ${schema}`)
    await body(schemas.map((schema) => {
      const url = new URL(postgresUrl)
      url.searchParams.set("options", `-c search_path=${schema}`)
      return url.toString()
    }))
  } finally {
    for (const schema of schemas) await run(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin.dispose()
  }
}
