/**
 * Every request a Node HTTP server receives, however it arrives. Node emits `request` for most, but
 * a request with `Expect: 100-continue` arrives as `checkContinue` instead whenever the server has a
 * listener for that event (as Effect's Node server does), and never as `request`. Listening to both
 * is what lets a tracker see every response the server owes.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"

/** Told of each request as it arrives, before the server's own listeners. */
export type Arrival = (request: IncomingMessage, response: ServerResponse<IncomingMessage>) => void

// One pair of listeners per server, however many callers ask: one call per request each.
const arrivalsOf = new WeakMap<Server, Array<Arrival>>()

/**
 * Calls `arrival` for every request `server` receives from now on, ahead of its other listeners.
 * While nothing else listens to `checkContinue`, this does what Node does without a listener: it
 * sends `100 Continue` and emits the request as `request`.
 */
export const onRequestArrival = (server: Server, arrival: Arrival): void => {
  const known = arrivalsOf.get(server)
  if (known !== undefined) {
    known.push(arrival)
    return
  }
  const arrivals = [arrival]
  arrivalsOf.set(server, arrivals)
  const continued = new WeakSet<IncomingMessage>()
  const tell = (request: IncomingMessage, response: ServerResponse<IncomingMessage>) => {
    for (const each of arrivals) each(request, response)
  }
  server.prependListener("request", (request, response) => {
    if (!continued.has(request)) tell(request, response)
  })
  server.prependListener("checkContinue", (request, response) => {
    tell(request, response)
    if (server.listenerCount("checkContinue") > 1) return
    continued.add(request)
    response.writeContinue()
    server.emit("request", request, response)
  })
}
