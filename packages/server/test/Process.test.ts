// Proves the standalone server as an operator runs it, in real child processes: PORT, HOST and
// SCENARIO are honoured and the address is logged; a bad scenario (a setting past its documented
// range too) stops start-up with a message naming the field and its value; a bad PORT, LOG_FORMAT or LOG_LEVEL, an address
// in use, and a scenario file that is not JSON or cannot be read each stop it with one line and
// exit 1, as does an unusable channel setting (SMTP_URL, FCM_SERVICE_ACCOUNT); the channel settings reach
// the real channels (an alert's mail arrives at a local SMTP server, its Telegram message at a local Bot API);
// a request Node's parser refuses is answered with the error envelope in market time; a
// client that hangs up in the middle of a body (reset, or half-closed and answered 400) leaves
// nothing in the log; SIGTERM lets a request in flight finish and exits 0 (the advance is seen
// running before the signal, and its answer, announcing Connection: close, is written after the server
// took it), answers requests that arrive on open keep-alive connections and bodies still arriving
// with Connection: close, also when started through `npx pnpm start`, after which no server process
// remains (every step waits on what it needs, never on a guessed delay); off a loopback
// HOST the control routes take SIM_CONTROL_KEY, generated and printed once when unset (tried only
// from this machine's loopback addresses); and two fresh processes on one scenario, given the
// same calls, write the same event log byte for byte.
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { type AddressInfo, connect, createServer as createNetServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { holdInterface } from "../../web/test/interfaceLock.ts"
import { keys, testScenario } from "./harness.ts"
import { type MainServer as Running, startServerProcess } from "./mainServer.ts"
import { eventually, providersStandIn, smtpStandIn } from "./standIns.ts"
import { waitUntil } from "./waitUntil.ts"

const mainPath = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url))
const workDir = mkdtempSync(join(tmpdir(), "swapdesk-process-"))

const writeScenario = (name: string, scenario: unknown): string => {
  const path = join(workDir, name)
  writeFileSync(path, JSON.stringify(scenario))
  return path
}

/**
 * The server in a child process, by `node main.ts` or by `command` (run in the repository's root),
 * on a port the system picks (read back from its listening line): a port chosen here could be taken
 * by another process on the machine in the meantime.
 */
const start = (env: Record<string, string>, command?: ReadonlyArray<string>): Promise<Running> =>
  startServerProcess(env, { command, cwd: repoRoot })

/**
 * One request, on a connection of its own that closes after the answer unless `keepAlive`: a stopping
 * server waits for its idle connections to close, which a client keeping one alive does only after
 * seconds.
 */
const json = async (
  running: Running,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
  options: { readonly keepAlive?: boolean } = {}
) => {
  const response = await fetch(running.baseUrl + path, {
    method,
    headers: {
      ...(options.keepAlive === true ? {} : { connection: "close" }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, headers: response.headers, body: await response.json() as any }
}

/** Whether a new connection to `port` is refused: once it is, the server has taken the signal. */
const refusesConnections = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, "127.0.0.1")
    socket.on("connect", () => (socket.destroy(), done(false)))
    socket.on("error", () => done(true))
  })

const START = Date.parse(testScenario.clock!.start!)
const TWO_DAYS_MS = 2 * 86_400_000

/**
 * Sends a two-day advance and waits until the server is running it: the clock route answers while an
 * advance runs and shows market time moving, and two days of it take the server about a second.
 */
const advanceInFlight = async (running: Running) => {
  // On a connection kept alive: only an answer written after the signal announces Connection: close.
  const inFlight = json(running, "POST", "/v1/sim/clock/advance", { ms: TWO_DAYS_MS }, undefined, { keepAlive: true })
  let seen = START
  await waitUntil("the advance to be under way", async () => {
    // Each look on a connection of its own, closed after it: an idle one would hold the drain open.
    const clock = await fetch(running.baseUrl + "/v1/sim/clock", { headers: { connection: "close" } })
    seen = Date.parse(((await clock.json()) as { data: { now: string } }).data.now)
    return seen > START
  }, { everyMs: 5 })
  assert.isBelow(seen, START + TWO_DAYS_MS, "the advance had not finished when the signal was sent")
  // Wrapped, or awaiting this function would await the answer too.
  return { answer: inFlight }
}

/** A start-up that must fail: its exit code and what it printed on stderr. */
const refusedStart = async (env: Record<string, string>) => {
  const child = spawn(process.execPath, [mainPath], { env: { ...process.env, HOST: "127.0.0.1", ...env } })
  let stderr = ""
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  // "close", not "exit": the refusal may still be in the pipe when the process has exited.
  const code = await new Promise<number | null>((done) => child.on("close", done))
  return { code, stderr }
}

const refusal = (scenario: unknown) => refusedStart({ SCENARIO: writeScenario("bad.json", scenario), PORT: "0" })

describe("the standalone server", () => {
  it("honours PORT, HOST and SCENARIO and logs its address", async () => {
    const running = await start({ SCENARIO: writeScenario("ok.json", testScenario) })
    try {
      assert.match(running.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/)
      assert.include(running.output(), "ok.json")
      const health = await json(running, "GET", "/v1/health")
      assert.strictEqual(health.status, 200)
      const clock = await json(running, "GET", "/v1/sim/clock")
      assert.deepStrictEqual(clock.body.data, { now: "2026-01-01T00:00:00.000Z", mode: "manual" })
    } finally {
      running.child.kill("SIGTERM")
      await running.exited
    }
  }, 30_000)

  it("refuses a bad scenario, naming the field and the value", async () => {
    const schema = await refusal({ ...testScenario, networks: { solana: { failureRate: 2 } } })
    assert.strictEqual(schema.code, 1)
    assert.include(schema.stderr, "networks.solana.failureRate: must be between 0 and 1 (found 2)")
    const balance = await refusal({
      accounts: [{ id: "acct_x", wallets: [{ network: "solana", address: "x", balances: { SOL: "1.0000000001" } }] }]
    })
    assert.strictEqual(balance.code, 1)
    assert.include(balance.stderr, "accounts.0.wallets.0.balances.SOL")
    assert.include(balance.stderr, "\"1.0000000001\"")
    const stablecoin = await refusal({ ...testScenario, tokens: [{ symbol: "USDC", priceUsd: 0.97 }] })
    assert.strictEqual(stablecoin.code, 1)
    assert.include(
      stablecoin.stderr,
      "tokens.0.priceUsd: cannot be set on a stablecoin: USDC starts on its peg of 1 USD"
    )
    assert.include(stablecoin.stderr, "(found 0.97)")
  }, 30_000)

  it("refuses a setting past its documented range, naming the field and the value", async () => {
    const refused = await refusal({
      ...testScenario,
      clock: { mode: "realtime", speed: 1e300 },
      tokens: [{ symbol: "SOL", annualVolatility: 1e300 }]
    })
    assert.strictEqual(refused.code, 1)
    assert.include(refused.stderr, "clock.speed: must be greater than 0 and at most 3600 (found 1e+300)")
    assert.include(refused.stderr, "tokens.0.annualVolatility: must be between 0.0001 and 10")
    assert.include(refused.stderr, "(found 1e+300)")
  }, 30_000)

  it("refuses a PORT that is not a port in one line, exit 1", async () => {
    for (const port of ["abc", "70000", "1.5"]) {
      const { code, stderr } = await refusedStart({ PORT: port })
      assert.strictEqual(code, 1, stderr)
      assert.strictEqual(stderr, `swapdesk: PORT must be an integer from 0 to 65535 (found "${port}")\n`)
    }
  }, 30_000)

  it("refuses a LOG_FORMAT or LOG_LEVEL it does not know in one line, exit 1", async () => {
    const format = await refusedStart({ PORT: "0", LOG_FORMAT: "xml" })
    assert.strictEqual(format.code, 1, format.stderr)
    assert.strictEqual(format.stderr, `swapdesk: LOG_FORMAT must be text or json (found "xml")\n`)
    const level = await refusedStart({ PORT: "0", LOG_LEVEL: "loud" })
    assert.strictEqual(level.code, 1, level.stderr)
    assert.strictEqual(level.stderr, `swapdesk: LOG_LEVEL must be error, warn, info or debug (found "loud")\n`)
  }, 30_000)

  it(
    "WEBHOOK_ALLOW_PRIVATE_URLS=false refuses loopback webhook URLs; unset, the simulator takes them; another value stops the start",
    async () => {
      const bad = await refusedStart({ PORT: "0", WEBHOOK_ALLOW_PRIVATE_URLS: "no" })
      assert.strictEqual(bad.code, 1, bad.stderr)
      assert.strictEqual(bad.stderr, `swapdesk: WEBHOOK_ALLOW_PRIVATE_URLS must be true or false (found "no")\n`)
      const scenario = writeScenario("webhooks.json", testScenario)
      for (const [setting, expected] of [["false", 400], ["", 201], ["true", 201]] as const) {
        const running = await start({ SCENARIO: scenario, WEBHOOK_ALLOW_PRIVATE_URLS: setting })
        try {
          const created = await json(running, "POST", "/v1/webhooks", {
            url: "http://127.0.0.1:9/hooks",
            events: ["trade.confirmed"]
          }, keys.aliceAll)
          assert.strictEqual(created.status, expected, `WEBHOOK_ALLOW_PRIVATE_URLS=${setting}`)
          if (expected === 400) assert.strictEqual(created.body.error.details[0].path, "url")
        } finally {
          running.child.kill("SIGTERM")
          await running.exited
        }
      }
    },
    60_000
  )

  it(
    "refuses a CORS_ORIGINS entry that is not an origin, or a SIM_LOG_MAX out of range, in one line, exit 1",
    async () => {
      const cors = await refusedStart({ PORT: "0", CORS_ORIGINS: "https://ok.example, https://app.example/path" })
      assert.strictEqual(cors.code, 1, cors.stderr)
      assert.strictEqual(
        cors.stderr,
        `swapdesk: CORS_ORIGINS: "https://app.example/path" is not an origin (scheme://host[:port], http or https, no path)\n`
      )
      for (const value of ["0", "ten", "10000001"]) {
        const log = await refusedStart({ PORT: "0", SIM_LOG_MAX: value })
        assert.strictEqual(log.code, 1, log.stderr)
        assert.strictEqual(
          log.stderr,
          `swapdesk: SIM_LOG_MAX must be an integer from 1 to 10000000 (found ${JSON.stringify(value)})\n`
        )
      }
    },
    60_000
  )

  it("refuses an address in use in one line, exit 1", async () => {
    const occupant = createNetServer()
    await new Promise<void>((done) => occupant.listen(0, "127.0.0.1", done))
    try {
      const port = (occupant.address() as AddressInfo).port
      const { code, stderr } = await refusedStart({ PORT: String(port) })
      assert.strictEqual(code, 1, stderr)
      assert.strictEqual(stderr, `swapdesk: cannot listen on 127.0.0.1:${port}: the address is in use\n`)
    } finally {
      await new Promise((done) => occupant.close(done))
    }
  }, 30_000)

  it("refuses a scenario file that is not JSON, or cannot be read, in one line, exit 1", async () => {
    const path = join(workDir, "not-json.json")
    writeFileSync(path, "{ seed: 7 }")
    const notJson = await refusedStart({ SCENARIO: path, PORT: "0" })
    assert.strictEqual(notJson.code, 1, notJson.stderr)
    assert.match(notJson.stderr, /^swapdesk: SCENARIO \S+not-json\.json: not valid JSON \(.+\)\n$/)
    const missing = join(workDir, "missing.json")
    const unreadable = await refusedStart({ SCENARIO: missing, PORT: "0" })
    assert.strictEqual(unreadable.code, 1, unreadable.stderr)
    assert.match(unreadable.stderr, /^swapdesk: SCENARIO \S+missing\.json: cannot be read \(ENOENT.+\)\n$/)
  }, 30_000)

  it("refuses an unusable channel setting in one line, exit 1", async () => {
    const smtp = await refusedStart({ SMTP_URL: "//mail.example.com:25", PORT: "0" })
    assert.strictEqual(smtp.code, 1, smtp.stderr)
    assert.strictEqual(smtp.stderr, `swapdesk: SMTP_URL is not a URL ("//mail.example.com:25")\n`)
    const http = await refusedStart({ SMTP_URL: "http://mail.example.com", PORT: "0" })
    assert.strictEqual(http.stderr, "swapdesk: SMTP_URL must be a smtp: or smtps: URL\n")
    const missing = join(workDir, "missing-service-account.json")
    const fcm = await refusedStart({ FCM_SERVICE_ACCOUNT: missing, PORT: "0" })
    assert.strictEqual(fcm.code, 1, fcm.stderr)
    assert.match(fcm.stderr, /^swapdesk: FCM_SERVICE_ACCOUNT \S+missing-service-account\.json: ENOENT.+\n$/)
    const incomplete = writeScenario("service-account.json", { project_id: "p", client_email: "a@b.c" })
    const partial = await refusedStart({ FCM_SERVICE_ACCOUNT: incomplete, PORT: "0" })
    assert.match(partial.stderr, /^swapdesk: FCM_SERVICE_ACCOUNT \S+: it has no "private_key"\n$/)
  }, 30_000)

  it(
    "sends alerts on the channels its settings configure",
    () =>
      Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const smtp = yield* smtpStandIn
        const providers = yield* providersStandIn
        const scenario = {
          ...testScenario,
          accounts: testScenario.accounts!.map((a) =>
            a.id === "acct_alice"
              ? { ...a, notifications: { email: "alice@example.com", telegram: { chatId: "77" } } }
              : a
          )
        }
        const running = yield* Effect.promise(() =>
          start({
            SCENARIO: writeScenario("channels.json", scenario),
            SMTP_URL: smtp.url,
            TELEGRAM_BOT_TOKEN: providers.botToken,
            TELEGRAM_API_URL: providers.base
          })
        )
        try {
          const alert = (channel: string, token: string) =>
            Effect.promise(() =>
              json(
                running,
                "POST",
                "/v1/alerts",
                { type: "price", token, condition: "above", targetPrice: 1, channel },
                keys.aliceAll
              )
            )
          const byMail = yield* alert("email", "SOL")
          const byTelegram = yield* alert("telegram", "ETH")
          assert.strictEqual(byMail.status, 201)
          assert.strictEqual(byTelegram.status, 201)
          yield* Effect.promise(() => json(running, "POST", "/v1/sim/clock/advance", { ms: 1_000 }))
          yield* eventually(
            "the mail and the Telegram message",
            () => smtp.mails.length === 1 && providers.telegram.length === 1
          )
          assert.include(smtp.mails[0]!.raw, byMail.body.data.id)
          assert.deepStrictEqual(smtp.mails[0]!.to, ["alice@example.com"])
          assert.strictEqual(JSON.parse(providers.telegram[0]!.body).chat_id, "77")
          const outbox = yield* Effect.promise(() => json(running, "GET", "/v1/sim/outbox"))
          assert.deepStrictEqual(
            outbox.body.data.notifications.map((n: { channel: string; status: string }) => [n.channel, n.status])
              .sort(),
            [["email", "sent"], ["telegram", "sent"]]
          )
        } finally {
          running.child.kill("SIGTERM")
          yield* Effect.promise(() => running.exited)
        }
      }))),
    30_000
  )

  it("answers a malformed request with the error envelope in market time, and keeps serving", async () => {
    const running = await start({ SCENARIO: writeScenario("malformed.json", testScenario) })
    try {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(running.baseUrl).port), "127.0.0.1")
        let received = ""
        socket.setEncoding("latin1")
        socket.on("data", (chunk: string) => (received += chunk))
        socket.on("error", reject)
        socket.on("close", () => resolve(received))
        socket.write("GARBAGE\r\n\r\n")
      })
      const [head = "", body = ""] = raw.split("\r\n\r\n")
      assert.match(head, /^HTTP\/1\.1 400 /)
      assert.match(head, /\r\nx-request-id: [0-9a-f-]{36}\r\n/)
      assert.include(head, "\r\nconnection: close")
      const envelope = JSON.parse(body)
      assert.strictEqual(envelope.error.code, "VALIDATION_ERROR")
      assert.strictEqual(envelope.timestamp, "2026-01-01T00:00:00.000Z")
      assert.strictEqual((await json(running, "GET", "/v1/health")).status, 200)
    } finally {
      running.child.kill("SIGTERM")
      await running.exited
    }
  }, 30_000)

  it("a client that hangs up in the middle of a body is no server failure: nothing is logged", async () => {
    const running = await start({ SCENARIO: writeScenario("hangup.json", testScenario) })
    const closed = new Promise((done) => running.child.once("close", done))
    const port = Number(new URL(running.baseUrl).port)
    /** Headers announcing 1000 bytes, a few of them, then `hangUp`; what the server sent before the close. */
    const truncated = (path: string, hangUp: "reset" | "half-close") =>
      new Promise<string>((resolve) => {
        const socket = connect(port, "127.0.0.1")
        let received = ""
        socket.setEncoding("latin1")
        socket.on("data", (chunk: string) => (received += chunk))
        socket.on("error", () => undefined)
        socket.on("close", () => resolve(received))
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${keys.aliceAll}\r\n` +
            `Content-Type: application/json\r\nX-Request-Id: hangup-${hangUp}\r\nContent-Length: 1000\r\n\r\n{"ms":`,
          () => (hangUp === "reset" ? socket.destroy() : socket.end())
        )
      })
    try {
      // A simulator route reads the body at once; /v1/trades only once the key is authenticated.
      for (const path of ["/v1/sim/clock/advance", "/v1/trades"]) {
        assert.strictEqual(await truncated(path, "reset"), "")
        // Half-closed, the connection is still there to hear that the body is incomplete.
        assert.match(await truncated(path, "half-close"), /^HTTP\/1\.1 400 /)
      }
      assert.strictEqual((await json(running, "GET", "/v1/health")).status, 200)
    } finally {
      running.child.kill("SIGTERM")
      await closed
    }
    assert.notMatch(running.output(), /failed|INTERNAL_ERROR|Interrupt|aborted/, running.output())
  }, 30_000)

  it("on SIGTERM finishes the request in flight and exits 0", async () => {
    const running = await start({ SCENARIO: writeScenario("term.json", testScenario) })
    const advance = await advanceInFlight(running)
    running.child.kill("SIGTERM")
    const reply = await advance.answer
    assert.strictEqual(reply.status, 200)
    assert.strictEqual(reply.body.data.now, "2026-01-03T00:00:00.000Z")
    // Its head was written after the server took the signal: one written before it keeps the connection open.
    assert.strictEqual(reply.headers.get("connection"), "close", "the answer came after the signal")
    assert.strictEqual(await running.exited, 0)
  }, 60_000)

  it("two fresh processes given the same calls write the same event log", async () => {
    const scenario = writeScenario("replay.json", testScenario)
    const session = async () => {
      const running = await start({ SCENARIO: scenario })
      try {
        const trade = { tokenIn: "SOL", tokenOut: "USDC", amountIn: "1.25", network: "solana" }
        await json(running, "POST", "/v1/trades", trade, keys.aliceAll)
        await json(running, "POST", "/v1/trades", {
          ...trade,
          tokenIn: "USDC",
          tokenOut: "ETH",
          network: "ethereum",
          amountIn: "50"
        }, keys.aliceAll)
        await json(running, "POST", "/v1/alerts", {
          type: "price",
          token: "SOL",
          condition: "below",
          targetPrice: 1,
          channel: "email"
        }, keys.aliceAll)
        await json(running, "POST", "/v1/sim/clock/advance", { ms: 30_000 })
        await json(running, "PUT", "/v1/sim/prices/SOL", { price: 0.5 })
        await json(running, "POST", "/v1/sim/faults", { network: "solana", kind: "congestion", durationMs: 60_000 })
        await json(running, "POST", "/v1/trades", trade, keys.bobAll)
        await json(running, "POST", "/v1/sim/clock/advance", { ms: 15 * 60_000 })
        const close = { headers: { connection: "close" } }
        const events = await fetch(running.baseUrl + "/v1/sim/events", close).then((r) => r.text())
        const outbox = await fetch(running.baseUrl + "/v1/sim/outbox", close).then((r) => r.text())
        return { events, outbox }
      } finally {
        running.child.kill("SIGTERM")
        await running.exited
      }
    }
    const first = await session()
    const second = await session()
    assert.isAbove(JSON.parse(first.events).data.events.length, 8)
    assert.strictEqual(first.events, second.events)
    assert.strictEqual(first.outbox, second.outbox)
  }, 60_000)

  it("off loopback the control routes take SIM_CONTROL_KEY, generated and printed once when unset", async () => {
    const scenario = writeScenario("control.json", testScenario)
    const open = await start({ SCENARIO: scenario, HOST: "0.0.0.0" })
    try {
      await waitUntil("the generated key", () => open.output().includes("shown once"))
      const printed = /Authorization: Bearer (\S+) \(generated now, shown once\)/.exec(open.output())
      assert.isNotNull(printed, open.output())
      const key = printed![1]!
      assert.lengthOf(open.output().split(key), 2, "the key is printed once")
      const refused = await json(open, "GET", "/v1/sim/clock")
      assert.strictEqual(refused.status, 401)
      assert.strictEqual(refused.body.error.code, "UNAUTHORIZED")
      assert.strictEqual((await json(open, "POST", "/v1/sim/clock/advance", { ms: 1000 }, keys.aliceAll)).status, 401)
      assert.strictEqual((await json(open, "POST", "/v1/sim/clock/advance", { ms: 1000 }, key)).status, 200)
      assert.strictEqual((await json(open, "GET", "/v1/health")).status, 200, "the public API is unchanged")
    } finally {
      open.child.kill("SIGTERM")
      await open.exited
    }
    const configured = await start({ SCENARIO: scenario, HOST: "0.0.0.0", SIM_CONTROL_KEY: "chosen-key-42" })
    try {
      assert.notInclude(configured.output(), "chosen-key-42")
      assert.notInclude(configured.output(), "generated now")
      assert.strictEqual((await json(configured, "GET", "/v1/sim/clock", undefined, "chosen-key-42")).status, 200)
      assert.strictEqual((await json(configured, "GET", "/v1/sim/clock")).status, 401)
    } finally {
      configured.child.kill("SIGTERM")
      await configured.exited
    }
    // 127.0.0.2 is loopback too (127.0.0.0/8): no key is needed there.
    const loopback = await start({ SCENARIO: scenario, HOST: "127.0.0.2" })
    try {
      assert.notInclude(loopback.output(), "SIM_CONTROL_KEY")
      const clock = await fetch(loopback.baseUrl.replace("127.0.0.1", "127.0.0.2") + "/v1/sim/clock", {
        headers: { connection: "close" }
      })
      assert.strictEqual(clock.status, 200)
    } finally {
      loopback.child.kill("SIGTERM")
      await loopback.exited
    }
  }, 60_000)

  it(
    "on SIGTERM answers requests on open keep-alive connections and a body still arriving, with Connection: close",
    async () => {
      const running = await start({ SCENARIO: writeScenario("drain.json", testScenario) })
      const port = Number(new URL(running.baseUrl).port)
      const open = (): Promise<{ send: (text: string) => void; received: () => string; closed: Promise<void> }> =>
        new Promise((resolve) => {
          const socket = connect(port, "127.0.0.1", () =>
            resolve({
              send: (text) => socket.write(text),
              received,
              closed
            }))
          let text = ""
          const received = () => text
          const closed = new Promise<void>((done) => socket.on("close", () => done()))
          socket.setEncoding("latin1")
          socket.on("data", (chunk: string) => (text += chunk))
          socket.on("error", () => undefined)
        })
      const keptAlive = await open()
      keptAlive.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
      await waitUntil("the health answer", () => keptAlive.received().includes("\"ok\""))
      assert.notMatch(keptAlive.received(), /connection: close/i)
      const body = JSON.stringify({ ms: 1000 })
      const slow = await open()
      // Node answers `Expect: 100-continue` once it has parsed the head and handed the request on:
      // from then on the request is the server's, with its body still to come.
      slow.send(
        `POST /v1/sim/clock/advance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n` +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`
      )
      await waitUntil("100 Continue", () => slow.received().startsWith("HTTP/1.1 100 Continue\r\n\r\n"))
      running.child.kill("SIGTERM")
      // No new connection is accepted once the server has taken the signal; the open ones stay.
      await waitUntil("a new connection to be refused", () => refusesConnections(port))
      keptAlive.send("GET /v1/sim/clock HTTP/1.1\r\nHost: x\r\n\r\n")
      slow.send(body.slice(4))
      await Promise.all([keptAlive.closed, slow.closed])
      const second = keptAlive.received().split("HTTP/1.1 ")[2] ?? ""
      assert.match(second, /^200 /, keptAlive.received())
      assert.match(second, /connection: close/i)
      assert.include(second, "\"mode\":\"manual\"")
      const answer = slow.received().slice("HTTP/1.1 100 Continue\r\n\r\n".length)
      assert.match(answer, /^HTTP\/1.1 200 /)
      assert.match(answer, /connection: close/i)
      assert.include(answer, "2026-01-01T00:00:01.000Z")
      assert.strictEqual(await running.exited, 0)
    },
    60_000
  )

  it(
    "started through npx pnpm start, SIGTERM reaches the server: the request in flight is answered and no process remains",
    async () => {
      const marker = `swapdesk-orphan-check-${process.pid}-${Date.now()}`
      // `pnpm start` builds the interface first: not while another test file's server reads it.
      const release = await holdInterface("build")
      const running = await start(
        { SCENARIO: writeScenario("npx.json", testScenario), SWAPDESK_TEST_MARKER: marker },
        ["npx", "-y", "pnpm@12.21.0", "start"]
      ).finally(release)
      const advance = await advanceInFlight(running)
      running.child.kill("SIGTERM")
      const reply = await advance.answer
      assert.strictEqual(reply.status, 200)
      assert.strictEqual(reply.headers.get("connection"), "close", "the answer came after the signal")
      await running.exited
      // Whichever process holds the marker in its environment is one the start left behind.
      const remaining = async () => {
        if (!existsSync("/proc")) return []
        const pids = readdirSync("/proc").filter((name) => /^[0-9]+$/.test(name))
        return pids.filter((pid) => {
          try {
            return readFileSync(`/proc/${pid}/environ`, "latin1").includes(marker)
          } catch {
            return false
          }
        })
      }
      await waitUntil("no process to remain", async () => (await remaining()).length === 0, { everyMs: 100 })
    },
    90_000
  )
})
