/**
 * A decoder that remembers what an endpoint's recent query texts and path ids decoded to, for the
 * `ApiRoutes` request path: a query's text decodes to the same value every time (the query schemas
 * read nothing else), as does a path parameter's value, and clients polling a route send few
 * distinct texts, so most requests skip the schema. What it saves is in `docs/performance.md`.
 *
 * A query's key is its text exactly as the router reads it from the URL (`queryTextOf`): a text read
 * any other way could be remembered for a query the router parsed from another part of the URL,
 * and answer it to every later request with that text. A path's key is its one parameter's value as
 * the router decoded it (`paramsTextReader`): that value is the whole input the schema reads.
 */
import { Effect, type Schema } from "effect"

/** Decodes one request part. */
export type Decoder = (input: unknown) => Effect.Effect<unknown, Schema.SchemaError>

/** A query (or path parameters) as the router parsed it, with the text that tells it from others. */
export interface QueryInput {
  /** Undefined where the text cannot be told the way the router tells it: nothing is remembered then. */
  readonly text: string | undefined
  readonly params: unknown
}

/** The router ends a path at the first of these; what follows is the query it parses. */
const QUERY_DELIMITERS = ["?", ";", "#"] as const

/**
 * The query text of `url` as the router reads it: everything after the first `?`, `;` or `#`.
 * Absolute-form targets (`http://host/…`), which the router rewrites first, are not remembered.
 */
export const queryTextOf = (url: string): string | undefined => {
  if (!url.startsWith("/")) return undefined
  let mark = -1
  for (const delimiter of QUERY_DELIMITERS) {
    const at = url.indexOf(delimiter, 1)
    if (at !== -1 && (mark === -1 || at < mark)) mark = at
  }
  return mark === -1 ? "" : url.slice(mark + 1)
}

/**
 * The key reader of one endpoint's path parameters: the value of its one parameter. The router
 * builds every request's parameters of a route with the same names (those of its one path), so the
 * name is learnt on the first request and the value alone tells inputs apart; reading it by name
 * costs less than walking the router's parameter object. Paths with no parameter or several are
 * not remembered.
 */
export const paramsTextReader = (): (params: Readonly<Record<string, string | undefined>>) => string | undefined => {
  let name: string | null | undefined
  return (params) => {
    if (name === undefined) {
      const names = Object.keys(params)
      name = names.length === 1 ? names[0]! : null
    }
    if (name === null) return undefined
    const value = params[name]
    return typeof value === "string" ? value : undefined
  }
}

/** How many decoded queries (or path ids) an endpoint remembers. */
export const REMEMBERED_QUERIES = 256
/** The longest query text (or path id) remembered; longer ones are decoded every time. */
export const REMEMBERED_QUERY_LENGTH = 512

/** `value` and everything in it, frozen: a remembered query is shared by every request with its text. */
const frozen = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const field of Object.values(value)) frozen(field)
    Object.freeze(value)
  }
  return value
}

/** A remembered value, boxed: a decoded value may be anything. */
interface Remembered {
  readonly value: unknown
}

/** A decoder that can also answer, without an effect, what it remembers. */
export interface RememberingDecoder extends Decoder {
  /** What `input` decoded to, if it is remembered. */
  readonly known: (input: unknown) => Remembered | undefined
}

/**
 * `decode`, remembering what up to `REMEMBERED_QUERIES` texts decoded to and forgetting the oldest
 * first. Remembered values are frozen, as every request with the text shares one. Failures are
 * decoded anew. `known` answers a remembered text without building an effect, so that a request
 * whose query is remembered takes no step for it.
 */
export const rememberingQueries = (decode: Decoder): RememberingDecoder => {
  const remembered = new Map<string, Remembered>()
  const known = (input: unknown): Remembered | undefined => {
    const text = (input as QueryInput).text
    return text === undefined || text.length > REMEMBERED_QUERY_LENGTH ? undefined : remembered.get(text)
  }
  const decoder: Decoder = (input) => {
    const { text, params } = input as QueryInput
    if (text === undefined || text.length > REMEMBERED_QUERY_LENGTH) return decode(params)
    const hit = remembered.get(text)
    if (hit !== undefined) return Effect.succeed(hit.value)
    return Effect.map(decode(params), (value) => {
      if (remembered.size >= REMEMBERED_QUERIES) remembered.delete(remembered.keys().next().value!)
      remembered.set(text, { value: frozen(value) })
      return value
    })
  }
  return Object.assign(decoder, { known })
}
