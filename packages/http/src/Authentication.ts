/**
 * Bearer keys (contract section 2): a key is looked up by the SHA-256 of its secret, must be
 * neither revoked nor expired, and must carry the endpoint's scope. One function decides all of
 * it, for the authenticated routes and for the public ones (where a key is optional but a bad one
 * is still refused).
 */
import {
  AccountRepository,
  API_KEY_PATTERN,
  ApiKeyRepository,
  InsufficientScope,
  isUsable,
  MarketClock,
  type RateLimited,
  Unauthorized as UnauthorizedKey
} from "@swapdesk/core"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { createHash } from "node:crypto"
import { toApiError } from "./api/ApiErrors.ts"
import {
  Authentication,
  MaybePrincipal,
  OptionalAuthentication,
  Principal,
  RateLimitExempt,
  RequiredScope
} from "./api/Security.ts"
import { makeRateLimiter } from "./RateLimiter.ts"

export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")

const BEARER = /^Bearer\s+(\S+)\s*$/i

/** Resolves a secret to its principal, or the reason it cannot be one. */
const makeAuthenticator = Effect.gen(function*() {
  const keys = yield* ApiKeyRepository
  const accounts = yield* AccountRepository
  const clock = yield* MarketClock
  return Effect.fnUntraced(function*(secret: string) {
    if (!API_KEY_PATTERN.test(secret)) return yield* new UnauthorizedKey({ reason: "the API key is malformed" })
    const key = yield* keys.findByHash(hashSecret(secret))
    const at = yield* clock.now
    if (Option.isNone(key) || !isUsable(key.value, at)) {
      return yield* new UnauthorizedKey({ reason: "the API key is unknown, revoked or expired" })
    }
    const account = yield* accounts.get(key.value.accountId)
    if (Option.isNone(account)) return yield* new UnauthorizedKey({ reason: "the API key's account is closed" })
    yield* keys.update({ ...key.value, lastUsedAt: at })
    return { accountId: account.value.id, keyId: key.value.id, plan: account.value.plan, scopes: key.value.scopes }
  })
})

const stamped = <E extends UnauthorizedKey | InsufficientScope | RateLimited>(error: E) =>
  Effect.flatMap(MarketClock, (clock) => Effect.flatMap(clock.now, (ms) => Effect.fail(toApiError(error, ms))))

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticator
    const limiter = yield* makeRateLimiter
    const clock = yield* MarketClock
    return {
      bearer: (httpEffect, { credential, endpoint, group }) =>
        Effect.gen(function*() {
          const secret = Redacted.value(credential)
          if (secret === "") {
            return yield* stamped(new UnauthorizedKey({ reason: "send an API key as Authorization: Bearer <key>" }))
          }
          const principal = yield* authenticate(secret).pipe(Effect.catch(stamped))
          yield* limiter.admit({ _tag: "Key", keyId: principal.keyId, plan: principal.plan }).pipe(
            Effect.catch(stamped)
          )
          const required = Context.get(endpoint.annotations, RequiredScope) ??
            Context.get(group.annotations, RequiredScope)
          if (required !== undefined && !principal.scopes.includes(required)) {
            return yield* stamped(new InsufficientScope({ scope: required }))
          }
          return yield* Effect.provideService(httpEffect, Principal, principal)
        }).pipe(Effect.provideService(MarketClock, clock))
    }
  })
)

export const OptionalAuthenticationLive = Layer.effect(
  OptionalAuthentication,
  Effect.gen(function*() {
    const authenticate = yield* makeAuthenticator
    const limiter = yield* makeRateLimiter
    const clock = yield* MarketClock
    return (httpEffect, { group }) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const limited = !Context.get(group.annotations, RateLimitExempt)
        const header = request.headers.authorization
        if (header === undefined) {
          if (limited) {
            const address = Option.getOrElse(request.remoteAddress, () => "unknown")
            yield* limiter.admit({ _tag: "Address", address }).pipe(Effect.catch(stamped))
          }
          return yield* Effect.provideService(httpEffect, MaybePrincipal, Option.none())
        }
        const secret = BEARER.exec(header)?.[1]
        if (secret === undefined) {
          return yield* stamped(new UnauthorizedKey({ reason: "the Authorization header must be Bearer <key>" }))
        }
        const principal = yield* authenticate(secret).pipe(Effect.catch(stamped))
        if (limited) {
          yield* limiter.admit({ _tag: "Key", keyId: principal.keyId, plan: principal.plan }).pipe(
            Effect.catch(stamped)
          )
        }
        return yield* Effect.provideService(httpEffect, MaybePrincipal, Option.some(principal))
      }).pipe(Effect.provideService(MarketClock, clock))
  })
)
