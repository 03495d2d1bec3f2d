/**
 * What the HTTP benchmark's parent and its server processes (`serverProcess.ts`) say to each other
 * over the IPC channel, and the requests all of them know.
 */

/** The public route the raw server imitates. */
export const MARKET_DATA_PATH = "/v1/market-data?token=SOL"

/**
 * Which server a process runs. Each has a process of its own, so that no server's code is warmed up
 * (and its call sites made polymorphic) by another's load, as none is in production:
 * - `api`: the swapdesk server, which the targets hold;
 * - `raw`: `node:http` answering the market-data bytes, the baseline;
 * - `runtime`: `node:http` answering them from one Effect fiber per request: Effect's runtime
 *   without its HTTP server;
 * - `router`: an `effect/http` router answering them from one route;
 * - `apiBuilder`, `apiRoutes`: a one-endpoint `effect/http-api` definition answering them, served
 *   by Effect's `HttpApiBuilder` and by swapdesk's `ApiRoutes`.
 */
export type ServerKind = "api" | "raw" | "runtime" | "router" | "apiBuilder" | "apiRoutes"

export type ServerRequest =
  | { readonly type: "usage" }
  | { readonly type: "profileStart" }
  | { readonly type: "profileStop"; readonly file: string }
  | { readonly type: "stop" }

export type ServerReply =
  | { readonly type: "ready"; readonly url: string }
  | {
    readonly type: "usage"
    /** User plus system CPU time since the process started, in microseconds. */
    readonly cpuMicros: number
    readonly wallMs: number
    /** Event-loop time since start, busy and idle (`performance.eventLoopUtilization`). */
    readonly loopActiveMs: number
    readonly loopIdleMs: number
  }
  | { readonly type: "profileSaved"; readonly file: string }
