/**
 * Who may use the simulator's control routes (docs/simulator.md#control-routes): on a loopback
 * address anyone, as on `KeyCheck` routes; elsewhere only the operator's key, `SIM_CONTROL_KEY`,
 * rate limited like an unauthenticated call. The key is compared by its SHA-256, so that the time a
 * comparison takes says nothing about how much of the key a guess got right.
 */
import { type MarketClock, Unauthorized as UnauthorizedKey } from "@swapdesk/core"
import { KeyAuthenticator, makeRefusals, type RateLimiter, TooManyRequests, Unauthorized } from "@swapdesk/http"
import { Context, Effect, type Fiber, Layer } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"
import { hash, timingSafeEqual } from "node:crypto"

/**
 * Who may use the control routes: with `required`, only `Authorization: Bearer <key>` (off a
 * loopback address); without, anyone, and `key`, if set, is accepted beside a valid API key.
 */
export const ControlAccess = Context.Reference<
  { readonly key: string | undefined; readonly required: boolean }
>("@swapdesk/server/ControlAccess", { defaultValue: () => ({ key: undefined, required: false }) })

/**
 * The control routes' middleware: open unless `ControlAccess` requires its key, as on a loopback
 * address, where a present header must still be a valid API key or the operator's key; otherwise
 * they take only the operator's key and are rate limited like unauthenticated calls.
 */
export class ControlAuthentication extends HttpApiMiddleware.Service<ControlAuthentication>()(
  "@swapdesk/server/ControlAuthentication",
  { error: [Unauthorized, TooManyRequests] }
) {}

const BEARER = /^Bearer\s+(\S+)\s*$/i

const requestOf = (fiber: Fiber.Fiber<unknown, unknown>) =>
  Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)

/** Whether `header` is `Bearer <key>`, compared by the hashes of the secrets, in constant time. */
const isBearerOf = (keyHash: Buffer, header: string | undefined): boolean => {
  const secret = header === undefined ? undefined : BEARER.exec(header)?.[1]
  return secret !== undefined && timingSafeEqual(hash("sha256", secret, "buffer"), keyHash)
}

const wrongControlKey = new UnauthorizedKey({
  reason: "the simulator's control routes need Authorization: Bearer <SIM_CONTROL_KEY>"
})

/**
 * `ControlAuthentication` as `ControlAccess` says; needs the API's middlewares (`ApiMiddlewares`),
 * whose key authenticator and rate limiter it shares.
 */
export const layerControlAuthentication: Layer.Layer<
  ControlAuthentication,
  never,
  KeyAuthenticator | RateLimiter | MarketClock
> = Layer.effect(
  ControlAuthentication,
  Effect.gen(function*() {
    const { key, required } = yield* ControlAccess
    const keys = yield* KeyAuthenticator
    const { admitAddress, refuse, refuseKey } = yield* makeRefusals
    const keyHash = key === undefined ? undefined : hash("sha256", key, "buffer")
    if (!required || keyHash === undefined) {
      // On loopback: as `KeyCheck`, no key needed and none counted, but a present header must be a
      // valid API key or the operator's own key.
      return (httpEffect) =>
        Effect.withFiber((fiber) => {
          const header = requestOf(fiber).headers.authorization
          return header === undefined || (keyHash !== undefined && isBearerOf(keyHash, header))
            ? httpEffect
            : Effect.andThen(Effect.catch(keys.fromHeader(header), refuse), httpEffect)
        })
    }
    return (httpEffect) =>
      Effect.withFiber((fiber) => {
        const request = requestOf(fiber)
        return isBearerOf(keyHash, request.headers.authorization)
          ? admitAddress(request, httpEffect)
          : Effect.andThen(refuseKey(wrongControlKey), httpEffect)
      })
  })
)
