/**
 * Authentication as the API declares it. Authenticated groups carry `Authentication` (a Bearer
 * security scheme; the endpoint's required scope is an annotation read by its implementation);
 * public groups carry `OptionalAuthentication`, which still rejects a present but invalid key, or
 * `KeyCheck` where they are not rate limited.
 */
import type { ApiScope, Plan } from "@swapdesk/core"
import { Context, type Option } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
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

/** The scope an endpoint needs (contract section 2). */
export const RequiredScope = Context.Reference<ApiScope | undefined>("@swapdesk/http/RequiredScope", {
  defaultValue: () => undefined
})

export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Principal }>()(
  "@swapdesk/http/Authentication",
  { error: [Unauthorized, Forbidden, TooManyRequests], security: { bearer: HttpApiSecurity.bearer } }
) {}

export class OptionalAuthentication
  extends HttpApiMiddleware.Service<OptionalAuthentication, { provides: MaybePrincipal }>()(
    "@swapdesk/http/OptionalAuthentication",
    { error: [Unauthorized, TooManyRequests] }
  )
{}

/**
 * Public routes outside the rate limits (health, the simulator's controls): no key is needed and
 * none is counted, but a present invalid one is still refused.
 */
export class KeyCheck extends HttpApiMiddleware.Service<KeyCheck>()("@swapdesk/http/KeyCheck", {
  error: [Unauthorized]
}) {}
