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
import { errorCatalogue, type ErrorCode, tokens } from "@swapdesk/core"
import { DEFAULT_REQUEST_PATH } from "@swapdesk/http"
import type { SimulatorRepositories } from "@swapdesk/simulator"
import { SqlStore } from "@swapdesk/store"
import { Effect, Exit, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { SimulatorBackedApi } from "../src/api/SimulatorApi.ts"
import { fundsProblems } from "./conservation.ts"
import { advance, call, keys, requestPath, testScenario } from "./harness.ts"
import { liveServer, portOf } from "./liveServer.ts"
import { rawClient, type RawReply, type RawRequest } from "./rawClient.ts"
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

/**
 * Where the server keeps its records: in memory, and on the default request path also in SQLite
 * (the request path and the store are independent, so one run of each covers both).
 */
const stores: ReadonlyArray<{ readonly name: string; readonly repositories?: SimulatorRepositories<unknown> }> = [
  { name: "in memory" },
  ...(requestPath === DEFAULT_REQUEST_PATH
    ? [{ name: "in SQLite", repositories: SqlStore.layer({ _tag: "Sqlite", filename: join(workDir, "fuzz.db") }) }]
    : [])
]

// ---------------------------------------------------------------------------------------------
// The routes, as the served OpenAPI document describes them.

interface JsonSchema {
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly pattern?: string
  readonly minLength?: number
  readonly maxLength?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly minItems?: number
  readonly maxItems?: number
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly examples?: ReadonlyArray<unknown>
}

interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly schema: JsonSchema
  readonly required: boolean
  readonly example?: unknown
}

interface Operation {
  readonly method: string
  /** The OpenAPI template, `/v1/alerts/{id}`. */
  readonly path: string
  readonly parameters: ReadonlyArray<Parameter>
  readonly body: JsonSchema | undefined
  readonly bodyExamples: ReadonlyArray<unknown>
  readonly secured: boolean
  /** The statuses the document gives its answers. */
  readonly statuses: ReadonlySet<string>
}

const operationsOf = (doc: any): Array<Operation> => {
  const out: Array<Operation> = []
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const json = op.requestBody?.content?.["application/json"]
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: json?.schema,
        bodyExamples: [...(json?.schema?.examples ?? []), ...(json?.example === undefined ? [] : [json.example])],
        secured: (op.security ?? []).length > 0,
        statuses: new Set(Object.keys(op.responses ?? {}))
      })
    }
  }
  return out
}

/** The definition's endpoints, by HttpApi.reflect, in the document's `METHOD /path/{param}` form. */
const definedRoutes: Array<string> = []
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
// Values: valid ones from the schemas (with realistic ones for the fields that name things), and
// the wrong ones a careless or hostile client sends.

/**
 * A placeholder replaced, when the request is sent, by one of the ids the run has seen created under
 * `collection` (`/v1/orders`), or by any id when that collection has none.
 */
const poolId = (collection: string) => fc.nat(100_000).map((pick) => `{{pool:${collection}:${pick}}}`)

/** The collection a route's path id comes from: the path before its first parameter. */
const collectionOf = (path: string) => path.split("/{")[0]!

const START_MS = Date.parse("2026-01-01T00:00:00Z")
const isoNear = fc.integer({ min: -40 * 86_400_000, max: 40 * 86_400_000 }).map((offset) =>
  new Date(START_MS + offset).toISOString()
)
const symbols = tokens.map((t) => t.symbol)
const addresses = tokens.flatMap((t) => Object.values(t.addresses))
const tokenArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("SOL", "USDC", "ETH") },
  { weight: 4, arbitrary: fc.constantFrom(...symbols) },
  { weight: 2, arbitrary: fc.constantFrom(...addresses) },
  { weight: 1, arbitrary: fc.constantFrom(...symbols.map((s) => s.toLowerCase())) }
)
const decimalArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("0.001", "0.01", "0.05", "0.1", "1", "2.5", "250", "1000") },
  { weight: 1, arbitrary: fc.constantFrom(`1${"0".repeat(40)}`, `0.${"0".repeat(30)}1`, "0", "0.000000001") }
)

/** Fields whose schema-made values cost too much to send often: only realistic ones are sent. */
const onlyRealistic = new Set(["ms"])

/** Realistic valid values for the fields that name things a schema cannot (tokens, ids, times). */
const realistic = (receiverUrl: string): Record<string, fc.Arbitrary<unknown>> => ({
  token: tokenArb,
  tokenIn: tokenArb,
  tokenOut: tokenArb,
  amountIn: decimalArb,
  minAmountOut: decimalArb,
  expiresAt: isoNear,
  from: isoNear,
  to: isoNear,
  // A long advance costs real seconds; the fuzz moves the clock in small steps.
  ms: fc.integer({ min: 1, max: 120_000 }),
  durationMs: fc.integer({ min: 1, max: 3_600_000 }),
  price: fc.oneof(fc.double({ min: 0.0001, max: 1e6, noNaN: true }), fc.constantFrom(1e-9, 1e12, 1e40)),
  targetPrice: fc.oneof(fc.double({ min: 0.01, max: 1e6, noNaN: true }), fc.constant(1e40)),
  valueUsd: fc.double({ min: 1, max: 1e12, noNaN: true }),
  tradeId: poolId("/v1/trades"),
  url: fc.constant(receiverUrl),
  name: fc.string({ minLength: 1, maxLength: 100 }),
  "idempotency-key": fc.oneof(fc.constantFrom("k1", "k2", "k3"), fc.string({ minLength: 1, maxLength: 40 }))
})

/** A value the schema accepts (or, for the fields with realistic values, one a real client sends). */
const validOf = (schema: JsonSchema, overrides: Record<string, fc.Arbitrary<unknown>>, name?: string) => {
  const fromSchema = schemaValue(schema, overrides)
  const realisticValue = name === undefined ? undefined : overrides[name]
  if (realisticValue !== undefined && onlyRealistic.has(name!)) return realisticValue
  return realisticValue === undefined
    ? fromSchema
    : fc.oneof({ weight: 4, arbitrary: realisticValue }, { weight: 1, arbitrary: fromSchema })
}

const schemaValue = (schema: JsonSchema, overrides: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> => {
  const union = schema.anyOf ?? schema.oneOf
  if (union !== undefined) return fc.oneof(...union.map((s) => schemaValue(s, overrides)))
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  switch (schema.type) {
    case "string": {
      const maxLength = Math.min(schema.maxLength ?? 40, 300)
      const minLength = schema.minLength ?? 0
      if (schema.pattern !== undefined) {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) =>
          s.length >= minLength && s.length <= maxLength
        )
      }
      return fc.string({ minLength, maxLength })
    }
    case "integer":
      return fc.integer({ min: Math.ceil(schema.minimum ?? -1e9), max: Math.floor(schema.maximum ?? 1e9) })
    case "number": {
      const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1e-9 : schema.minimum ?? -1e9
      return fc.double({ min, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true })
    }
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array":
      return fc.array(schemaValue(schema.items ?? {}, overrides), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 6))
      })
    case "object": {
      const properties = schema.properties ?? {}
      const required = new Set(schema.required ?? [])
      const entries = Object.entries(properties).map(([key, s]) =>
        fc.tuple(fc.constant(key), validOf(s, overrides, key), fc.boolean()).map(([k, v, include]) =>
          required.has(k) || include ? [[k, v] as const] : []
        )
      )
      return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.flat()))
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** Strings that break parsers: decimals no schema should take, unicode, control characters, sizes. */
const nastyString = fc.oneof(
  fc.constantFrom(
    "1e5",
    "1E-7",
    "-1",
    "-0",
    "-0.0",
    "+1",
    "0x1f",
    "1_000",
    "1,5",
    " 1",
    "1 ",
    "١٢٣",
    `1${"0".repeat(40)}`,
    `-1${"0".repeat(40)}`,
    `0.${"0".repeat(40)}1`,
    "9".repeat(400),
    "1.",
    ".1",
    "00.1",
    "NaN",
    "Infinity",
    "-Infinity",
    "",
    " ",
    "null",
    "true",
    "\u0000",
    "a\u0000b",
    "\u202eRTL",
    "\ud800",
    "\udfff\ud800",
    "💸🚀",
    "Z\u0301\u0327",
    "\r\nX-Injected: 1",
    "<script>alert(1)</script>",
    "'; DROP TABLE trades; --",
    "../../etc/passwd",
    "%00",
    "__proto__",
    "constructor",
    "x".repeat(70_000)
  ),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ unit: "grapheme", maxLength: 30 })
)

/** Numbers a JSON text can carry but a double cannot, or should not: spliced in as raw text. */
const rawNumber = fc.constantFrom(
  "1e400",
  "-1e400",
  "1e-400",
  "1e40",
  "10000000000000000000000000000000000000000",
  "-0",
  "1.7976931348623157e308",
  "5e-324",
  "-5",
  "0",
  "1E5",
  "123456789012345678901234567890.123456789",
  "9007199254740993"
)

/** A value of the wrong type for whatever field it replaces. */
const wrongType = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, [], {}, [1, 2], { a: 1 }, "", "x"),
  fc.jsonValue({ maxDepth: 3 })
)

const nested = (depth: number, kind: "array" | "object") =>
  kind === "array" ? "[".repeat(depth) + "]".repeat(depth) : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

const malformedText = fc.constantFrom(
  "{",
  "{\"a\":",
  "{'a':1}",
  "\uFEFF{}",
  "{}garbage",
  "[",
  "nul",
  "{\"a\":1,}",
  "{\"a\":1 \"b\":2}",
  "\"unterminated",
  "{\"__proto__\":{\"polluted\":true},\"constructor\":{\"prototype\":{\"x\":1}}}",
  "{\"type\":\"price\",\"type\":\"volume\"}",
  "\u0000",
  "   ",
  "NaN",
  "{\"a\":\"\\ud800\"}",
  "{\"a\":\"\\u0000\"}"
)

/** Splices `raw` (text) into a JSON body in place of the value of `key`. */
const splice = (body: Record<string, unknown>, key: string, raw: string) =>
  JSON.stringify({ ...body, [key]: "@@RAW@@" }).replace("\"@@RAW@@\"", raw)

// ---------------------------------------------------------------------------------------------
// Requests.

/** What a generated request is before the ids it names are filled in. */
interface Planned {
  readonly route: string
  readonly request: RawRequest
  /** Whether the request was built to be valid. */
  readonly valid: boolean
  /** Whether it went to the route's own method and path, so that a success is the route's. */
  readonly exact: boolean
}

const authArb: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 30, arbitrary: fc.constant({ authorization: `Bearer ${keys.aliceAll}` }) },
  { weight: 30, arbitrary: fc.constant({ authorization: `Bearer ${keys.bobAll}` }) },
  {
    weight: 8,
    arbitrary: fc.constantFrom(keys.aliceRead, keys.aliceTrade, keys.aliceAlerts, keys.aliceAccount).map((k) => ({
      authorization: `Bearer ${k}`
    }))
  },
  { weight: 8, arbitrary: fc.constant({}) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      `Bearer ${keys.aliceExpired}`,
      `Bearer ${keys.unknown}`,
      "Bearer",
      "Bearer ",
      `bearer ${keys.bobAll}`,
      `Bearer  ${keys.bobAll}`,
      `Bearer ${keys.bobAll} `,
      `Bearer ${keys.bobAll}x`,
      `Token ${keys.bobAll}`,
      "Basic YWxpY2U6c2VjcmV0",
      `Bearer ${"x".repeat(8000)}`,
      "Bearer sd_test_\u00e9\u00e9\u00e9",
      `Bearer ${keys.bobAll}, Bearer ${keys.aliceAll}`
    ).map((authorization) => ({ authorization }))
  }
)

const contentTypes = fc.constantFrom(
  "application/json; charset=utf-8",
  "application/json;charset=UTF-8",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "application/json; foo=bar",
  "application/json, text/plain",
  "application/vnd.api+json",
  "application/merge-patch+json",
  "text/plain",
  "text/json",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "",
  ";",
  "application/"
)

/** Header values Node's client will send (visible ASCII and Latin-1), odd all the same. */
const headerValue = fc.oneof(
  fc.constantFrom("", " ", "x".repeat(300), "\u00e9\u00fc", "a b\tc", "*/*", "0", "-1", "gzip, br", "close"),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 })
)

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.record({ "content-encoding": fc.constantFrom("gzip", "identity", "br", "deflate, gzip") }),
  fc.record({ "x-request-id": headerValue }),
  fc.record({ accept: fc.constantFrom("text/html", "application/xml", "*/*", "", "application/json;q=0") }),
  fc.record({ "idempotency-key": headerValue }),
  fc.record({ "x-http-method-override": fc.constantFrom("DELETE", "PUT", "PATCH") }),
  fc.record({ origin: fc.constantFrom("https://evil.example", "null", "http://127.0.0.1") }),
  fc.record({ "accept-encoding": fc.constantFrom("gzip", "*", "identity;q=0") }),
  fc.record({ cookie: headerValue, range: fc.constant("bytes=0-1") }),
  fc.record({ "x-forwarded-for": fc.constantFrom("1.2.3.4", "::1", "x, y, z") }),
  fc.record({ "if-none-match": fc.constant("*"), "if-modified-since": headerValue })
)

/** Odd path ids, already escaped for a request target. */
const oddId = fc.oneof(
  fc.constantFrom(
    "x",
    ".",
    "..",
    "%2e%2e",
    "%2F",
    "a%2Fb",
    "%00",
    "%ZZ",
    "%C0%AF",
    "%E2%80%AE",
    "%ED%A0%80",
    "x".repeat(300),
    "x".repeat(6000),
    "1e5",
    "-1",
    "null",
    "undefined",
    "__proto__",
    "constructor",
    "%20",
    "trd_",
    "ord_%00",
    "a;b",
    "a,b",
    "*",
    "$",
    "~"
  ),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }).map(escapeSegment)
)

/** Escapes as encodeURIComponent does, and a lone surrogate as the bytes it would be in WTF-8. */
function escapeSegment(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return "%ED%A0%80"
  }
}

const queryText = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.length === 0 ? "" : "?" + pairs.map(([k, v]) => `${escapeSegment(k)}=${escapeSegment(v)}`).join("&")

const text = (value: unknown) => typeof value === "string" ? value : JSON.stringify(value)

const otherMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND"]

/** A request with a JSON `Content-Type` when it has a body. */
const withMethod = (method: string, path: string, body: string | undefined, headers: Record<string, string>) => ({
  method,
  path,
  headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
  body
})

/** Every kind of request to one operation, each with its weight. */
const requestsFor = (op: Operation, receiverUrl: string): fc.Arbitrary<Planned> => {
  const shared = realistic(receiverUrl)
  const route = `${op.method} ${op.path}`
  const poolIdArb = poolId(collectionOf(op.path))
  const overrides = { ...shared, id: poolIdArb }
  const pathParams = op.parameters.filter((p) => p.in === "path")
  const queryParams = op.parameters.filter((p) => p.in === "query")
  const headerParams = op.parameters.filter((p) => p.in === "header")

  const validPath = fc.tuple(...pathParams.map((p) => validOf(p.schema, overrides, p.name).map(text))).map((ids) =>
    ids.reduce<string>((path, id, i) => path.replace(`{${pathParams[i]!.name}}`, escapeId(id)), op.path)
  )
  const badPath = fc.tuple(...pathParams.map(() => fc.oneof(oddId, poolIdArb))).map((ids) =>
    ids.reduce<string>((path, id, i) => path.replace(`{${pathParams[i]!.name}}`, id), op.path)
  )
  const validQuery = fc.tuple(
    ...queryParams.map((p) =>
      fc.tuple(fc.constant(p.name), validOf(p.schema, overrides, p.name).map(text), fc.boolean()).map((
        [k, v, include]
      ) => (p.required || include ? [[k, v] as const] : []))
    )
  ).map((pairs) => pairs.flat())
  const badQuery = fc.tuple(validQuery, fc.nat(), nastyString, fc.string({ maxLength: 10 })).chain((
    [pairs, pick, nasty, extraName]
  ) =>
    fc.constantFrom(
      // One parameter's value replaced by something no schema takes.
      queryText(
        pairs.length === 0 || queryParams.length === 0
          ? [[queryParams[pick % Math.max(queryParams.length, 1)]?.name ?? "q", nasty.slice(0, 3000)]]
          : pairs.map(([k, v], i) => [k, i === pick % pairs.length ? nasty.slice(0, 3000) : v] as const)
      ),
      // An unknown parameter, and a repeated one.
      queryText([...pairs, [extraName === "" ? "extra" : extraName, "1"]]),
      queryText([...pairs, ...pairs]),
      // Escapes that are not escapes, and bare separators.
      `?${queryParams[0]?.name ?? "q"}=%ZZ&%E0%A4%A=1`,
      "?&&=&=x&",
      `?${"a".repeat(3000)}=1`
    )
  )

  const validHeaders = fc.tuple(
    ...headerParams.map((p) =>
      fc.tuple(fc.constant(p.name), validOf(p.schema, overrides, p.name).map(text), fc.boolean()).map((
        [k, v, include]
      ) => (include ? [[k, v] as const] : []))
    )
  ).map((pairs) => Object.fromEntries(pairs.flat().filter(([, v]) => /^[\x20-\x7e]*$/.test(v))))

  const bodySchema = op.body
  const validBody: fc.Arbitrary<Record<string, unknown>> = bodySchema === undefined
    ? fc.constant({})
    : fc.oneof(
      { weight: 4, arbitrary: schemaValue(bodySchema, overrides) as fc.Arbitrary<Record<string, unknown>> },
      ...(op.bodyExamples.length === 0
        ? []
        : [{
          weight: 2,
          arbitrary: fc.constantFrom(...(op.bodyExamples as Array<Record<string, unknown>>)).map((example) =>
            // The examples' receiver is no one's here: deliveries go to the run's own.
            "url" in example ? { ...example, url: receiverUrl } : example
          )
        }])
    )
  const fields = Object.keys(bodySchema?.properties ?? {})
  const badBody: fc.Arbitrary<string> = fc.tuple(validBody, fc.nat()).chain(([body, pick]) => {
    const present = Object.keys(body)
    const field = fields.length === 0 ? "field" : fields[pick % fields.length]!
    const required = bodySchema?.required ?? []
    const drop = required.length === 0 ? field : required[pick % required.length]!
    const { [drop]: _dropped, ...without } = body
    return fc.oneof(
      fc.constant(JSON.stringify(without)),
      fc.tuple(fc.string({ maxLength: 12 }), wrongType).map(([k, v]) =>
        JSON.stringify({ ...body, [k === "" || present.includes(k) ? "unexpected" : k]: v })
      ),
      wrongType.map((v) => JSON.stringify({ ...body, [field]: v })),
      nastyString.map((v) => JSON.stringify({ ...body, [field]: v })),
      rawNumber.map((raw) => splice(body, field, raw)),
      fc.tuple(
        fc.integer({ min: 50, max: 30_000 }),
        fc.constantFrom("array" as const, "object" as const),
        fc.constantFrom(field, "extra")
      ).map(([depth, kind, where]) => splice(body, where, nested(depth, kind))),
      fc.tuple(fc.integer({ min: 50, max: 30_000 }), fc.constantFrom("array" as const, "object" as const)).map((
        [depth, kind]
      ) => nested(depth, kind)),
      wrongType.map((v) => JSON.stringify(v)),
      malformedText,
      fc.integer({ min: 65_000, max: 200_000 }).map((size) => JSON.stringify({ ...body, pad: "x".repeat(size) }))
    )
  })

  const valid = fc.tuple(validPath, validQuery, validBody, validHeaders, authArb).map((
    [path, query, body, headers, auth]
  ): Planned => ({
    route,
    valid: true,
    exact: true,
    request: withMethod(
      op.method,
      path + queryText(query),
      bodySchema === undefined ? undefined : JSON.stringify(body),
      { ...headers, ...auth }
    )
  }))
  const broken = fc.tuple(
    fc.oneof(validPath, badPath),
    fc.oneof(validQuery.map(queryText), badQuery),
    bodySchema === undefined
      ? fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.oneof(malformedText, validBody.map((b) => JSON.stringify(b))) }
      )
      : fc.oneof({ weight: 5, arbitrary: badBody }, { weight: 1, arbitrary: validBody.map((b) => JSON.stringify(b)) }),
    validHeaders,
    authArb,
    fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: contentTypes }),
    fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: extraHeaders }),
    fc.boolean()
  ).map(([path, query, body, headers, auth, contentType, extra, chunked]): Planned => {
    const request = withMethod(op.method, path + query, body, { ...headers, ...auth, ...extra })
    const all: Record<string, string> = { ...request.headers }
    if (contentType !== null && body !== undefined) {
      if (contentType === "") delete all["content-type"]
      else all["content-type"] = contentType
    }
    return {
      route,
      valid: false,
      exact: true,
      request: { ...request, headers: all, chunked: chunked && body !== undefined }
    }
  })
  const wrongMethod = fc.tuple(fc.constantFrom(...otherMethods.filter((m) => m !== op.method)), validPath, authArb)
    .map(([method, path, auth]): Planned => ({
      route,
      valid: false,
      exact: false,
      request: { method, path, headers: auth }
    }))
  const oddPath = fc.tuple(validPath, authArb, fc.constantFrom("trailing", "double", "upper", "escaped", "dot")).map((
    [path, auth, how]
  ): Planned => {
    const odd = how === "trailing"
      ? `${path}/`
      : how === "double"
      ? path.replace("/v1/", "/v1//")
      : how === "upper"
      ? path.toUpperCase()
      : how === "escaped"
      ? path.replace("/v1/", "/v1/%2e/")
      : path.replace("/v1/", "/v1/./")
    return { route, valid: false, exact: false, request: { method: op.method, path: odd, headers: auth } }
  })
  return fc.oneof(
    { weight: 10, arbitrary: valid },
    { weight: 12, arbitrary: broken },
    { weight: 1, arbitrary: wrongMethod },
    { weight: 1, arbitrary: oddPath }
  )
}

/** A valid-looking id: a pool placeholder stays as it is, anything else is escaped. */
const escapeId = (id: string) => id.startsWith("{{pool:") ? id : escapeSegment(id)

/** The ids seen created, by collection; fills in the placeholders of `poolId`. */
const idPool = () => {
  const byCollection = new Map<string, Array<string>>()
  const all: Array<string> = []
  return {
    add: (collection: string, id: string) => {
      const ids = byCollection.get(collection) ?? []
      byCollection.set(collection, ids)
      if (ids.length < 500) ids.push(id)
      if (all.length < 2000) all.push(id)
    },
    size: () => all.length,
    fill: (text: string) =>
      text.replace(/\{\{pool:([^:}]*):(\d+)\}\}/g, (_, collection: string, n: string) => {
        const ids = byCollection.get(collection) ?? []
        // One time in ten, an id of another collection.
        const from = ids.length > 0 && Number(n) % 10 !== 0 ? ids : all
        return from[Number(n) % from.length] ?? "none"
      })
  }
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

// ---------------------------------------------------------------------------------------------
// Requests Node's parser must judge: written byte for byte on a connection of their own.

/** How many byte-level requests one run writes. */
const RAW_REQUESTS = 1_000

/** Mostly `usual`, sometimes one of `odd`. */
const mostly = <A>(usual: A, ...odd: Array<A>) =>
  fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) })

/** A request's bytes: a route of the definition (`METHOD /path`) with, most of the time, one thing wrong. */
const rawHead = (routes: ReadonlyArray<string>) =>
  fc.record({
    route: fc.constantFrom(...routes),
    method: mostly<string | undefined>(undefined, "get", "G\u00c9T", "", "POST POST", "CONNECT", "PRI", "TRACE"),
    target: mostly<string | undefined>(
      undefined,
      "*",
      "http://127.0.0.1/v1/health",
      "//v1/health",
      "/v1/health?a=\u0001",
      "/v1/he alth",
      "/v1/health\u0000",
      "/v1/health#frag",
      "/v1/\u00e9",
      `/v1/${"x".repeat(20_000)}`,
      ""
    ),
    version: mostly("HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1x", "HTTP/9", ""),
    host: mostly(["Host: x"], [], ["Host: x", "Host: y"], ["Host: "], ["Host: a b"]),
    framing: mostly<ReadonlyArray<string> | undefined>(
      undefined,
      [],
      ["Content-Length: 2", "Content-Length: 3"],
      ["Content-Length: -1"],
      ["Content-Length: abc"],
      ["Content-Length: 99999999999999999999"],
      ["Content-Length: 1, 2"],
      ["Transfer-Encoding: chunked"],
      ["Transfer-Encoding: chunked", "Content-Length: 2"],
      ["Transfer-Encoding: gzip, chunked"],
      ["Transfer-Encoding: chunked, gzip"],
      ["Transfer-Encoding: xchunked"],
      ["Transfer-Encoding: chunked", "Transfer-Encoding: identity"]
    ),
    auth: fc.constantFrom([`Authorization: Bearer ${keys.bobAll}`], []),
    others: fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.constantFrom(
            `Authorization: Bearer ${keys.aliceAll}`,
            "X-Folded: a\r\n b",
            "No colon here",
            ": no name",
            "X-Bad\u0001Name: 1",
            "X-Null: a\u0000b",
            "X-Latin: \u00e9",
            "Expect: 100-continue",
            "Expect: 200-ok",
            "Connection: close",
            "Connection: keep-alive, Upgrade",
            "Upgrade: websocket",
            `X-Long: ${"a".repeat(20_000)}`,
            "Idempotency-Key: \u00ff",
            "X-Request-Id: ../../x",
            "Content-Encoding: gzip",
            "Content-Type: text/plain"
          ),
          { minLength: 1, maxLength: 3 }
        )
      }
    ),
    eol: mostly("\r\n", "\n", "\r"),
    body: mostly<string | undefined>(undefined, "", "{", "2\r\n{}\r\n0\r\n\r\n", "zz\r\n", "x".repeat(70_000)),
    /** A second request pipelined behind the first. */
    pipelined: mostly("", "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", "GARBAGE\r\n\r\n")
  }).map((r) => {
    const [method, path] = r.route.split(" ") as [string, string]
    const body = r.body ?? (method === "GET" || method === "DELETE" ? "" : "{}")
    const framing = r.framing ?? (body === "" ? [] : [`Content-Length: ${Buffer.byteLength(body, "latin1")}`])
    const type = body === "" ? [] : ["Content-Type: application/json"]
    const lines = [...r.host, ...framing, ...type, ...r.auth, ...r.others]
    return `${r.method ?? method} ${r.target ?? path} ${r.version}`.trim() + r.eol
      + lines.map((line) => line + r.eol).join("") + r.eol + body + r.pipelined
  })

/** Writes `bytes` on a new connection, half-closes it, and returns all the server sent before closing. */
const exchange = (port: number, bytes: string) =>
  Effect.callback<string>((resume) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    socket.setEncoding("latin1")
    socket.setTimeout(10_000, () => socket.destroy())
    socket.on("data", (chunk: string) => (received += chunk))
    socket.on("error", () => undefined)
    socket.on("close", () => resume(Effect.succeed(received)))
    socket.end(Buffer.from(bytes, "latin1"))
  })

interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The answers in `text`, in order; what cannot be read as one is a problem. */
const answersIn = (text: string): { answers: Array<RawAnswer>; problem?: string } => {
  const answers: Array<RawAnswer> = []
  let rest = text
  while (rest !== "") {
    const headEnd = rest.indexOf("\r\n\r\n")
    if (headEnd < 0) return { answers, problem: `not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}` }
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n")
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(":")
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    const status = Number(statusLine!.split(" ")[1])
    rest = rest.slice(headEnd + 4)
    let body = ""
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const lineEnd = rest.indexOf("\r\n")
        const size = parseInt(rest.slice(0, lineEnd), 16)
        if (lineEnd < 0 || Number.isNaN(size)) return { answers, problem: "a broken chunked answer" }
        body += rest.slice(lineEnd + 2, lineEnd + 2 + size)
        rest = rest.slice(lineEnd + 2 + size + 2)
        if (size === 0) break
      }
    } else {
      const length = Number(headers["content-length"] ?? 0)
      body = rest.slice(0, length)
      rest = rest.slice(length)
    }
    answers.push({ status, headers, body })
    if (status === 100) continue
  }
  return { answers }
}

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
            const neverOk = [...perRoute].filter(([, t]) => t.ok === 0).map(([route]) => route)
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
