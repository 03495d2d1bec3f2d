/**
 * What the HTTP benchmark's parent and its server processes (`serverProcess.ts`) say to each other
 * over the IPC channel, and the requests all of them know.
 */

/** The public route the raw server imitates. */
export const MARKET_DATA_PATH = "/v1/market-data?token=SOL"

/**
 * Which servers a process runs. Each group has a process of its own, so that no server's code is
 * warmed up (and its call sites made polymorphic) by another's load, as none is in production:
 * - `api`: the swapdesk server, which the targets hold;
 * - `raw`: `node:http` answering the market-data bytes, the baseline;
 * - `comparisons`: the `effect/http` and HttpApi floors answering the same bytes.
 */
export type ServerGroup = "api" | "raw" | "comparisons"

/** The servers each group answers on. */
export interface ServerUrls {
  readonly api: {
    /** The swapdesk server. */
    readonly apiUrl: string
  }
  readonly raw: {
    /** `node:http` answering the market-data bytes. */
    readonly rawUrl: string
  }
  readonly comparisons: {
    /** An `effect/http` router answering the market-data bytes. */
    readonly floorUrl: string
    /** An `effect/http-api` endpoint served by `HttpApiBuilder`, answering the market-data bytes. */
    readonly apiFloorUrl: string
    /** The same endpoint served by swapdesk's `ApiRoutes`. */
    readonly routesFloorUrl: string
  }
}

export type ServerRequest =
  | { readonly type: "usage" }
  | { readonly type: "profileStart" }
  | { readonly type: "profileStop"; readonly file: string }
  | { readonly type: "stop" }

export type ServerReply =
  | { readonly type: "ready"; readonly urls: ServerUrls[ServerGroup] }
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
