/**
 * Examples in the OpenAPI document, so that Swagger UI's "Try it out" and generated clients send a
 * valid request as they come. An endpoint with a body (or a parameter whose name says little, such
 * as a path `id`) states its own beside its definition (`documented({ examples })` in `Routes.ts`,
 * which annotates it with `operationExamples`); every other parameter takes the value
 * `parameterExamples` gives its name (`documentExamples`, over the whole document), or else the
 * first value its schema allows. Examples go on the parameter and the media type (`example`), where
 * OpenAPI tools look for a request's values. The test drives every operation with these examples
 * against a live server; docs/decisions.md says why these values.
 */

/** A parameter's example by its name: the same name means the same thing on every route. */
export const parameterExamples: Readonly<Record<string, string>> = {
  token: "SOL",
  tokenIn: "SOL",
  tokenOut: "USDC",
  amountIn: "2",
  network: "solana",
  currency: "EUR",
  timeframe: "1h",
  slippage: "0.5",
  limit: "10",
  offset: "0",
  after: "0",
  from: "2025-12-31T00:00:00Z",
  to: "2026-01-01T00:00:00Z",
  "idempotency-key": "my-first-swap"
}

type Json = Record<string, unknown>

interface Parameter extends Json {
  readonly name: string
  readonly schema?: { readonly enum?: ReadonlyArray<unknown> }
  readonly example?: unknown
}

interface Operation extends Json {
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content?: Record<string, Json> }
}

const withParameterExamples = (
  operation: Operation,
  exampleOf: (parameter: Parameter) => unknown
): Operation =>
  operation.parameters === undefined ? operation : {
    ...operation,
    parameters: operation.parameters.map((parameter) => {
      if (parameter.example !== undefined) return parameter
      const example = exampleOf(parameter)
      return example === undefined ? parameter : { ...parameter, example }
    })
  }

/**
 * An endpoint's own examples, as an `OpenApi.Transform` annotation: `body` for its JSON request
 * body, `parameters` by name for those the shared table does not cover or covers wrongly here.
 */
export const operationExamples =
  (own: { readonly body?: unknown; readonly parameters?: Readonly<Record<string, string>> }) =>
  (operation: Json): Json => {
    const { parameters = {}, body } = own
    const named = withParameterExamples(operation as Operation, (parameter) => parameters[parameter.name])
    const json = named.requestBody?.content?.["application/json"]
    if (body === undefined || json === undefined) return named
    return {
      ...named,
      requestBody: {
        ...named.requestBody,
        content: { ...named.requestBody!.content, "application/json": { ...json, example: body } }
      }
    }
  }

const sharedExample = (parameter: Parameter) => parameterExamples[parameter.name] ?? parameter.schema?.enum?.[0]

/** The document-wide step: every parameter still without an example gets the shared one, or its first allowed value. */
export const documentExamples = (document: object): Json => {
  const paths = (document as { readonly paths: Record<string, Record<string, unknown>> }).paths
  return {
    ...document,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item).map(([method, operation]) => [
            method,
            typeof operation === "object" && operation !== null && "responses" in operation
              ? withParameterExamples(operation as Operation, sharedExample)
              : operation
          ])
        )
      ])
    )
  }
}
