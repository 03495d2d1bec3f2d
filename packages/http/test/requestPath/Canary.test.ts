// Fails loudly, by name, when an Effect upgrade changes what the ApiRoutes request path reads from
// Effect's internals (requestPath/EffectInternals.ts): the installed and pinned Effect versions are
// the one the module describes; the registry HttpApiBuilder.group leaves in context has exactly the
// shape ApiRoutes reads; and HttpApiBuilder words an unparseable body as UNPARSEABLE_BODY, which
// the request validation answers as MALFORMED_JSON on either path. Real layers of the installed
// Effect, no stand-ins.
import { Context, Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware } from "effect/http-api"
import { readFileSync } from "node:fs"
import { afterAll, describe, expect, it } from "vitest"
import { asRegisteredGroup, PINNED_EFFECT_VERSION, UNPARSEABLE_BODY } from "../../src/requestPath/EffectInternals.ts"

const packageJson = (url: URL) => JSON.parse(readFileSync(url, "utf8")) as Record<string, any>

/** The package.json of the Effect this test runs on. */
const installedEffect = () => {
  let url = new URL(".", import.meta.resolve("effect"))
  for (;;) {
    try {
      const found = packageJson(new URL("package.json", url))
      if (found.name === "effect") return found
    } catch {
      // No package.json at this level: keep climbing.
    }
    const parent = new URL("..", url)
    if (parent.href === url.href) throw new Error("no package.json of effect above its entry")
    url = parent
  }
}

const Probe = HttpApi.make("canary").add(
  HttpApiGroup.make("probe")
    .add(HttpApiEndpoint.get("read", "/read"))
    .add(HttpApiEndpoint.post("write", "/write", { payload: Schema.Struct({ a: Schema.String }) }))
)

const ok = HttpServerResponse.empty({ status: 204 })

const ProbeLive = HttpApiBuilder.group(
  Probe,
  "probe",
  (handlers) => handlers.handle("read", () => Effect.succeed(ok)).handle("write", () => Effect.succeed(ok))
)

describe("what ApiRoutes reads from Effect", () => {
  it(`is Effect ${PINNED_EFFECT_VERSION}, installed and pinned exactly`, () => {
    expect(installedEffect().version).toBe(PINNED_EFFECT_VERSION)
    const root = packageJson(new URL("../../../../package.json", import.meta.url))
    expect(root.devDependencies.effect).toBe(PINNED_EFFECT_VERSION)
    const http = packageJson(new URL("../../package.json", import.meta.url))
    expect(http.devDependencies.effect).toBe(PINNED_EFFECT_VERSION)
  })

  it("finds each group's handlers in context under the group's key, in the shape it pins", async () => {
    const context = await Effect.runPromise(Layer.build(ProbeLive).pipe(Effect.scoped))
    const registered = context.mapUnsafe.get(Probe.groups.probe.key) as Record<string, unknown>
    expect(Object.keys(registered).sort()).toEqual(["handlers", "routes"])
    const group = asRegisteredGroup(registered)
    expect(group).toBeDefined()
    expect([...group!.handlers.keys()]).toEqual(["read", "write"])
    for (const [name, handler] of group!.handlers) {
      expect(Object.keys(handler).sort()).toEqual(["endpoint", "handler", "isRaw", "uninterruptible"])
      expect(handler.endpoint).toBe(Probe.groups.probe.endpoints[name as "read" | "write"])
      expect(handler.isRaw).toBe(false)
      expect(handler.uninterruptible).toBe(false)
    }
    // Context.get agrees with the raw map read: the key is the group's service key.
    expect(Context.getUnsafe(context, Probe.groups.probe as never)).toBe(registered)
  })

  it("reads a registry of another shape as none, so that ApiRoutes refuses to build on it", () => {
    expect(asRegisteredGroup(undefined)).toBeUndefined()
    expect(asRegisteredGroup({ handlers: {} })).toBeUndefined()
    expect(asRegisteredGroup({ handlers: new Map([["read", { handler: () => undefined }]]) })).toBeUndefined()
  })

  describe("HttpApiBuilder's issue for a body that is not JSON", () => {
    /** Answers a payload's schema failure with the message of its issue. */
    class Issues extends HttpApiMiddleware.Service<Issues>()("canary/Issues") {}
    const IssuesLive = HttpApiMiddleware.layerSchemaErrorTransform(Issues, (error) =>
      Effect.succeed(
        HttpServerResponse.jsonUnsafe({
          kind: error.kind,
          tag: error.cause.issue._tag,
          message: error.cause.issue._tag === "InvalidValue" ? error.cause.issue.annotations?.message : undefined
        }, { status: 400 })
      ))
    const Served = Probe.middleware(Issues)
    const ServedLive = HttpApiBuilder.group(
      Served,
      "probe",
      (handlers) => handlers.handle("read", () => Effect.succeed(ok)).handle("write", () => Effect.succeed(ok))
    )
    const { dispose, handler } = HttpRouter.toWebHandler(
      HttpApiBuilder.layer(Served).pipe(Layer.provide(ServedLive), Layer.provide(IssuesLive)) as Layer.Layer<
        never,
        never,
        HttpRouter.HttpRouter
      >,
      { disableLogger: true }
    )
    afterAll(dispose)

    it("is an InvalidValue worded as UNPARSEABLE_BODY", async () => {
      const response = await handler(
        new Request("http://canary/write", {
          method: "POST",
          body: "{\"a\":",
          headers: { "content-type": "application/json" }
        })
      )
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ kind: "Payload", tag: "InvalidValue", message: UNPARSEABLE_BODY })
    })
  })
})
