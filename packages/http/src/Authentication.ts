/**
 * Bearer keys (docs/reference/http-api.md#authentication-and-scopes): a key is looked up by the
 * SHA-256 of its secret, as the core's `SecretHasher` computes it when the key is created, must be
 * neither revoked nor expired, and must carry the endpoint's scope.
 * `KeyAuthenticator` decides who a key is; the three middlewares of `api/Security.ts` apply it to
 * their routes, with the rate limits. A caller whose key is refused is an unauthenticated caller,
 * counted by its address, so guessing keys is rate limited like any other anonymous traffic.
 */
import {
  type Account,
  AccountRepository,
  API_KEY_PATTERN,
  ApiKeyEnvironment,
  type ApiKeyRecord,
  ApiKeyRepository,
  InsufficientScope,
  isUsable,
  MarketClock,
  type RateLimited,
  SecretHasher,
  Unauthorized as UnauthorizedKey
} from "@swapdesk/core"
import { Context, Effect, type Fiber, Layer, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { toApiError } from "./api/ApiErrors.ts"
import {
  Authentication,
  KeyCheck,
  MaybePrincipal,
  OptionalAuthentication,
  Principal,
  RequiredScope
} from "./api/Security.ts"
import { addressCaller as callerOfAddress, type Caller, keyCaller as callerOfKey, RateLimiter } from "./RateLimiter.ts"

const BEARER = /^Bearer\s+(\S+)\s*$/i

const refused = (reason: string) => Effect.fail(new UnauthorizedKey({ reason }))

/** Resolves keys to the principals behind them, or to the reason there is none. */
export class KeyAuthenticator extends Context.Service<KeyAuthenticator, {
  /** The principal of a key's secret. */
  readonly authenticate: (secret: string) => Effect.Effect<Principal["Service"], UnauthorizedKey>
  /** The principal of an `Authorization` header, which must be `Bearer <key>`. */
  readonly fromHeader: (header: string) => Effect.Effect<Principal["Service"], UnauthorizedKey>
}>()("@swapdesk/http/KeyAuthenticator") {
  static readonly layer = Layer.effect(
    KeyAuthenticator,
    Effect.gen(function*() {
      const keys = yield* ApiKeyRepository
      const accounts = yield* AccountRepository
      const clock = yield* MarketClock
      // The hasher that created the keys: one definition of a key's hash, so a deployment whose
      // adapter hashes differently still signs its own keys in.
      const hasher = yield* SecretHasher
      // A test key never signs in on a live deployment, nor a live key on the simulator.
      const environmentPrefix = `sd_${yield* ApiKeyEnvironment}_`
      // Each key record's principal, with the account record it was built from. Records are replaced,
      // never changed, when a key is revoked or an account's plan changes, so a principal is reused
      // only while both records are the ones it was built from. It holds ids, a plan and scopes: no
      // secret.
      const principals = new WeakMap<
        ApiKeyRecord,
        { readonly account: Account; readonly principal: Principal["Service"] }
      >()
      const principalOf = (key: ApiKeyRecord, account: Account): Principal["Service"] => {
        const known = principals.get(key)
        if (known !== undefined && known.account === account) return known.principal
        const principal = { accountId: account.id, keyId: key.id, plan: account.plan, scopes: key.scopes }
        principals.set(key, { account, principal })
        return principal
      }
      // A chain rather than a generator: this runs on every request that carries a key.
      const authenticate = (secret: string): Effect.Effect<Principal["Service"], UnauthorizedKey> =>
        !API_KEY_PATTERN.test(secret)
          ? refused("the API key is malformed")
          : !secret.startsWith(environmentPrefix)
          ? refused(`the API key is not a ${environmentPrefix}… key: this server takes no other`)
          : Effect.flatMap(
            keys.findByHash(hasher.sha256Hex(secret)),
            (key) =>
              Effect.flatMap(clock.now, (at) =>
                Option.isNone(key) || !isUsable(key.value, at)
                  ? refused("the API key is unknown, revoked or expired")
                  : Effect.flatMap(accounts.get(key.value.accountId), (account) => {
                    if (Option.isNone(account)) return refused("the API key's account is closed")
                    keys.touch(key.value.id, at)
                    return Effect.succeed(principalOf(key.value, account.value))
                  }))
          )
      const fromHeader = (header: string) => {
        const secret = BEARER.exec(header)?.[1]
        return secret === undefined ? refused("the Authorization header must be Bearer <key>") : authenticate(secret)
      }
      return { authenticate, fromHeader }
    })
  )
}

// A principal lives as long as its key and account records (`KeyAuthenticator`), and its caller with it.
const keyCallers = new WeakMap<Principal["Service"], Caller>()

const keyCaller = (principal: Principal["Service"]): Caller => {
  let caller = keyCallers.get(principal)
  if (caller === undefined) {
    caller = callerOfKey(principal.keyId, principal.plan)
    keyCallers.set(principal, caller)
  }
  return caller
}

/**
 * Callers by address, up to `ADDRESS_CALLERS` of them (then forgotten all at once): a client sends
 * many requests from one address, and a caller made once spares each of them an object and its
 * count's key to build and hash. A caller is a function of its address alone.
 */
const addressCallers = new Map<string, Caller>()
const ADDRESS_CALLERS = 4096
const unknownAddress = () => "unknown"

const addressCaller = (request: HttpServerRequest.HttpServerRequest): Caller => {
  const address = Option.getOrElse(request.remoteAddress, unknownAddress)
  let caller = addressCallers.get(address)
  if (caller === undefined) {
    if (addressCallers.size >= ADDRESS_CALLERS) addressCallers.clear()
    caller = callerOfAddress(address)
    addressCallers.set(address, caller)
  }
  return caller
}

/**
 * How the middlewares refuse or count a request: the API error of `error`, stamped with the market
 * clock, and the `RateLimiter` the API's middlewares share (`ApiMiddlewares` provides it). Exported
 * for the middlewares a composing server adds, such as the simulator's control routes.
 */
export const makeRefusals = Effect.gen(function*() {
  const clock = yield* MarketClock
  const limiter = yield* RateLimiter
  const refuse = <E extends UnauthorizedKey | InsufficientScope | RateLimited>(error: E) =>
    Effect.flatMap(clock.now, (ms) => Effect.fail(toApiError(error, ms)))
  /** A refused key: counted against the caller's address, and 429 once that is over its limit. */
  const refuseKey = (error: UnauthorizedKey) =>
    Effect.flatMap(
      HttpServerRequest.HttpServerRequest,
      (request) => limiter.admitThen(addressCaller(request), refuse(error), refuse)
    )
  /** Counts one request of `caller`, then runs `effect`; over the limit, 429 instead. */
  const admitThen = <A, E, R>(caller: Caller, effect: Effect.Effect<A, E, R>) =>
    limiter.admitThen(caller, effect, refuse)
  /** Counts one request against `request`'s address, then runs `effect`; over the limit, 429 instead. */
  const admitAddress = <A, E, R>(request: HttpServerRequest.HttpServerRequest, effect: Effect.Effect<A, E, R>) =>
    admitThen(addressCaller(request), effect)
  return { admitAddress, admitThen, refuse, refuseKey }
})

const requestOf = (fiber: Fiber.Fiber<unknown, unknown>) =>
  Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)

const missingKey = Effect.fail(new UnauthorizedKey({ reason: "send an API key as Authorization: Bearer <key>" }))

/** `Authentication`: a valid key with the endpoint's scope, counted against the key; else 401, 403 or 429. */
export const layerAuthentication = Layer.effect(
  Authentication,
  Effect.gen(function*() {
    const keys = yield* KeyAuthenticator
    const { admitThen, refuse, refuseKey } = yield* makeRefusals
    return (httpEffect, { endpoint, group }) => {
      const required = Context.get(endpoint.annotations, RequiredScope) ??
        Context.get(group.annotations, RequiredScope)
      // The handler under the principal, or the scope's refusal: one step, not a check then the handler.
      const scoped = (
        principal: Principal["Service"]
      ): Effect.Effect<
        Effect.Success<typeof httpEffect>,
        Effect.Error<typeof httpEffect> | Effect.Error<ReturnType<typeof refuse<InsufficientScope>>>
      > =>
        required === undefined || principal.scopes.includes(required)
          ? Effect.provideService(httpEffect, Principal, principal)
          : refuse(new InsufficientScope({ scope: required }))
      return Effect.withFiber((fiber) => {
        const header = requestOf(fiber).headers.authorization
        return Effect.flatMap(
          Effect.catch(header === undefined ? missingKey : keys.fromHeader(header), refuseKey),
          (principal) => admitThen(keyCaller(principal), scoped(principal))
        )
      })
    }
  })
)

/**
 * `OptionalAuthentication`: a key if one is sent (refused like `Authentication`'s when invalid),
 * else the caller's address is counted.
 */
export const layerOptionalAuthentication = Layer.effect(
  OptionalAuthentication,
  Effect.gen(function*() {
    const keys = yield* KeyAuthenticator
    const { admitThen, refuseKey } = yield* makeRefusals
    return (httpEffect) => {
      const anonymous = Effect.provideService(httpEffect, MaybePrincipal, Option.none())
      return Effect.withFiber((fiber) => {
        const request = requestOf(fiber)
        const header = request.headers.authorization
        if (header === undefined) return admitThen(addressCaller(request), anonymous)
        return Effect.flatMap(
          Effect.catch(keys.fromHeader(header), refuseKey),
          (principal) =>
            admitThen(keyCaller(principal), Effect.provideService(httpEffect, MaybePrincipal, Option.some(principal)))
        )
      })
    }
  })
)

/** `KeyCheck`: a key that is sent must be valid; nothing is counted (the public documents). */
export const layerKeyCheck = Layer.effect(
  KeyCheck,
  Effect.gen(function*() {
    const keys = yield* KeyAuthenticator
    const { refuse } = yield* makeRefusals
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const header = requestOf(fiber).headers.authorization
        return header === undefined
          ? httpEffect
          : Effect.andThen(Effect.catch(keys.fromHeader(header), refuse), httpEffect)
      })
  })
)
