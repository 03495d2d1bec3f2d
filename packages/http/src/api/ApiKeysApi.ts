/**
 * `/v1/auth/api-keys`: create, list and revoke the account's API keys (scope `account`).
 */
import { ApiKeyCreatedView, ApiKeyListView, CreateApiKeyBody } from "@swapdesk/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden } from "./ApiErrors.ts"
import { creation, deleteRoute, documented, idExample, readRoute } from "./Routes.ts"
import { Authentication, RequiredScope } from "./Security.ts"

/** `/v1/auth/api-keys`: create, list and revoke the account's keys. */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.post(
      "create",
      "/v1/auth/api-keys",
      creation(CreateApiKeyBody, ApiKeyCreatedView, BadRequest, Forbidden)
    ).annotateMerge(documented({
      summary: "Create a key with a subset of the calling key's scopes; the secret (`key`) is shown only here",
      examples: { body: { name: "trading bot", scopes: ["read", "trade"] } }
    })),
    readRoute("list", "/v1/auth/api-keys", ApiKeyListView, {
      summary: "The account's unrevoked keys, newest first, never their secrets"
    }),
    deleteRoute("revoke", "/v1/auth/api-keys/:id", {
      summary: "Revoke a key at once (a key may revoke itself)",
      examples: idExample("key_3vQb7KxN2mWpR8sT4yZa")
    })
  )
  .annotate(OpenApi.Description, "API keys: `sd_test_…` on the simulator, `sd_live_…` otherwise (scope `account`)")
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}
