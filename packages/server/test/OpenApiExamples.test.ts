// Proves the OpenAPI document drives tools as it comes: every parameter and JSON request body of
// every operation (read from the served document, so routes added later are covered too) carries an
// example, `servers` is relative to wherever the document is served, and Swagger UI needs nothing
// from the network. Then each operation is sent with exactly its documented examples (and the demo
// Pro key) to a live server on the demo scenario: none answers 400 or 5xx, and each answers a status
// its operation documents. An example that names a resource the fresh server does not hold (a trade
// or alert id) is answered 404, which is what the document says such a request gets.
import { assert, layer } from "@effect/vitest"
import { demoKeys, demoScenario } from "@swapdesk/simulator"
import { Effect } from "effect"
import { call, testServer } from "./harness.ts"

interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly example?: unknown
}

interface Operation {
  readonly operationId: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content: Record<string, { readonly example?: unknown }> }
  readonly responses: Record<string, unknown>
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE"

const manualDemo = { ...demoScenario, clock: { mode: "manual" as const, start: "2026-01-01T00:00:00Z" } }

const operationsOf = (document: any): ReadonlyArray<{ path: string; method: Method; operation: Operation }> =>
  Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase() as Method, operation }))
  )

layer(testServer(manualDemo), { excludeTestServices: true })("OpenAPI examples", (it) => {
  it.effect("every parameter and request body has an example; servers are relative; Swagger UI is offline", () =>
    Effect.gen(function*() {
      const document = (yield* call("GET", "/v1/openapi.json")).body
      const missing = operationsOf(document).flatMap(({ operation }) => [
        ...(operation.parameters ?? []).filter((parameter) => parameter.example === undefined).map((parameter) =>
          `${operation.operationId}: ${parameter.in} ${parameter.name}`
        ),
        ...Object.entries(operation.requestBody?.content ?? {}).filter(([, media]) => media.example === undefined).map((
          [type]
        ) => `${operation.operationId}: ${type} body`)
      ])
      assert.deepStrictEqual(missing, [], "give these an example (packages/http/src/api/Examples.ts)")
      assert.deepStrictEqual(document.servers.map((server: { url: string }) => server.url), ["/"])
      const docs = yield* call("GET", "/docs")
      assert.strictEqual(docs.status, 200)
      assert.notMatch(docs.text, /<(script|link)[^>]+(src|href)="?https?:/i)
    }))

  it.effect("each operation, sent with its own examples, is never refused as a bad request", () =>
    Effect.gen(function*() {
      const document = (yield* call("GET", "/v1/openapi.json")).body
      const operations = operationsOf(document)
      assert.isAtLeast(operations.length, 21)
      const answers: Array<string> = []
      for (const { method, operation, path } of operations) {
        const parameters = operation.parameters ?? []
        const query = new URLSearchParams(
          parameters.filter((p) => p.in === "query").map((p): [string, string] => [p.name, String(p.example)])
        )
        const target = path.replace(/\{([^}]+)\}/g, (_, name: string) =>
          encodeURIComponent(String(
            parameters.find((p) => p.in === "path" && p.name === name)?.example
          ))) +
          (query.size === 0 ? "" : `?${query}`)
        const headers = Object.fromEntries(
          parameters.filter((p) => p.in === "header").map((p) => [p.name, String(p.example)])
        )
        const body = operation.requestBody?.content["application/json"]?.example
        const reply = yield* call(method, target, {
          key: demoKeys.proAll,
          headers,
          ...(body === undefined ? {} : { body })
        })
        const answer = `${method} ${target} -> ${reply.status} ${reply.body?.error?.code ?? ""}`
        answers.push(answer)
        assert.notStrictEqual(reply.status, 400, answer)
        assert.isBelow(reply.status, 500, answer)
        assert.property(operation.responses, String(reply.status), answer)
        if (reply.status === 404) assert.match(path, /\{id\}|approvals/, answer)
      }
      assert.strictEqual(answers.length, operations.length)
    }))
})
