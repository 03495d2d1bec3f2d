/**
 * Requests for the fuzz, made from the OpenAPI document the server serves: for each operation,
 * valid ones from its own schemas and examples (with realistic values for the fields that name
 * things a schema cannot: tokens, ids, times) and ones with something wrong, each as fast-check
 * generates it; and the ids those requests name, filled in from what the run has created.
 */
import { fc } from "@fast-check/vitest"
import { simulatorTokens } from "@swapdesk/core"
import { keys } from "./harness.ts"
import type { RawRequest } from "./rawClient.ts"

/** The parts of JSON Schema the served document uses for parameters and bodies. */
export interface JsonSchema {
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

/** A path, query or header parameter of an operation. */
export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly schema: JsonSchema
  readonly required: boolean
  readonly example?: unknown
}

/** One method on one path, as the document describes it. */
export interface Operation {
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

/** Every operation of an OpenAPI document. */
export const operationsOf = (doc: any): Array<Operation> => {
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

/**
 * A placeholder replaced, when the request is sent, by one of the ids the run has seen created under
 * `collection` (`/v1/orders`), or by any id when that collection has none.
 */
const poolId = (collection: string) => fc.nat(100_000).map((pick) => `{{pool:${collection}:${pick}}}`)

/** The collection a route's path id comes from: the path before its first parameter. */
export const collectionOf = (path: string) => path.split("/{")[0]!

const START_MS = Date.parse("2026-01-01T00:00:00Z")
const isoNear = fc.integer({ min: -40 * 86_400_000, max: 40 * 86_400_000 }).map((offset) =>
  new Date(START_MS + offset).toISOString()
)
const symbols = simulatorTokens.map((t) => t.symbol)
const addresses = simulatorTokens.flatMap((t) => Object.values(t.addresses))
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
export interface Planned {
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
export const requestsFor = (op: Operation, receiverUrl: string): fc.Arbitrary<Planned> => {
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
export const idPool = () => {
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
