/**
 * `/v1/auth/api-keys` on the `ApiKeys` use cases, for the calling key's account and scopes.
 */
import { apiKeyCreatedView, apiKeyListView, ApiKeys } from "@swapdesk/core"
import { Effect } from "effect"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { forAccount, makeResponder } from "./Responder.ts"

/** `ApiKeysApi` on the `ApiKeys` use cases. */
export const ApiKeysHandlers = ApiHandlers.group(Api, "apiKeys", (handlers) =>
  Effect.gen(function*() {
    const { noContent, respond } = yield* makeResponder
    const keys = yield* ApiKeys
    return handlers
      // A new key's scopes are bounded by the caller's, so the use case takes the whole principal.
      .handle("create", ({ payload }) =>
        Effect.flatMap(Principal, (caller) =>
          respond(keys.create(caller, payload), ({ key, secret }) =>
            apiKeyCreatedView(key, secret), 201)))
      .handle("list", () =>
        forAccount((account) => respond(keys.list(account), apiKeyListView)))
      .handle("revoke", ({ params }) => forAccount((account) => noContent(keys.revoke(account, params.id))))
  }))
