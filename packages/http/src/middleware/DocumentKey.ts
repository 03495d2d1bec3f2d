/**
 * The public documents (the OpenAPI document, Swagger UI) take no key, but refuse a present and
 * invalid one, as the API's public routes do. A CORS preflight carries no key and is let through.
 */
import { Effect } from "effect"
import type { KeyAuthenticator } from "../Authentication.ts"
import { type Answers, pathOf, type Step } from "./Step.ts"

/** The step: a document request with an `Authorization` header is served only if the key is valid. */
export const checkDocumentKey = (
  keys: KeyAuthenticator["Service"],
  documents: ReadonlySet<string>,
  { envelope }: Answers
): Step =>
(request, next) => {
  const header = request.headers.authorization
  if (header === undefined || request.method === "OPTIONS" || !documents.has(pathOf(request.url))) return next
  return Effect.matchEffect(keys.fromHeader(header), {
    onFailure: (refused) => envelope("UNAUTHORIZED", refused.reason),
    onSuccess: () => next
  })
}
