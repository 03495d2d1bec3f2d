/**
 * What the `ApiRoutes` request path reads from Effect that Effect does not publish: the shape of the
 * registry `HttpApiBuilder.group` puts in context, and the wording of the issue a body that is not
 * JSON fails with. Both are pinned with the Effect version below; `test/requestPath/Canary.test.ts`
 * checks them against the installed Effect, so that an upgrade which changes either fails there,
 * by name, before any end-to-end test does. `docs/decisions.md` ("Two request paths") says why the
 * server reads them at all.
 */
import type { Effect } from "effect"
import type { HttpApiEndpoint } from "effect/http-api"

/** The Effect version whose internals this module describes (the workspace pins it exactly). */
export const PINNED_EFFECT_VERSION = "4.1.0"

/**
 * The message of the issue a body that is not JSON fails with, as `HttpApiBuilder` words it.
 * `ApiRoutes` fails with the same issue, so that `RequestValidationLive` answers `MALFORMED_JSON`
 * for it on either request path.
 */
export const UNPARSEABLE_BODY = "Expected a valid JSON body"

/** A handler as `HttpApiBuilder.group` registers it. */
export interface RegisteredHandler {
  readonly endpoint: HttpApiEndpoint.Top
  readonly handler: (request: never) => Effect.Effect<unknown, unknown>
  readonly isRaw: boolean
  readonly uninterruptible: boolean
}

/** What `HttpApiBuilder.group` puts in context under its group's key. */
export interface RegisteredGroup {
  readonly handlers: ReadonlyMap<string, RegisteredHandler>
}

/** `value` read as a registered group, or undefined where its shape is not the one pinned here. */
export const asRegisteredGroup = (value: unknown): RegisteredGroup | undefined => {
  const handlers = (value as { readonly handlers?: unknown } | undefined)?.handlers
  if (!(handlers instanceof Map)) return undefined
  for (const entry of handlers.values()) {
    const handler = entry as Partial<Record<keyof RegisteredHandler, unknown>>
    if (
      typeof handler.handler !== "function" || typeof handler.isRaw !== "boolean" ||
      typeof handler.uninterruptible !== "boolean" || handler.endpoint === undefined
    ) return undefined
  }
  return value as RegisteredGroup
}
