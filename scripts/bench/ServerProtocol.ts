/**
 * What the HTTP benchmark's parent and its server process (`serverProcess.ts`) say to each other
 * over the IPC channel, and the requests both of them know.
 */

/** The public route the raw server imitates. */
export const MARKET_DATA_PATH = "/v1/market-data?token=SOL"

export type ServerRequest =
  | { readonly type: "usage" }
  | { readonly type: "profileStart" }
  | { readonly type: "profileStop"; readonly file: string }
  | { readonly type: "stop" }

export type ServerReply =
  | {
    readonly type: "ready"
    /** The swapdesk server, on its default request path (`ApiRoutes`). */
    readonly apiUrl: string
    /** The same server on the `HttpApiBuilder` request path (Effect's builder). */
    readonly builderApiUrl: string
    /** `node:http` answering the market-data bytes. */
    readonly rawUrl: string
    /** An `effect/http` router answering the market-data bytes. */
    readonly floorUrl: string
    /** An `effect/http-api` endpoint served by `HttpApiBuilder`, answering the market-data bytes. */
    readonly apiFloorUrl: string
    /** The same endpoint served by swapdesk's `ApiRoutes`. */
    readonly routesFloorUrl: string
    readonly bodyBytes: number
  }
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
