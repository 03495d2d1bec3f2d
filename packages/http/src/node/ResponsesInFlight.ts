/**
 * Which responses a Node HTTP/1.1 server still owes on each connection, learnt from what Node
 * documents: each request's arrival (`RequestArrivals.ts`: `request.socket`, `response`) and the
 * response's `close`. HTTP/1.1 answers requests in order, so the first response still owed on a connection is
 * the one Node is writing; those pipelined behind it wait for it.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { onRequestArrival } from "./RequestArrivals.ts"

/** The responses Node still owes on each connection, in order. */
export interface ResponsesInFlight {
  /** The responses still owed on `socket`, in the order Node writes them; empty when it is idle. */
  readonly on: (socket: Duplex) => ReadonlyArray<ServerResponse<IncomingMessage>>
  /** The response Node is writing on `socket`: the first owed that has not finished, if any. */
  readonly current: (socket: Duplex) => ServerResponse<IncomingMessage> | undefined
}

const none: ReadonlyArray<ServerResponse<IncomingMessage>> = []

// One tracker per server, however many layers ask for it: one listener per request.
const trackers = new WeakMap<Server, ResponsesInFlight>()

/**
 * The tracker of `server`'s responses, installed on first use. A response stays listed until it
 * closes (Node emits `close` once it has finished, or when the connection is lost first), so only
 * requests received after this call are known: call it before the server listens.
 */
export const responsesInFlight = (server: Server): ResponsesInFlight => {
  const known = trackers.get(server)
  if (known !== undefined) return known
  const bySocket = new WeakMap<Duplex, Array<ServerResponse<IncomingMessage>>>()
  // One listener shared by every response, rather than a closure per request: this is on every request's path.
  function forget(this: ServerResponse<IncomingMessage>) {
    const owed = bySocket.get(this.req.socket)
    const at = owed === undefined ? -1 : owed.indexOf(this)
    if (at !== -1) owed!.splice(at, 1)
  }
  onRequestArrival(server, (request, response) => {
    const owed = bySocket.get(request.socket)
    if (owed === undefined) bySocket.set(request.socket, [response])
    else owed.push(response)
    response.on("close", forget)
  })
  const on = (socket: Duplex) => bySocket.get(socket) ?? none
  const current = (socket: Duplex) => on(socket).find((response) => !response.writableFinished)
  const tracker: ResponsesInFlight = { on, current }
  trackers.set(server, tracker)
  return tracker
}
