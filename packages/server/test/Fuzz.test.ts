// Proves that no request, however malformed, gets a 5xx or an answer outside the contract, and that
// none moves funds it should not: a real server on port 0 (built as main.ts builds it, with the
// answers to requests Node's parser refuses), fed over keep-alive connections, 16 at a time, with
// requests fast-check generates (pinned seed) for every route of the OpenAPI document the server
// serves, which is made from the API definition (and checked against it here), so a new route is
// fuzzed without a line here. Each request is a valid one built from the route's own schemas and
// examples, or one with something wrong: wrong types, missing and extra fields, exponent, negative
// and 10^40 decimals, unicode and control characters, deep nesting, raw numbers JSON cannot hold,
// malformed and oversized bodies, odd content types and headers, odd path ids, other methods. Every
// error answer must carry a code from the catalogue with the catalogue's status, every success must
// decode with its endpoint's success schema leaving no field over, and every status must be one the
// document gives the route; afterwards the funds balance per token (conservation.ts), before and
// after every pending trade has ended. A second test writes requests byte by byte (framing, request
// lines, headers, line ends, pipelining). The run is repeated with the records in SQLite.
import { assert, layer } from "@effect/vitest"
import { fc } from "@fast-check/vitest"
import { errorCatalogue, type ErrorCode } from "@swapdesk/core"
import type { SimulatorRepositories } from "@swapdesk/simulator"
import { SqlStore } from "@swapdesk/store"
import { Effect, Exit, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { SimulatorBackedApi } from "../src/api/SimulatorApi.ts"
import { fundsProblems } from "./conservation.ts"
import { collectionOf, idPool, operationsOf, requestsFor } from "./fuzzRequests.ts"
import { advance, call, keys, testScenario } from "./harness.ts"
import { liveServer, portOf } from "./liveServer.ts"
import { rawClient, type RawReply, type RawRequest } from "./rawClient.ts"
import { answersIn, exchange, type RawAnswer, rawHead } from "./rawRequests.ts"
import { webhookReceiver } from "./standIns.ts"

/** How many requests one run sends. */
const REQUESTS = 10_000
/** Connections open at once. */
const CONNECTIONS = 16
/** The run's seed; FUZZ_SEED runs another. */
const SEED = Number(process.env["FUZZ_SEED"] ?? 1301)

const workDir = mkdtempSync(join(tmpdir(), "swapdesk-fuzz-"))
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

const scenario = testScenario

/** Where the server keeps its records: in memory, and in SQLite. */
const stores: ReadonlyArray<{ readonly name: string; readonly repositories?: SimulatorRepositories<unknown> }> = [
  { name: "in memory" },
  { name: "in SQLite", repositories: SqlStore.layer({ _tag: "Sqlite", filename: join(workDir, "fuzz.db") }) }
]

/** How many byte-level requests one run writes. */
const RAW_REQUESTS = 1_000

/** The definition's endpoints, by HttpApi.reflect, in the document's `METHOD /path/{param}` form. */
const definedRoutes: Array<string> = []
/**
 * Routes whose success needs live mode: an order awaiting its external wallet's signature, which
 * the simulator never creates (its wallets sign at creation). Their refusals are still checked.
 */
const liveOnlySuccess = new Set(["POST /v1/orders/{id}/signature"])
/** Each endpoint's success schemas: a success body must decode with one of them, with no field left over. */
const successSchemas = new Map<string, ReadonlyArray<Schema.Top>>()
HttpApi.reflect(SimulatorBackedApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint }) => {
    const route = `${endpoint.method} ${endpoint.path.replace(/:([A-Za-z]+)/g, "{$1}")}`
    definedRoutes.push(route)
    successSchemas.set(route, [...endpoint.success])
  }
})

/** Why `body` is not a success `route` documents; undefined when it is one. */
const undocumented = (route: string, body: unknown): string | undefined => {
  const failures: Array<string> = []
  for (const schema of successSchemas.get(route) ?? []) {
    const exit = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>)(body, { onExcessProperty: "error" })
    if (Exit.isSuccess(exit)) return undefined
    failures.push(String(exit.cause).slice(0, 400))
  }
  return `not the documented success of ${route}: ${failures.join("; ")}`
}

// ---------------------------------------------------------------------------------------------
// What every answer must be.

const codes = new Set(Object.keys(errorCatalogue))
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * What is wrong with `reply` as an answer to `request`; undefined when nothing is. With `route`, the
 * endpoint the request was addressed to, a success must also be what that endpoint documents.
 */
const problemWith = (request: RawRequest, reply: RawReply, route?: string): string | undefined => {
  if (reply.status >= 500) return `a ${reply.status}: ${reply.text.slice(0, 300)}`
  if (typeof reply.headers["x-request-id"] !== "string") return "no X-Request-Id"
  if (request.method === "HEAD" || reply.status === 204) {
    return reply.text === "" ? undefined : `a body on a ${reply.status} to ${request.method}`
  }
  const body = reply.json
  if (body === undefined) return `not JSON (${String(reply.headers["content-type"])}): ${reply.text.slice(0, 200)}`
  if (typeof body.timestamp !== "string" || !iso.test(body.timestamp)) return `no ISO timestamp: ${reply.text}`
  if (reply.status < 400) {
    if (body.success !== true || !("data" in body)) return `a ${reply.status} outside the envelope`
    return route === undefined ? undefined : undocumented(route, body)
  }
  const error = body.error
  if (body.success !== false || typeof error !== "object" || error === null) return `not an error envelope`
  if (!codes.has(error.code)) return `code ${String(error.code)} is not in the catalogue`
  if (errorCatalogue[error.code as ErrorCode].status !== reply.status) {
    return `${error.code} answered ${reply.status}, the catalogue says ${
      errorCatalogue[error.code as ErrorCode].status
    }`
  }
  if (typeof error.message !== "string" || error.message === "") return "no message"
  if (error.code === "VALIDATION_ERROR") {
    const details = error.details
    if (!Array.isArray(details) || details.length === 0) return "VALIDATION_ERROR without details"
    for (const d of details) {
      if (typeof d?.path !== "string" || typeof d?.message !== "string") return `a bad detail: ${JSON.stringify(d)}`
    }
  } else if ("details" in error) {
    return `details on ${error.code}`
  }
  return undefined
}

const describeRequest = (request: RawRequest) =>
  `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)} ${
    request.chunked ? "(chunked) " : ""
  }${(request.body ?? "").slice(0, 300)}`

/**
 * What is wrong with a byte-level answer; undefined when nothing is. A success outside `/v1` may be
 * the trading interface's HTML (`GET *` is one).
 */
const rawProblem = (answer: RawAnswer, bytes: string): string | undefined => {
  if (answer.status === 100) return undefined
  if (answer.status < 400 && !/^[A-Za-z]+ \/v1\//.test(bytes)) return answer.status < 500 ? undefined : "a 5xx"
  const reply: RawReply = {
    status: answer.status,
    headers: answer.headers,
    text: Buffer.from(answer.body, "latin1").toString("utf8"),
    json: (() => {
      try {
        return JSON.parse(Buffer.from(answer.body, "latin1").toString("utf8"))
      } catch {
        return undefined
      }
    })()
  }
  return problemWith({ method: "GET", path: "/", headers: {} }, reply)
}

// ---------------------------------------------------------------------------------------------

for (const store of stores) {
  const server = liveServer(scenario, store.repositories)
  layer(server.layer, { excludeTestServices: true })(
    `fuzzing every route from the API's schemas, records ${store.name}`,
    (it) => {
      it.effect(
        `${
          REQUESTS.toLocaleString("en")
        } generated requests: never a 5xx, every error in the envelope, funds conserved`,
        () =>
          Effect.scoped(Effect.gen(function*() {
            const receiver = yield* webhookReceiver
            const world = server.world()
            const doc = (yield* call("GET", "/v1/openapi.json")).body
            const operations = operationsOf(doc)
            // A path the router cannot take (`%ZZ`) is NOT_FOUND on any route; every other status must be documented.
            const statusesOf = new Map(operations.map((op) => [`${op.method} ${op.path}`, op.statuses]))
            assert.sameMembers(
              operations.map((op) => `${op.method} ${op.path}`),
              definedRoutes,
              "the served document names every route of the definition"
            )
            for (
              const route of [
                "POST /v1/orders",
                "POST /v1/alerts",
                "PUT /v1/account/notifications",
                "POST /v1/webhooks",
                "POST /v1/auth/api-keys"
              ]
            ) assert.include(definedRoutes, route)

            // Resources of both accounts, so that path ids and tradeIds name real things.
            const pool = idPool()
            const seed = (key: string, path: string, body: unknown) =>
              Effect.map(call("POST", path, { key, body }), (reply) => {
                if (reply.status === 201 && typeof reply.body?.data?.id === "string") pool.add(path, reply.body.data.id)
              })
            for (const key of [keys.aliceAll, keys.bobAll]) {
              yield* seed(key, "/v1/trades", { tokenIn: "SOL", tokenOut: "USDC", amountIn: "0.01", network: "solana" })
              yield* seed(key, "/v1/trades", { tokenIn: "USDC", tokenOut: "ETH", amountIn: "1", network: "ethereum" })
              yield* seed(key, "/v1/orders", {
                tokenIn: "SOL",
                tokenOut: "USDC",
                amountIn: "0.01",
                minAmountOut: "100",
                network: "solana"
              })
              yield* seed(key, "/v1/alerts", {
                type: "price",
                token: "SOL",
                condition: "above",
                targetPrice: 100_000,
                channel: "email"
              })
              yield* seed(key, "/v1/webhooks", { url: receiver.url, events: ["trade.confirmed"] })
              yield* seed(key, "/v1/auth/api-keys", { name: "fuzz", scopes: ["read"] })
            }
            // Trades awaiting the ethereum wallet's approval, so that answers to them can succeed
            // before the clock routes time them out.
            for (let i = 0; i < 8; i++) {
              yield* seed(keys.aliceAll, "/v1/trades", {
                tokenIn: "USDC",
                tokenOut: "ETH",
                amountIn: "1",
                network: "ethereum"
              })
            }
            assert.isAtLeast(pool.size(), 10, "the seeded resources exist")

            const arbitrary = fc.oneof(...operations.map((op) => requestsFor(op, receiver.url)))
            const planned = fc.sample(arbitrary, { seed: SEED, numRuns: REQUESTS })
            assert.lengthOf(planned, REQUESTS)

            const client = rawClient(portOf(world), CONNECTIONS)
            yield* Effect.addFinalizer(() => Effect.sync(client.close))
            const fill = pool.fill
            const problems: Array<string> = []
            const perRoute = new Map<string, { sent: number; ok: number; validOk: number; valid: number }>()
            const byStatus = new Map<number, number>()
            const byCode = new Map<string, number>()
            yield* Effect.forEach(
              planned,
              ({ exact, request: planned, route, valid }) =>
                Effect.gen(function*() {
                  const request: RawRequest = {
                    ...planned,
                    path: fill(planned.path),
                    body: planned.body === undefined ? undefined : fill(planned.body)
                  }
                  const reply = yield* Effect.result(client.send(request))
                  const tally = perRoute.get(route) ?? { sent: 0, ok: 0, validOk: 0, valid: 0 }
                  perRoute.set(route, tally)
                  tally.sent++
                  if (valid) tally.valid++
                  if (reply._tag === "Failure") {
                    problems.push(`${reply.failure.message}: ${describeRequest(request)}`)
                    return
                  }
                  const answer = reply.success
                  byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1)
                  if (answer.json?.error?.code) {
                    byCode.set(answer.json.error.code, (byCode.get(answer.json.error.code) ?? 0) + 1)
                  }
                  if (answer.status < 300) {
                    tally.ok++
                    if (valid) {
                      tally.validOk++
                    }
                    const id = answer.json?.data?.id
                    if (typeof id === "string") pool.add(collectionOf(route.split(" ")[1]!), id)
                  }
                  // An empty path id leaves a path another route takes (`/v1/orders/` is the list).
                  const target = request.path.split("?")[0]!
                  const own = exact && !target.endsWith("/") && !target.includes("//")
                  const documented = own && answer.json?.error?.code !== "NOT_FOUND"
                    ? statusesOf.get(route)!
                    : undefined
                  const problem = problemWith(request, answer, own ? route : undefined)
                    ?? (documented === undefined || documented.has(String(answer.status))
                      ? undefined
                      : `${answer.status} is not among the statuses the document gives ${route}`)
                  if (problem !== undefined) problems.push(`${problem}\n    for ${describeRequest(request)}`)
                }),
              { concurrency: CONNECTIONS, discard: true }
            )
            const sent = [...perRoute.values()].reduce((n, t) => n + t.sent, 0)
            assert.strictEqual(sent, REQUESTS)
            assert.deepStrictEqual(problems.slice(0, 10), [], `${problems.length} of ${REQUESTS} answers were wrong`)

            // The run reached every route, and valid requests succeeded on most of them.
            assert.sameMembers([...perRoute.keys()], definedRoutes)
            const neverOk = [...perRoute].filter(([route, t]) => t.ok === 0 && !liveOnlySuccess.has(route))
              .map(([route]) => route)
            assert.deepStrictEqual(neverOk, [], `routes no request succeeded on: ${JSON.stringify([...perRoute])}`)
            for (const code of ["VALIDATION_ERROR", "MALFORMED_JSON", "UNAUTHORIZED", "INSUFFICIENT_SCOPE"]) {
              assert.isAbove(byCode.get(code) ?? 0, 0, `some request was refused with ${code}`)
            }
            for (const code of ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "NOT_FOUND", "METHOD_NOT_ALLOWED"]) {
              assert.isAbove(byCode.get(code) ?? 0, 0, `some request was refused with ${code}`)
            }

            // The server still answers, and the funds balance now and once every trade has ended.
            assert.strictEqual((yield* call("GET", "/v1/health")).status, 200)
            assert.deepStrictEqual(yield* fundsProblems(scenario, world), [])
            yield* advance(30 * 60_000)
            assert.deepStrictEqual(yield* fundsProblems(scenario, world), [])
            const pending = (yield* call("GET", "/v1/trades?status=pending&limit=1", { key: keys.bobAll })).body.data
            assert.strictEqual(pending.total, 0, "every trade has ended")
          })),
        300_000
      )

      it.effect(
        `${RAW_REQUESTS.toLocaleString("en")} byte-level requests: each answered in the envelope or not at all`,
        () =>
          Effect.gen(function*() {
            const port = portOf(server.world())
            const routes = definedRoutes.map((route) => route.replace(/\{[A-Za-z]+\}/g, "x"))
            const planned = fc.sample(rawHead(routes), { seed: SEED, numRuns: RAW_REQUESTS })
            const problems: Array<string> = []
            let answered = 0
            yield* Effect.forEach(planned, (bytes) =>
              Effect.map(exchange(port, bytes), (text) => {
                const { answers, problem } = answersIn(text)
                if (answers.length > 0) answered++
                for (const p of [problem, ...answers.map((a) => rawProblem(a, bytes))]) {
                  if (p !== undefined) problems.push(`${p}\n    for ${JSON.stringify(bytes.slice(0, 300))}`)
                }
              }), { concurrency: CONNECTIONS, discard: true })
            assert.deepStrictEqual(
              problems.slice(0, 10),
              [],
              `${problems.length} of ${RAW_REQUESTS} were answered wrongly`
            )
            assert.isAbove(answered, RAW_REQUESTS * 0.9, "nearly every request was answered")
            assert.strictEqual((yield* call("GET", "/v1/health")).status, 200)
          }),
        120_000
      )
    }
  )
}
