/**
 * The live server's world (docs/live.md): the contract's routes and the trading interface (at `/`)
 * on the chains, without the simulator's `/v1/sim` routes (they answer `404 NOT_FOUND`, as any
 * unknown route). `Chain`, `Wallets`, `PriceFeed` and `OrderSigner` are `@swapdesk/evm`'s live
 * adapters, and its followers report each trade's later life; the market routes and the alerts
 * answer from the chain index kept in the store (`layerLiveMarketData`, `layerLiveMarketObserver`);
 * the tokens (`TokenRegistry`) are the file's; the other ports run on the wall clock
 * (`live/LiveRuntime.ts`); the records are kept in the SQL store, seeded with the file's accounts
 * and keys (`live/LiveSeed.ts`).
 */
import {
  type ChannelTransport,
  DomainLive,
  rateLimitsPerMinute,
  UnsignedOrderTimeout,
  type WebhookTransport
} from "@swapdesk/core"
import {
  ChainIndex,
  type DelegatedSigner,
  type ExecutorSigner,
  layerLiveFollowers,
  layerLiveMarketData,
  layerLiveMarketObserver,
  layerLivePorts,
  layerLiveTokenRegistry,
  type LiveConfig,
  type LiveFollowerOptions,
  LiveNetworkStatus
} from "@swapdesk/evm"
import {
  Api,
  ApiMiddlewares,
  Backend,
  ContractHandlers,
  CorsOrigins,
  HealthNetworks,
  type NetworkHealthView,
  RateLimits,
  serveApi
} from "@swapdesk/http"
import type { SimulatorRepositories } from "@swapdesk/simulator"
import { InterfaceRoutes } from "@swapdesk/web"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { layerLiveRuntime } from "./live/LiveRuntime.ts"
import { layerLiveSeed } from "./live/LiveSeed.ts"
import { webhooksOnly } from "./SimulatorServer.ts"

/** How the live server runs, beside its file. */
export interface LiveAppOptions<E> {
  /** The delegated wallets' keys (`readDelegatedSigners`): they sign here and go nowhere else. */
  readonly signers: ReadonlyArray<DelegatedSigner>
  /** The networks' executor keys (`readExecutorSigners`): limit orders fill through them. */
  readonly executors?: ReadonlyArray<ExecutorSigner> | undefined
  /** Where the records and the chain index are kept: the SQL store (`main.ts` opens `DATABASE_URL`). */
  readonly repositories: Layer.Layer<Layer.Success<SimulatorRepositories> | SqlClient.SqlClient, E>
  /** Real notification channels and the webhook sender (webhooks to any host, no channel, unless given). */
  readonly adapters?: Layer.Layer<ChannelTransport | WebhookTransport> | undefined
  /** The origins browsers may call the API from (`CORS_ORIGINS`); none unless given. */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /** How the trades in flight are followed (`@swapdesk/evm`'s defaults unless given). */
  readonly followers?: LiveFollowerOptions | undefined
  /** How long an external wallet's swap waits for its owner: 10 minutes unless given (tests shorten it). */
  readonly approvalTimeoutMs?: number | undefined
  /** How long an external wallet's order waits for its signature: 10 minutes unless given (tests shorten it). */
  readonly unsignedOrderTimeoutMs?: number | undefined
}

/**
 * How far behind its network's head the index may be before `/v1/health` flags it `lagging`: about
 * ten minutes of Ethereum blocks, two of Base's (docs/decisions.md, "Index lag in health").
 */
export const indexLagLimitBlocks = 50

/**
 * `/v1/health`'s `networks`: each network's RPC state and head block, the index's last block and
 * `lagBlocks = headBlock - indexedBlock`, and whether the index is `lagging` (more than
 * `indexLagLimitBlocks` behind, or nothing indexed yet).
 */
const layerHealthNetworks = Layer.effect(
  HealthNetworks,
  Effect.gen(function*() {
    const status = yield* LiveNetworkStatus
    const index = yield* ChainIndex
    return Effect.gen(function*() {
      const networks = yield* status.networks
      const indexed = new Map((yield* index.networks).map((n) => [n.network as string, n.indexedBlock]))
      const view: Record<string, NetworkHealthView> = {}
      for (const network of networks) {
        const indexedBlock = indexed.get(network.network) ?? null
        // The index reads the head on its own schedule: it can be a block ahead of the RPC check.
        const lagBlocks = indexedBlock === null || network.headBlock === null
          ? null
          : Math.max(0, network.headBlock - indexedBlock)
        view[network.network] = {
          chainId: network.chainId,
          rpc: network.rpc,
          headBlock: network.headBlock,
          indexedBlock,
          lagBlocks,
          lagging: lagBlocks === null || lagBlocks > indexLagLimitBlocks
        }
      }
      return view
    })
  })
)

/**
 * Everything the live server runs on `config`, the trading interface at `/` included; provide an
 * HTTP server to serve it.
 */
export const liveApp = <E>(config: LiveConfig, options: LiveAppOptions<E>) => {
  const runtime = Layer.mergeAll(
    layerLiveRuntime.pipe(Layer.provideMerge(options.adapters ?? webhooksOnly)),
    options.repositories,
    layerLiveTokenRegistry(config)
  )
  // Each RPC is checked at the adapters' default interval (5 s), which is the `Retry-After` of a
  // `503 NETWORK_UNAVAILABLE` (docs/decisions.md, "NETWORK_UNAVAILABLE").
  const ports = layerLivePorts({
    config,
    signers: options.signers,
    executors: options.executors ?? [],
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs })
  }).pipe(
    Layer.provideMerge(layerLiveSeed(config).pipe(Layer.provideMerge(runtime)))
  )
  // The index's `PriceFeed` replaces the ports' spot-only one: every market route and every alert
  // answers from the indexed swaps (docs/live.md, "Market data from the chain").
  const market = layerLiveMarketData(config).pipe(Layer.provide(ports))
  const followers = layerLiveFollowers({
    ...options.followers,
    ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs })
  })
  const world = Layer.mergeAll(followers, layerLiveMarketObserver(config)).pipe(
    Layer.provideMerge(DomainLive.pipe(
      Layer.provideMerge(Layer.merge(ports, market)),
      Layer.provide(Layer.succeed(UnsignedOrderTimeout, options.unsignedOrderTimeoutMs ?? 10 * 60_000))
    ))
  )
  const handlers = ContractHandlers.pipe(
    Layer.provide(Layer.succeed(Backend, "live")),
    Layer.provide(layerHealthNetworks)
  )
  return Layer.merge(serveApi(Api), InterfaceRoutes.layer()).pipe(
    Layer.provide(handlers),
    Layer.provide(Layer.succeed(CorsOrigins, new Set(options.corsOrigins ?? []))),
    Layer.provideMerge(
      ApiMiddlewares.pipe(Layer.provide(Layer.succeed(RateLimits, { enabled: true, perMinute: rateLimitsPerMinute })))
    ),
    Layer.provideMerge(world)
  )
}
