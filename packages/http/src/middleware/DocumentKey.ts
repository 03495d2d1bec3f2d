/**
 * The public documents (the OpenAPI document, Swagger UI) take no key, but refuse a present and
 * invalid one, as the API's public routes do. A CORS preflight carries no key and is let through.
 */
import { Effect } from "effect"
import type { KeyAuthenticator } from "../Authentication.ts"
import type { Answers, Step } from "./Step.ts"

/**
 * Whether the path of `url` (up to its query) is one of `paths`, compared in place: every keyed
 * request asks, and cutting the path out of the URL would make a string for each.
 */
const isOneOf = (url: string, paths: ReadonlyArray<string>): boolean => {
  const query = url.indexOf("?")
  const length = query === -1 ? url.length : query
  for (const path of paths) {
    if (path.length === length && url.startsWith(path)) return true
  }
  return false
}

/** The step: a document request with an `Authorization` header is served only if the key is valid. */
export const checkDocumentKey = (
  keys: KeyAuthenticator["Service"],
  documents: ReadonlySet<string>,
  { envelope }: Answers
): Step => {
  const paths = [...documents]
  return (request, next) => {
    const header = request.headers.authorization
    if (header === undefined || request.method === "OPTIONS" || !isOneOf(request.url, paths)) return next
    return Effect.matchEffect(keys.fromHeader(header), {
      onFailure: (refused) => envelope("UNAUTHORIZED", refused.reason),
      onSuccess: () => next
    })
  }
}
