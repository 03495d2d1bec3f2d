/**
 * Requests exactly as given (any method, path bytes, headers and body, chunked or not) over a pool of
 * keep-alive connections, through node:http: what the platform's client would normalise or refuse
 * to send is what the fuzz and race tests need to send.
 */
import { Effect } from "effect"
import { Agent, request } from "node:http"

export interface RawRequest {
  readonly method: string
  /** The request target as sent: path and query, already escaped (or deliberately not). */
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** Send the body with `Transfer-Encoding: chunked` instead of a `Content-Length`. */
  readonly chunked?: boolean | undefined
}

export interface RawReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | Array<string> | undefined>>
  readonly text: string
  /** The body parsed when it is JSON, else undefined. */
  readonly json: any
}

/** A keep-alive pool of at most `sockets` connections to 127.0.0.1:`port`. */
export const rawClient = (port: number, sockets: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets })
  const send = (req: RawRequest, timeoutMs = 30_000): Effect.Effect<RawReply, Error> =>
    Effect.callback<RawReply, Error>((resume) => {
      const headers: Record<string, string> = { ...req.headers }
      if (req.body !== undefined && !req.chunked) headers["content-length"] = String(Buffer.byteLength(req.body))
      const outgoing = request(
        { host: "127.0.0.1", port, agent, method: req.method, path: req.path, headers, timeout: timeoutMs },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("error", (error) => resume(Effect.fail(error)))
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8")
            let json: any = undefined
            if (String(response.headers["content-type"] ?? "").includes("json") && text !== "") {
              try {
                json = JSON.parse(text)
              } catch {
                json = undefined
              }
            }
            resume(Effect.succeed({ status: response.statusCode!, headers: response.headers, text, json }))
          })
        }
      )
      outgoing.on("timeout", () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)))
      outgoing.on("error", (error) => resume(Effect.fail(error)))
      if (req.body !== undefined) {
        if (req.chunked) outgoing.write(req.body)
        outgoing.end(req.chunked ? undefined : req.body)
      } else {
        outgoing.end()
      }
    })
  return { send, close: () => agent.destroy() }
}
