/**
 * A real server on an ephemeral port, on a manual-clock scenario, and a raw JSON client for it.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { serve } from "@swapdesk/http"
import { NodeServerPlatform } from "@swapdesk/http/node"
import type { ScenarioFile } from "@swapdesk/simulator"
import { Effect, Layer, Stream } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { simulatorApp, type SimulatorAppOptions } from "../src/SimulatorServer.ts"

const key = (stem: string) => `sd_test_${stem.padEnd(40, "0")}`

export const keys = {
  aliceAll: key("AliceAll"),
  aliceRead: key("AliceRead"),
  aliceTrade: key("AliceTrade"),
  aliceAlerts: key("AliceAlerts"),
  aliceAccount: key("AliceAccount"),
  aliceExpired: key("AliceExpired"),
  bobAll: key("BobAll"),
  /** Well-formed, but no account has it. */
  unknown: key("Nobody")
} as const

const noFailures = { failureRate: 0 }

/** Alice (Free) and Bob (Pro), networks that never drop a transaction, a clock that moves only when told. */
export const testScenario: ScenarioFile = {
  seed: 7,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z" },
  rateLimits: false,
  historyDays: 3,
  networks: { solana: noFailures, ethereum: noFailures, base: noFailures, arbitrum: noFailures },
  accounts: [
    {
      id: "acct_alice",
      plan: "free",
      apiKeys: [
        { name: "all", key: keys.aliceAll, scopes: ["read", "trade", "alerts", "account"] },
        { name: "read", key: keys.aliceRead, scopes: ["read"] },
        { name: "trade", key: keys.aliceTrade, scopes: ["trade"] },
        { name: "alerts", key: keys.aliceAlerts, scopes: ["alerts"] },
        { name: "account", key: keys.aliceAccount, scopes: ["account"] },
        { name: "expired", key: keys.aliceExpired, scopes: ["read"], expiresAt: "2025-12-31T00:00:00Z" }
      ],
      notifications: { email: "alice@example.com" },
      wallets: [
        {
          network: "solana",
          address: "AliceSolanaWallet1111111111111111111111111",
          delegatedSigning: true,
          balances: { SOL: "10", USDC: "1000" }
        },
        {
          network: "ethereum",
          address: "0x1111111111111111111111111111111111111111",
          delegatedSigning: false,
          balances: { ETH: "2", USDC: "5000" }
        }
      ]
    },
    {
      id: "acct_bob",
      plan: "pro",
      apiKeys: [{ name: "all", key: keys.bobAll, scopes: ["read", "trade", "alerts", "account"] }],
      notifications: { email: "bob@example.com", telegram: { chatId: "42" } },
      wallets: [
        {
          network: "solana",
          address: "BobSolanaWallet11111111111111111111111111",
          delegatedSigning: true,
          balances: { SOL: "100", USDC: "100000" }
        }
      ]
    }
  ]
}

/**
 * The standalone server's app on `scenario`, listening on an ephemeral port, with a client pointed
 * at it; `options` as `simulatorApp` takes them (a control key, the log bound, CORS origins).
 */
export const testServer = (
  scenario: ScenarioFile = testScenario,
  options: SimulatorAppOptions = {}
) =>
  serve(simulatorApp(scenario, options)).pipe(
    Layer.provide(NodeServerPlatform),
    Layer.provideMerge(NodeHttpServer.layerTest)
  )

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
  /** The body as sent. */
  readonly text: string
}

/** One request; a JSON body is parsed, any other is kept as text. */
export const call = (
  method: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS",
  path: string,
  options: {
    readonly key?: string
    readonly body?: unknown
    readonly rawBody?: string
    /** Sent with `Transfer-Encoding: chunked`, no length announced. */
    readonly chunkedBody?: string
    readonly headers?: Record<string, string>
  } = {}
): Effect.Effect<Reply, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path)
    if (options.key !== undefined) request = HttpClientRequest.bearerToken(request, options.key)
    if (options.headers !== undefined) request = HttpClientRequest.setHeaders(request, options.headers)
    if (options.body !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, options.body)
    if (options.rawBody !== undefined) {
      request = HttpClientRequest.bodyText(
        request,
        options.rawBody,
        options.headers?.["content-type"] ?? "application/json"
      )
    }
    if (options.chunkedBody !== undefined) {
      request = HttpClientRequest.bodyStream(
        request,
        Stream.make(new TextEncoder().encode(options.chunkedBody)),
        { contentType: options.headers?.["content-type"] ?? "application/json" }
      )
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    const json = (response.headers["content-type"] ?? "").includes("json")
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : json ? JSON.parse(text) : text,
      text
    }
  }).pipe(Effect.orDie)

/** Moves the manual market clock forward. */
export const advance = (ms: number) => call("POST", "/v1/sim/clock/advance", { body: { ms } })
