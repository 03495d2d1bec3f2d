/**
 * Authentication as the API declares it. Authenticated groups carry `Authentication` (a Bearer
 * security scheme; the endpoint's required scope is an annotation read by its implementation);
 * public groups carry `OptionalAuthentication`, which still rejects a present but invalid key, or
 * `KeyCheck` where they are not rate limited.
 */
import type { ApiScope, Plan } from "@swapdesk/core"
import { Context, type Option } from "effect"
import { HttpApi, type HttpApiGroup, HttpApiMiddleware, type OpenApi } from "effect/http-api"
import { Forbidden, TooManyRequests, Unauthorized } from "./ApiErrors.ts"

/** Who is calling: the account and key behind a valid Bearer token. */
export class Principal extends Context.Service<Principal, {
  readonly accountId: string
  readonly keyId: string
  readonly plan: Plan
  readonly scopes: ReadonlyArray<ApiScope>
}>()("@swapdesk/http/Principal") {}

/** The caller on a public route: nobody, or a valid key. */
export class MaybePrincipal extends Context.Service<MaybePrincipal, Option.Option<Principal["Service"]>>()(
  "@swapdesk/http/MaybePrincipal"
) {}

/** The scope an endpoint needs (docs/reference/http-api.md#authentication-and-scopes). */
export const RequiredScope = Context.Reference<ApiScope | undefined>("@swapdesk/http/RequiredScope", {
  defaultValue: () => undefined
})

/**
 * A key is required: `Authorization: Bearer <key>`, with the endpoint's `RequiredScope`. The
 * middleware reads the header itself rather than being declared through `HttpApiSecurity`,
 * whose per-request credential handling is a large share of an authenticated read
 * (measured in docs/performance.md); `documentBearer` puts the scheme into the OpenAPI document.
 */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Principal }>()(
  "@swapdesk/http/Authentication",
  { error: [Unauthorized, Forbidden, TooManyRequests] }
) {}

/**
 * An OpenAPI transform: the Bearer scheme, required by every operation of `api` behind
 * `Authentication`, as an `HttpApiSecurity` declaration would have documented it.
 */
export const documentBearer = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
) =>
(document: Record<string, unknown>): OpenApi.OpenAPISpec => {
  const spec = document as unknown as OpenApi.OpenAPISpec
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      if (![...middleware].some((m) => m.key === Authentication.key)) return
      const path = spec.paths[endpoint.path.replace(/:(\w+)/g, "{$1}")]
      const operation = path?.[endpoint.method.toLowerCase() as OpenApi.OpenAPISpecMethodName]
      if (operation !== undefined) operation.security = [{ bearer: [] }]
    }
  })
  return {
    ...spec,
    components: { ...spec.components, securitySchemes: { bearer: { type: "http", scheme: "Bearer" } } }
  }
}

/** A key is optional: when sent it must be valid, and the caller is counted by its key, else by its address. */
export class OptionalAuthentication
  extends HttpApiMiddleware.Service<OptionalAuthentication, { provides: MaybePrincipal }>()(
    "@swapdesk/http/OptionalAuthentication",
    { error: [Unauthorized, TooManyRequests] }
  )
{}

/**
 * Public routes outside the rate limits (health): no key is needed and none is counted, but a
 * present invalid one is still refused.
 */
export class KeyCheck extends HttpApiMiddleware.Service<KeyCheck>()("@swapdesk/http/KeyCheck", {
  error: [Unauthorized]
}) {}
