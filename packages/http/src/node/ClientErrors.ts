/**
 * The contract's error envelope for requests that never reach a route. Node's HTTP parser refuses
 * some requests before any route sees them: a malformed request line, headers over Node's limit,
 * a character a header may not hold, a broken chunked body. Node answers those itself, in plain
 * text, with no envelope and no request id. It does not answer `CONNECT` at all. Here they are
 * answered as every route answers: the envelope, stamped with market time, an `X-Request-Id`, and
 * `Connection: close`. The connection is then closed, because its framing can no longer be trusted.
 *
 * So are a request that did not arrive in time (`408 REQUEST_TIMEOUT`) and an `Expect` other than
 * `100-continue` (`417 EXPECTATION_FAILED`), which Node would answer bare.
 *
 * The parser's events belong to the `node:http` server itself, not to `HttpServer`, so this layer is
 * handed the server that `NodeHttpServer.layer(() => server, …)` runs on. Create that server with
 * `requireHostHeader: false`, so that a request without `Host`, which Node would answer with a bare
 * 400, reaches the global middleware and gets the envelope. Which response a connection is owed
 * when its bytes are refused is learnt from the server's `request` event (`ResponsesInFlight.ts`):
 * only what Node documents is read.
 */
import { errorCatalogue, type ErrorCode, MarketClock } from "@swapdesk/core"
import { Effect, FiberSet, Layer } from "effect"
import { type IncomingMessage, maxHeaderSize, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { errorBody } from "../api/ApiErrors.ts"
import { requestIdFrom } from "../RequestId.ts"
import { SECURITY_HEADERS } from "../SecurityHeaders.ts"
import { type ResponsesInFlight, responsesInFlight } from "./ResponsesInFlight.ts"

/** What Node reports with `clientError`: a parse error carries an `HPE_…` code. */
interface ClientError extends Error {
  readonly code?: string
  readonly reason?: string
}

interface Refusal {
  readonly code: ErrorCode
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}

/**
 * A request that did not arrive within `headersTimeout` or `requestTimeout`. Still status 408, which
 * browsers rely on to resend a request on a connection they opened early (docs/decisions.md).
 */
const requestTimeout: Refusal = {
  code: "REQUEST_TIMEOUT",
  message: "the request did not arrive in full in time; send it again"
}

/**
 * How long an answered connection may keep sending before it is dropped. The connection is ended
 * rather than destroyed at once: unread bytes at close make the kernel reset the connection, and a
 * reset can discard the answer before the client reads it.
 */
const LINGER_MS = 2_000

/** Why the parser refused the request, as the envelope says it. */
const refusalOf = (error: ClientError, headerLimitBytes: number): Refusal => {
  switch (error.code) {
    // The contract pairs each code with one status and has no 431 code; see docs/decisions.md.
    case "HPE_HEADER_OVERFLOW":
      return { code: "VALIDATION_ERROR", message: `the request's headers are over ${headerLimitBytes} bytes` }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { code: "PAYLOAD_TOO_LARGE", message: "the chunk extensions of the request body are too large" }
    default: {
      const reason = typeof error.reason === "string" && error.reason !== ""
        ? `: ${error.reason.charAt(0).toLowerCase()}${error.reason.slice(1)}`
        : ""
      return { code: "VALIDATION_ERROR", message: `the request is not valid HTTP/1.1${reason}` }
    }
  }
}

/** `CONNECT` asks for a tunnel to another host, which no route provides; an empty `Allow` says so. */
const connectRefusal: Refusal = {
  code: "METHOD_NOT_ALLOWED",
  message: "CONNECT is not supported: this server is not a proxy",
  headers: { allow: "" }
}

/** A complete HTTP/1.1 response, written straight to the socket as no `ServerResponse` exists. */
const rawResponse = (refusal: Refusal, atMs: number, requestId: string): string => {
  const status = errorCatalogue[refusal.code].status
  const details = refusal.code === "VALIDATION_ERROR" ? [{ path: "", message: refusal.message }] : undefined
  const body = JSON.stringify(errorBody(refusal.code, refusal.message, atMs, details))
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    "x-request-id": requestId,
    ...SECURITY_HEADERS,
    connection: "close",
    ...refusal.headers
  }
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`
}

/** Ends `socket` with `response`, and drops it if the client keeps it open past `LINGER_MS`. */
const endWith = (socket: Duplex, response: string) => {
  socket.end(response)
  const linger = setTimeout(() => socket.destroy(), LINGER_MS)
  linger.unref()
  socket.once("close", () => clearTimeout(linger))
}

/**
 * The id of the request whose bytes were refused: when they are the body of the request being
 * answered, that request's own (the client's `X-Request-Id` if valid); else a new one, as no
 * header of the refused request was read.
 */
const refusedRequestId = (response: ServerResponse<IncomingMessage> | undefined): string => {
  const request = response?.req
  const incoming = request !== undefined && !request.complete ? request.headers["x-request-id"] : undefined
  return requestIdFrom(typeof incoming === "string" ? incoming : undefined)
}

/**
 * Calls `answer` once an answer written to `socket` would be read as the refused request's.
 * HTTP/1.1 answers requests in order, so a refused request pipelined behind others waits for their
 * responses. If the refused bytes are the body of the request being answered, its response is the
 * answer: written now if it has not begun, else the connection is dropped, as a response cannot be
 * replaced halfway.
 */
const whenAnswerable = (
  socket: Duplex,
  inFlight: ResponsesInFlight,
  answer: (response: ServerResponse<IncomingMessage> | undefined) => void
): void => {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const response = inFlight.current(socket)
  if (response === undefined) answer(undefined)
  else if (response.req.complete) response.once("close", () => whenAnswerable(socket, inFlight, answer))
  else if (response.headersSent) socket.destroy()
  else answer(response)
}

/** What `ClientErrors` must know of the server that Node does not tell. */
export interface ClientErrorsOptions {
  /**
   * The `maxHeaderSize` the server was created with, which an oversized head's refusal states;
   * Node's own limit (`http.maxHeaderSize`, which `--max-http-header-size` sets) unless given.
   */
  readonly maxHeaderSize?: number | undefined
}

/**
 * Answers the requests Node's parser refuses on `server`, and `CONNECT`, with the contract's error
 * envelope at the `MarketClock`'s time, for as long as the layer lives. Merge it beside the routes,
 * where the `MarketClock` is, and give it the same `node:http` server the platform layer serves on:
 *
 * ```ts
 * const server = createServer()
 * serve(Layer.merge(routes, ClientErrors(server)).pipe(Layer.provide(world)))
 *   .pipe(Layer.provide(NodeServerPlatform), Layer.provide(NodeHttpServer.layer(() => server, { port })))
 * ```
 *
 * A connection with a refused request is always closed, and `CONNECT` is never tunnelled, so this
 * layer does not belong on a server that is also a proxy. HTTP/1.1 only: HTTP/2 reports its errors
 * per session.
 */
export const ClientErrors = (
  server: Server,
  options: ClientErrorsOptions = {}
): Layer.Layer<never, never, MarketClock> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const headerLimitBytes = options.maxHeaderSize ?? maxHeaderSize
    const clock = yield* MarketClock
    const run = yield* FiberSet.makeRuntime()
    const inFlight = responsesInFlight(server)
    // Node reports every later chunk of a refused request again; one answer per connection.
    const refused = new WeakSet<Duplex>()

    const refuse = (socket: Duplex, refusal: Refusal) =>
      whenAnswerable(socket, inFlight, (response) =>
        run(
          clock.now.pipe(
            Effect.flatMap((atMs) =>
              Effect.sync(() =>
                socket.writable
                  ? endWith(socket, rawResponse(refusal, atMs, refusedRequestId(response)))
                  : socket.destroy()
              )
            ),
            Effect.onError(() => Effect.sync(() => socket.destroy()))
          )
        ))

    const onClientError = (error: ClientError, socket: Duplex) => {
      if (refused.has(socket)) return
      refused.add(socket)
      if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
        refuse(socket, requestTimeout)
      } else if (error.code?.startsWith("HPE_") === true) {
        refuse(socket, refusalOf(error, headerLimitBytes))
      } else {
        // The connection itself failed (reset, broken pipe): there is no one to answer.
        socket.destroy()
      }
    }

    const onConnect = (_request: IncomingMessage, socket: Duplex) => {
      // Node hands the socket over paused and without its error listener: drain it, so that the
      // client's close is seen, and keep a reset from crashing the process.
      socket.on("error", () => socket.destroy())
      socket.resume()
      refused.add(socket)
      refuse(socket, connectRefusal)
    }

    // Node answers an `Expect` other than `100-continue` with a bare 417 unless this is heard.
    const onCheckExpectation = (request: IncomingMessage, response: ServerResponse) =>
      run(Effect.flatMap(clock.now, (atMs) =>
        Effect.sync(() => {
          const refusal: Refusal = {
            code: "EXPECTATION_FAILED",
            message: `Expect: ${request.headers.expect} is not supported; only 100-continue is`
          }
          const body = JSON.stringify(errorBody(refusal.code, refusal.message, atMs))
          const requestId = requestIdFrom(
            typeof request.headers["x-request-id"] === "string" ? request.headers["x-request-id"] : undefined
          )
          // The body that may follow was never asked for: the connection closes after the answer.
          response.writeHead(417, {
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(body)),
            "x-request-id": requestId,
            ...SECURITY_HEADERS,
            connection: "close"
          })
          response.end(body)
        })))

    yield* Effect.acquireRelease(
      Effect.sync(() => {
        server.on("clientError", onClientError)
        server.on("connect", onConnect)
        server.on("checkExpectation", onCheckExpectation)
      }),
      () =>
        Effect.sync(() => {
          server.off("clientError", onClientError)
          server.off("connect", onConnect)
          server.off("checkExpectation", onCheckExpectation)
        })
    )
  }))
