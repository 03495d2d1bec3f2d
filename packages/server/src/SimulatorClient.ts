/**
 * A typed client for the standalone server: the contract's routes and the simulator's control
 * routes (`client.sim.advance`, `client.sim.setPrice`, ...), as `makeClient` gives for the contract.
 */
import type { ClientOptions } from "@swapdesk/http"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { SimulatorBackedApi } from "./api/SimulatorApi.ts"

/** A client for a server running on the simulator; needs an `HttpClient` (e.g. `FetchHttpClient.layer`). */
export const makeSimulatorClient = (options: ClientOptions) =>
  HttpApiClient.make(SimulatorBackedApi, {
    baseUrl: options.baseUrl,
    transformClient: (client) =>
      options.apiKey === undefined
        ? client
        : HttpClient.mapRequest(client, HttpClientRequest.bearerToken(options.apiKey))
  })
