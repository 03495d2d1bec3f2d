/**
 * Stopping a Node HTTP server without dropping a request (docs/decisions.md, "Shutdown"). Node's
 * `server.close()` also closes every idle keep-alive connection at once, so a request a client sent
 * on one at that instant is reset, and the platform's shutdown then cuts a body still arriving.
 * `gracefulShutdown(server)` tracks the server's connections so that `drain()` can instead stop
 * accepting new ones, answer every request already received or still arriving on an open
 * connection with `Connection: close`, and resolve once every connection has closed (idle ones
 * close at the server's `keepAliveTimeout`), or after `limitMs`.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { Server as NetServer, type Socket } from "node:net"
import { onRequestArrival } from "./RequestArrivals.ts"
import { type ResponsesInFlight, responsesInFlight } from "./ResponsesInFlight.ts"

/** How long `drain` waits by default for open connections to finish. */
export const SHUTDOWN_LIMIT_MS = 30_000

/** Announces `Connection: close` on `response` if its head is not yet sent; whether it could. */
const announceClose = (response: ServerResponse<IncomingMessage>): boolean => {
  if (response.headersSent) return false
  response.setHeader("connection", "close")
  return true
}

/** Ends `socket` once what was written to it is sent, and closes it then, as Node does after a last response. */
const closeSoon = (socket: Socket) => {
  if (!socket.writable) return
  socket.once("finish", () => socket.destroy())
  socket.end()
}

/**
 * Makes `socket` close after the responses it owes: the first whose head is still unsent announces
 * `Connection: close` (Node closes the connection after it); when every head is already sent, the
 * connection is closed once the last has finished, unless a request that arrived meanwhile (and
 * announces it) is owed an answer.
 */
const lastOnConnection = (socket: Socket, inFlight: ResponsesInFlight) => {
  const owed = inFlight.on(socket).filter((response) => !response.writableFinished)
  if (owed.length === 0 || owed.some(announceClose)) return
  owed.at(-1)!.once("finish", () => {
    if (inFlight.current(socket) === undefined) closeSoon(socket)
  })
}

/** What `gracefulShutdown` hands back: the drain a server runs when it is asked to stop. */
export interface GracefulShutdown {
  /** Stops accepting, closes every connection after its current or next response; resolves when all are closed. */
  readonly drain: (limitMs?: number) => Promise<void>
}

/** Call before the server listens, so that every connection is tracked. */
export const gracefulShutdown = (server: Server): GracefulShutdown => {
  const connections = new Set<Socket>()
  let draining = false
  /** Ends the drain: set by `drain`, called when its last connection closes or its limit passes. */
  let drained: (() => void) | undefined
  server.on("connection", (socket: Socket) => {
    connections.add(socket)
    socket.once("close", () => {
      connections.delete(socket)
      if (connections.size === 0) drained?.()
    })
  })
  // Ahead of the server's own listeners, so the header is set before any handler writes the head.
  onRequestArrival(server, (_request, response) => {
    if (draining) announceClose(response)
  })
  const inFlight = responsesInFlight(server)
  const drain = (limitMs = SHUTDOWN_LIMIT_MS) =>
    new Promise<void>((resolve) => {
      const limit = setTimeout(() => drained?.(), limitMs)
      drained = () => {
        clearTimeout(limit)
        resolve()
      }
      draining = true
      // `net.Server`'s own close stops accepting without closing the idle connections, as
      // `http.Server`'s does; they close at `keepAliveTimeout` or after their next response.
      if (server.listening) NetServer.prototype.close.call(server)
      for (const socket of connections) lastOnConnection(socket, inFlight)
      if (connections.size === 0) drained()
    })
  return { drain }
}
