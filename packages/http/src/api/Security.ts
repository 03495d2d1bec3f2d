/**
 * Authentication as the API declares it. Authenticated groups carry `Authentication` (a Bearer
 * security scheme; the endpoint's required scope is an annotation read by its implementation);
 * public groups carry `OptionalAuthentication`, which still rejects a present but invalid key.
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

/** Marks a group whose routes are not rate limited (health checks, the simulator's control routes). */
export const RateLimitExempt = Context.Reference<boolean>("@swapdesk/http/RateLimitExempt", {
  defaultValue: () => false
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
