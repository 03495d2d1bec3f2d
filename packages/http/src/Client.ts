/**
 * A typed client derived from the API definition: every route as a method, with its request and
 * response types and its errors as typed failures.
 */
import { Effect } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./api/Api.ts"

/** Where `makeClient` reaches the server, and the key it sends. */
export interface ClientOptions {
  /** Where the server is, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string
  /** An API key; sent as `Authorization: Bearer <key>`. */
  readonly apiKey?: string
}

/** A client for any swapdesk server: the contract's routes. */
export const makeClient = (options: ClientOptions) =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.apiKey === undefined
        ? client
        : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(options.apiKey))
  })

/** `makeClient` with the platform's fetch: ready to run with `Effect.runPromise`. */
export const makeFetchClient = (options: ClientOptions) =>
  makeClient(options).pipe(Effect.provide(FetchHttpClient.layer))
