/**
 * Requests written byte by byte on a connection of their own, for what Node's parser must judge:
 * a route of the definition with, most of the time, one thing wrong in its framing, request line,
 * headers or line ends, or a request pipelined behind it; and the answers read back from the bytes.
 */
import { fc } from "@fast-check/vitest"
import { Effect } from "effect"
import { connect } from "node:net"
import { keys } from "./harness.ts"

/** Mostly `usual`, sometimes one of `odd`. */
const mostly = <A>(usual: A, ...odd: Array<A>) =>
  fc.oneof({ weight: 12, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constantFrom(...odd) })

/** A request's bytes: a route of the definition (`METHOD /path`) with, most of the time, one thing wrong. */
export const rawHead = (routes: ReadonlyArray<string>) =>
  fc.record({
    route: fc.constantFrom(...routes),
    method: mostly<string | undefined>(undefined, "get", "G\u00c9T", "", "POST POST", "CONNECT", "PRI", "TRACE"),
    target: mostly<string | undefined>(
      undefined,
      "*",
      "http://127.0.0.1/v1/health",
      "//v1/health",
      "/v1/health?a=\u0001",
      "/v1/he alth",
      "/v1/health\u0000",
      "/v1/health#frag",
      "/v1/\u00e9",
      `/v1/${"x".repeat(20_000)}`,
      ""
    ),
    version: mostly("HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1x", "HTTP/9", ""),
    host: mostly(["Host: x"], [], ["Host: x", "Host: y"], ["Host: "], ["Host: a b"]),
    framing: mostly<ReadonlyArray<string> | undefined>(
      undefined,
      [],
      ["Content-Length: 2", "Content-Length: 3"],
      ["Content-Length: -1"],
      ["Content-Length: abc"],
      ["Content-Length: 99999999999999999999"],
      ["Content-Length: 1, 2"],
      ["Transfer-Encoding: chunked"],
      ["Transfer-Encoding: chunked", "Content-Length: 2"],
      ["Transfer-Encoding: gzip, chunked"],
      ["Transfer-Encoding: chunked, gzip"],
      ["Transfer-Encoding: xchunked"],
      ["Transfer-Encoding: chunked", "Transfer-Encoding: identity"]
    ),
    auth: fc.constantFrom([`Authorization: Bearer ${keys.bobAll}`], []),
    others: fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      {
        weight: 1,
        arbitrary: fc.array(
          fc.constantFrom(
            `Authorization: Bearer ${keys.aliceAll}`,
            "X-Folded: a\r\n b",
            "No colon here",
            ": no name",
            "X-Bad\u0001Name: 1",
            "X-Null: a\u0000b",
            "X-Latin: \u00e9",
            "Expect: 100-continue",
            "Expect: 200-ok",
            "Connection: close",
            "Connection: keep-alive, Upgrade",
            "Upgrade: websocket",
            `X-Long: ${"a".repeat(20_000)}`,
            "Idempotency-Key: \u00ff",
            "X-Request-Id: ../../x",
            "Content-Encoding: gzip",
            "Content-Type: text/plain"
          ),
          { minLength: 1, maxLength: 3 }
        )
      }
    ),
    eol: mostly("\r\n", "\n", "\r"),
    body: mostly<string | undefined>(undefined, "", "{", "2\r\n{}\r\n0\r\n\r\n", "zz\r\n", "x".repeat(70_000)),
    /** A second request pipelined behind the first. */
    pipelined: mostly("", "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", "GARBAGE\r\n\r\n")
  }).map((r) => {
    const [method, path] = r.route.split(" ") as [string, string]
    const body = r.body ?? (method === "GET" || method === "DELETE" ? "" : "{}")
    const framing = r.framing ?? (body === "" ? [] : [`Content-Length: ${Buffer.byteLength(body, "latin1")}`])
    const type = body === "" ? [] : ["Content-Type: application/json"]
    const lines = [...r.host, ...framing, ...type, ...r.auth, ...r.others]
    return `${r.method ?? method} ${r.target ?? path} ${r.version}`.trim() + r.eol
      + lines.map((line) => line + r.eol).join("") + r.eol + body + r.pipelined
  })

/** Writes `bytes` on a new connection, half-closes it, and returns all the server sent before closing. */
export const exchange = (port: number, bytes: string) =>
  Effect.callback<string>((resume) => {
    const socket = connect(port, "127.0.0.1")
    let received = ""
    socket.setEncoding("latin1")
    socket.setTimeout(10_000, () => socket.destroy())
    socket.on("data", (chunk: string) => (received += chunk))
    socket.on("error", () => undefined)
    socket.on("close", () => resume(Effect.succeed(received)))
    socket.end(Buffer.from(bytes, "latin1"))
  })

export interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** The answers in `text`, in order; what cannot be read as one is a problem. */
export const answersIn = (text: string): { answers: Array<RawAnswer>; problem?: string } => {
  const answers: Array<RawAnswer> = []
  let rest = text
  while (rest !== "") {
    const headEnd = rest.indexOf("\r\n\r\n")
    if (headEnd < 0) return { answers, problem: `not an HTTP response: ${JSON.stringify(rest.slice(0, 200))}` }
    const [statusLine, ...lines] = rest.slice(0, headEnd).split("\r\n")
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(":")
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    const status = Number(statusLine!.split(" ")[1])
    rest = rest.slice(headEnd + 4)
    let body = ""
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const lineEnd = rest.indexOf("\r\n")
        const size = parseInt(rest.slice(0, lineEnd), 16)
        if (lineEnd < 0 || Number.isNaN(size)) return { answers, problem: "a broken chunked answer" }
        body += rest.slice(lineEnd + 2, lineEnd + 2 + size)
        rest = rest.slice(lineEnd + 2 + size + 2)
        if (size === 0) break
      }
    } else {
      const length = Number(headers["content-length"] ?? 0)
      body = rest.slice(0, length)
      rest = rest.slice(length)
    }
    answers.push({ status, headers, body })
    if (status === 100) continue
  }
  return { answers }
}
