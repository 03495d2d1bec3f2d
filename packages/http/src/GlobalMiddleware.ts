/**
 * What every request goes through, whichever route (or none) answers it: one global router
 * middleware composed of named steps, one concern each (`middleware/`), outermost first:
 *
 * 1. `hygiene`: what no route may see (a fragment, a `;` in the path, no `Host`, two
 *    `Authorization` headers);
 * 2. `checkDocumentKey`: the public documents refuse a present but invalid key;
 * 3. the router, whose routes do the rest of the admission: a method a path lacks is its own route
 *    (405, or a CORS preflight's 204: `Preflight.ts`) and a route that takes a body admits it
 *    (`BodyAdmission.ts`);
 * 4. `answerFailure`: whatever no endpoint answered gets its envelope, a defect logged;
 * 5. `stamp`: every answer gets the server's headers (`ResponseStamp.ts`).
 *
 * A request is logged at `Debug` once answered (method, path, status, request id, route), when the
 * minimum log level lets `Debug` through. Every step is on every request's path, so the steps are
 * plain functions of the request composed in one expression, rather than router middlewares of
 * their own, each of which would wrap every request in one more effect (docs/performance.md).
 */
import { Context, Effect, LogLevel, References, type Types } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { KeyAuthenticator } from "./Authentication.ts"
import { CorsOrigins } from "./Cors.ts"
import { checkDocumentKey } from "./middleware/DocumentKey.ts"
import { answerFailure } from "./middleware/FailureAnswer.ts"
import { hygiene } from "./middleware/Hygiene.ts"
import { attachRequestNotes, type RequestNotes } from "./middleware/RequestNotes.ts"
import { makeStamp } from "./middleware/ResponseStamp.ts"
import { makeAnswers, pathOf } from "./middleware/Step.ts"
import { requestIdFrom } from "./RequestId.ts"
import { ServerPlatform } from "./ServerPlatform.ts"

/** The line a request is logged with at `Debug`, annotated with what a log search filters on. */
const logAnswered = (
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  response: HttpServerResponse.HttpServerResponse,
  notes: RequestNotes
) =>
  Effect.logDebug(`${request.method} ${pathOf(request.url)} ${response.status}`).pipe(
    Effect.annotateLogs({ requestId, route: notes.route ?? "none", status: response.status }),
    Effect.as(response)
  )

/**
 * The global middleware. `documents` are the paths served outside the API definition (the OpenAPI
 * document, Swagger UI), public routes whose callers' keys are checked here; `docsPath` is Swagger
 * UI's, whose page gets its own `Content-Security-Policy`.
 */
export const GlobalMiddleware = (documents: ReadonlySet<string>, docsPath: string) =>
  HttpRouter.middleware<{ handles: unknown }>()(
    Effect.gen(function*() {
      const answers = yield* makeAnswers
      const keys = yield* KeyAuthenticator
      const platform = yield* ServerPlatform
      const clean = hygiene(answers, platform)
      const documentKey = checkDocumentKey(keys, documents, answers)
      const failed = answerFailure(answers, platform)
      const stamp = makeStamp(yield* CorsOrigins, docsPath)
      return (router) =>
        Effect.withFiber((fiber) => {
          const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
          const requestId = requestIdFrom(request.headers["x-request-id"])
          const notes = attachRequestNotes(request)
          const answered = Effect.matchCauseEffect(clean(request, documentKey(request, router)), {
            onFailure: (cause) =>
              Effect.map(failed(request, requestId, cause, notes), (response) =>
                stamp(request, requestId, response, notes)),
            onSuccess: (response) =>
              Effect.succeed(stamp(request, requestId, response, notes))
          })
          return LogLevel.isGreaterThanOrEqualTo("Debug", fiber.getRef(References.MinimumLogLevel))
            ? Effect.flatMap(answered, (response) => logAnswered(request, requestId, response, notes))
            : answered
          // The router's type asks a global middleware to say that it answers every failure.
        }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>
    }),
    { global: true }
  )
