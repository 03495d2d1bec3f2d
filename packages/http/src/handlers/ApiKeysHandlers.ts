/**
 * `/v1/auth/api-keys` on the `ApiKeys` use cases, for the calling key's account and scopes.
 */
import { apiKeyCreatedView, apiKeyListView, ApiKeys } from "@swapdesk/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { Api } from "../api/Api.ts"
import { Principal } from "../api/Security.ts"
import * as ApiHandlers from "../requestPath/ApiHandlers.ts"
import { makeResponder } from "./Respond.ts"

const revoked = HttpServerResponse.empty({ status: 204 })

export const ApiKeysHandlers = ApiHandlers.group(Api, "apiKeys", (handlers) =>
  Effect.gen(function*() {
    const { orApiError, respond } = yield* makeResponder
    const keys = yield* ApiKeys
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Principal, (p) =>
          respond(keys.create(p, payload), ({ key, secret }) =>
            apiKeyCreatedView(key, secret), 201)))
      .handle("list", () =>
        Effect.flatMap(Principal, (p) => respond(keys.list(p.accountId), apiKeyListView)))
      .handle("revoke", ({ params }) =>
        Effect.flatMap(Principal, (p) =>
          Effect.as(orApiError(keys.revoke(p.accountId, params.id)), revoked)))
  }))
