/**
 * `/v1/auth/api-keys`: create, list and revoke the account's API keys (scope `account`).
 */
import { ApiKeyCreatedView, ApiKeyListView, CreateApiKeyBody } from "@swapdesk/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, bodyErrors, Forbidden, NotFound } from "./ApiErrors.ts"
import { Envelope } from "./Envelope.ts"
import { operationExamples } from "./Examples.ts"
import { Authentication, RequiredScope } from "./Security.ts"

export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.post("create", "/v1/auth/api-keys", {
      payload: CreateApiKeyBody,
      success: Envelope(ApiKeyCreatedView).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, ...bodyErrors]
    })
      .annotate(
        OpenApi.Summary,
        "Create a key with a subset of the calling key's scopes; the secret (`key`) is shown only here"
      )
      .annotate(OpenApi.Transform, operationExamples({ body: { name: "trading bot", scopes: ["read", "trade"] } }))
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/auth/api-keys", {
      success: Envelope(ApiKeyListView)
    }).annotate(OpenApi.Summary, "The account's unrevoked keys, newest first, never their secrets")
  )
  .add(
    HttpApiEndpoint.delete("revoke", "/v1/auth/api-keys/:id", {
      params: { id: Schema.String },
      success: HttpApiSchema.NoContent,
      error: NotFound
    })
      .annotate(OpenApi.Summary, "Revoke a key at once (a key may revoke itself)")
      .annotate(OpenApi.Transform, operationExamples({ parameters: { id: "key_3vQb7KxN2mWpR8sT4yZa" } }))
  )
  .annotate(OpenApi.Description, "API keys: `sd_test_…` on the simulator, `sd_live_…` otherwise (scope `account`)")
  .annotate(RequiredScope, "account")
  .middleware(Authentication)
{}
