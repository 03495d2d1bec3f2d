// Proves the rules for operating the server safely, end to end through real servers on ephemeral
// ports: the /v1/sim routes take only the control key when it is required (off a loopback HOST) and
// are then rate limited by address, and merely accept it on loopback; every response carries nosniff and no-referrer, a keyed one
// no-store, Swagger UI a policy naming the hashes of its own inline assets; CORS answers only the
// configured origins (adding `Origin` to what a response already varies on); two Authorization
// headers are 401; the event log and the outbox are read by cursor, oldest first, and keep only
// their most recent entries; an advance is 1 ms to 31 days.
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { createHash } from "node:crypto"
import { request as httpRequest } from "node:http"
import { advance, call, keys, testScenario, testServer } from "./harness.ts"

const CONTROL_KEY = "operator-secret-0123456789"
const DAY_MS = 86_400_000

/** How a Content-Security-Policy names an inline script or stylesheet by its text. */
const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`

/** A GET sent by node:http, which can send a header twice, as the platform's client cannot. */
const rawGet = (path: string, headers: Record<string, string | Array<string>>) =>
  Effect.flatMap(
    HttpServer.HttpServer,
    (server) =>
      Effect.callback<{ status: number; headers: Record<string, unknown>; body: any }>((resume) => {
        const port = (server.address as { readonly port: number }).port
        const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (response) => {
          let text = ""
          response.setEncoding("utf8")
          response.on("data", (chunk: string) => (text += chunk))
          response.on(
            "end",
            () =>
              resume(
                Effect.succeed({ status: response.statusCode!, headers: response.headers, body: JSON.parse(text) })
              )
          )
        })
        req.on("error", (error) => resume(Effect.die(error)))
        req.end()
      })
  )

describe("operating the server safely", () => {
  layer(
    testServer({ ...testScenario, rateLimits: { unauthenticated: 4 } }, {
      control: { key: CONTROL_KEY, required: true }
    }),
    {
      excludeTestServices: true
    }
  )("control routes behind SIM_CONTROL_KEY", (it) => {
    it.effect("no key, a wrong key or an API key is 401; the control key passes; the control calls count by address", () =>
      Effect.gen(function*() {
        for (const key of [undefined, "wrong", keys.aliceAll, `${CONTROL_KEY}x`]) {
          const reply = yield* call("GET", "/v1/sim/clock", key === undefined ? {} : { key })
          assert.strictEqual(reply.status, 401, String(key))
          assert.strictEqual(reply.body.error.code, "UNAUTHORIZED")
          assert.strictEqual(reply.headers["www-authenticate"], "Bearer")
        }
        // The four refusals used the address's budget of 4: even the right key is now 429.
        const limited = yield* call("GET", "/v1/sim/clock", { key: CONTROL_KEY })
        assert.strictEqual(limited.status, 429)
        assert.strictEqual(limited.body.error.code, "RATE_LIMITED")
        assert.isString(limited.headers["retry-after"])
        assert.strictEqual(limited.headers["ratelimit-limit"], "4")
      }))
  })

  layer(testServer(testScenario, { control: { key: CONTROL_KEY, required: true } }), { excludeTestServices: true })(
    "the control key",
    (it) => {
      it.effect("opens every control route, which answer as before", () =>
        Effect.gen(function*() {
          const clock = yield* call("GET", "/v1/sim/clock", { key: CONTROL_KEY })
          assert.strictEqual(clock.status, 200)
          assert.strictEqual(clock.headers["cache-control"], "no-store")
          const moved = yield* call("POST", "/v1/sim/clock/advance", { key: CONTROL_KEY, body: { ms: 1000 } })
          assert.strictEqual(moved.status, 200)
          const price = yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: 123 } })
          assert.strictEqual(price.status, 401, "moving the market needs the key")
          assert.strictEqual((yield* call("GET", "/v1/sim/events")).status, 401, "reading the log needs the key")
        }))
    }
  )

  layer(testServer(testScenario, { control: { key: CONTROL_KEY, required: false } }), { excludeTestServices: true })(
    "a control key on loopback",
    (it) => {
      it.effect("is accepted but not required; any other header must still be a valid API key", () =>
        Effect.gen(function*() {
          assert.strictEqual((yield* call("GET", "/v1/sim/clock")).status, 200)
          assert.strictEqual((yield* call("GET", "/v1/sim/clock", { key: CONTROL_KEY })).status, 200)
          assert.strictEqual((yield* call("GET", "/v1/sim/clock", { key: keys.aliceAll })).status, 200)
          const wrong = yield* call("GET", "/v1/sim/clock", { key: `${CONTROL_KEY}x` })
          assert.strictEqual(wrong.status, 401)
          assert.strictEqual(wrong.body.error.code, "UNAUTHORIZED")
        }))
    }
  )

  layer(testServer(), { excludeTestServices: true })("headers, input and the logs", (it) => {
    it.effect("every response has nosniff and no-referrer; a keyed one no-store", () =>
      Effect.gen(function*() {
        const replies = [
          yield* call("GET", "/v1/health"),
          yield* call("GET", "/v1/nowhere"),
          yield* call("GET", "/v1/trades"),
          yield* call("POST", "/v1/sim/faults", { rawBody: "{}", headers: { "content-type": "text/plain" } })
        ]
        for (const reply of replies) {
          assert.strictEqual(reply.headers["x-content-type-options"], "nosniff")
          assert.strictEqual(reply.headers["referrer-policy"], "no-referrer")
          assert.isUndefined(reply.headers["cache-control"], "a response to no key may be cached")
          assert.isUndefined(reply.headers["access-control-allow-origin"])
        }
        for (const path of ["/v1/trades", "/v1/health", "/v1/nowhere"]) {
          const keyed = yield* call("GET", path, { key: keys.aliceAll })
          assert.strictEqual(keyed.headers["cache-control"], "no-store", path)
          assert.strictEqual(keyed.headers["x-content-type-options"], "nosniff")
        }
        assert.strictEqual(
          (yield* call("GET", "/v1/trades", { key: keys.unknown })).headers["cache-control"],
          "no-store"
        )
      }))

    it.effect("Swagger UI may run only its own inline script and stylesheet, and is never framed", () =>
      Effect.gen(function*() {
        const docs = yield* call("GET", "/docs")
        assert.strictEqual(docs.status, 200)
        assert.strictEqual(docs.headers["x-frame-options"], "DENY")
        const policy = docs.headers["content-security-policy"] ?? ""
        const script = /<script>([\s\S]*?)<\/script>/.exec(docs.text)![1]!
        const style = /<style>([\s\S]*?)<\/style>/.exec(docs.text)![1]!
        assert.include(policy, "default-src 'none'")
        assert.include(policy, `script-src ${sha(script)}`)
        assert.include(policy, `style-src ${sha(style)}`)
        assert.include(policy, "frame-ancestors 'none'")
        assert.notInclude(policy, "unsafe-inline")
        assert.isUndefined((yield* call("GET", "/v1/health")).headers["content-security-policy"])
      }))

    it.effect("two Authorization headers are 401, even on a public route", () =>
      Effect.gen(function*() {
        for (const path of ["/v1/health", "/v1/trades"]) {
          const reply = yield* rawGet(path, {
            authorization: [`Bearer ${keys.aliceAll}`, `Bearer ${keys.bobAll}`],
            "x-request-id": "two-keys"
          })
          assert.strictEqual(reply.status, 401, path)
          assert.strictEqual(reply.body.error.code, "UNAUTHORIZED")
          assert.strictEqual(reply.headers["x-request-id"], "two-keys")
          assert.strictEqual(reply.headers["www-authenticate"], "Bearer")
        }
        assert.strictEqual((yield* rawGet("/v1/trades", { authorization: `Bearer ${keys.aliceAll}` })).status, 200)
      }))

    it.effect("without CORS_ORIGINS a preflight is 405 and no response names an origin", () =>
      Effect.gen(function*() {
        const preflight = yield* call("OPTIONS", "/v1/trades", {
          headers: { origin: "https://app.example", "access-control-request-method": "POST" }
        })
        assert.strictEqual(preflight.status, 405)
        assert.isUndefined(preflight.headers["access-control-allow-origin"])
      }))

    it.effect("an advance takes 1 ms to 31 days, in whole milliseconds", () =>
      Effect.gen(function*() {
        for (const ms of [0, -1, 1.5, 31 * DAY_MS + 1]) {
          const reply = yield* advance(ms)
          assert.strictEqual(reply.status, 400, String(ms))
          assert.strictEqual(reply.body.error.code, "VALIDATION_ERROR")
        }
        assert.strictEqual((yield* advance(1)).status, 200)
      }))

    it.effect("the event log is read by cursor, oldest first, with nextAfter until nothing follows", () =>
      Effect.gen(function*() {
        yield* call("POST", "/v1/trades", {
          key: keys.aliceAll,
          body: { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.1", network: "solana" }
        })
        yield* advance(60_000)
        const first = yield* call("GET", "/v1/sim/events?limit=3")
        assert.deepStrictEqual(first.body.data.events.map((e: { seq: number }) => e.seq), [1, 2, 3])
        assert.strictEqual(first.body.data.nextAfter, 3)
        const next = yield* call("GET", "/v1/sim/events?after=3&limit=2")
        assert.deepStrictEqual(next.body.data.events.map((e: { seq: number }) => e.seq), [4, 5])
        const all = yield* call("GET", "/v1/sim/events")
        const total = all.body.data.events.length
        assert.isAbove(total, 5)
        assert.isBelow(total, 1000, "the default page holds the whole of this short log")
        assert.isNull(all.body.data.nextAfter)
        const end = yield* call("GET", `/v1/sim/events?after=${total}`)
        assert.deepStrictEqual(end.body.data, { events: [], nextAfter: null })
        for (const query of ["limit=0", "limit=10001", "after=-1", "after=x", "limit=1.5"]) {
          const bad = yield* call("GET", `/v1/sim/events?${query}`)
          assert.strictEqual(bad.status, 400, query)
          assert.strictEqual(bad.body.error.code, "VALIDATION_ERROR")
        }
        assert.strictEqual((yield* call("GET", "/v1/sim/events?limit=10000")).status, 200)
      }))

    it.effect("outbox items carry seq and page like the log", () =>
      Effect.gen(function*() {
        for (const target of [1, 2]) {
          yield* call("POST", "/v1/alerts", {
            key: keys.aliceAll,
            body: { type: "price", token: "SOL", condition: "above", targetPrice: target, channel: "email" }
          })
        }
        yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: 150 } })
        const page = yield* call("GET", "/v1/sim/outbox?limit=1")
        assert.lengthOf(page.body.data.notifications, 1)
        assert.strictEqual(page.body.data.notifications[0].seq, 1)
        assert.strictEqual(page.body.data.nextAfter, 1)
        const rest = yield* call("GET", "/v1/sim/outbox?after=1")
        assert.deepStrictEqual(rest.body.data.notifications.map((n: { seq: number }) => n.seq), [2])
        assert.isNull(rest.body.data.nextAfter)
      }))
  })

  layer(testServer(testScenario, { logMax: 10 }), { excludeTestServices: true })("a bounded log", (it) => {
    it.effect("keeps only the most recent SIM_LOG_MAX entries, numbered as before", () =>
      Effect.gen(function*() {
        for (let i = 0; i < 30; i++) yield* call("PUT", "/v1/sim/prices/SOL", { body: { price: 100 + i } })
        const kept = (yield* call("GET", "/v1/sim/events")).body.data
        const seqs = kept.events.map((e: { seq: number }) => e.seq)
        assert.lengthOf(seqs, 10)
        assert.isAbove(seqs[0], 20, "the oldest entries were dropped")
        assert.deepStrictEqual(seqs, seqs.map((_: number, i: number) => seqs[0] + i))
        assert.strictEqual(kept.events.at(-1).data.price, 129)
        // A cursor older than the window reads from the oldest entry kept.
        const stale = (yield* call("GET", "/v1/sim/events?after=2&limit=2")).body.data
        assert.deepStrictEqual(stale.events.map((e: { seq: number }) => e.seq), seqs.slice(0, 2))
      }))
  })

  layer(testServer(testScenario, { corsOrigins: ["https://app.example"] }), { excludeTestServices: true })(
    "CORS_ORIGINS",
    (it) => {
      it.effect("an allowed origin may read answers and preflights; another may not", () =>
        Effect.gen(function*() {
          const allowed = yield* call("GET", "/v1/trades", {
            key: keys.aliceAll,
            headers: { origin: "https://app.example" }
          })
          assert.strictEqual(allowed.headers["access-control-allow-origin"], "https://app.example")
          assert.strictEqual(allowed.headers["vary"], "Origin")
          assert.include(allowed.headers["access-control-expose-headers"], "X-Request-Id")
          assert.include(allowed.headers["access-control-expose-headers"], "RateLimit-Remaining")
          assert.include(allowed.headers["access-control-expose-headers"], "Retry-After")
          const other = yield* call("GET", "/v1/health", { headers: { origin: "https://evil.example" } })
          assert.isUndefined(other.headers["access-control-allow-origin"])
          assert.strictEqual(other.headers["vary"], "Origin")
          // A file of the interface varies on its encoding too: both are kept.
          const page = yield* call("GET", "/", {
            headers: { origin: "https://app.example", "accept-encoding": "gzip" }
          })
          assert.strictEqual(page.headers["content-encoding"], "gzip")
          assert.strictEqual(page.headers["vary"], "Accept-Encoding, Origin")

          const preflight = yield* call("OPTIONS", "/v1/trades", {
            headers: {
              origin: "https://app.example",
              "access-control-request-method": "POST",
              "access-control-request-headers": "authorization, content-type, idempotency-key"
            }
          })
          assert.strictEqual(preflight.status, 204)
          assert.strictEqual(preflight.headers["access-control-allow-origin"], "https://app.example")
          assert.includeMembers(preflight.headers["access-control-allow-methods"]!.split(", "), ["GET", "POST"])
          assert.strictEqual(
            preflight.headers["access-control-allow-headers"],
            "Authorization, Content-Type, Idempotency-Key, X-Request-Id"
          )
          assert.isString(preflight.headers["x-request-id"])
          const refused = yield* call("OPTIONS", "/v1/trades", {
            headers: { origin: "https://evil.example", "access-control-request-method": "POST" }
          })
          assert.strictEqual(refused.status, 405)
          assert.isUndefined(refused.headers["access-control-allow-origin"])
        }))
    }
  )
})
