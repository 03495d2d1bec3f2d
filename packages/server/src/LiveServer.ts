/**
 * The live server's world (docs/live.md): the contract's routes and the trading interface (at `/`)
 * on the chains, without the simulator's `/v1/sim` routes (they answer `404 NOT_FOUND`, as any
 * unknown route). The chain-facing ports (`Chain`, `Wallets`, `PriceFeed`, `OrderSigner`) come from
 * `@swapdesk/evm`'s live adapters, the tokens (`TokenRegistry`) from the file; the rest run on the wall clock (`live/LiveRuntime.ts`); the
 * records are kept in the SQL store, seeded with the live file's accounts and keys.
 */
import {
  type Chain,
  type ChannelTransport,
  DomainLive,
  type OrderSigner,
  type PriceFeed,
  rateLimitsPerMinute,
  type TokenRegistry,
  type Wallets,
  type WebhookTransport
} from "@swapdesk/core"
import type { LiveConfig } from "@swapdesk/evm"
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
import { type Effect, Layer } from "effect"
import { layerLiveRuntime } from "./live/LiveRuntime.ts"
import { layerLiveSeed } from "./live/LiveSeed.ts"
import { webhooksOnly } from "./SimulatorServer.ts"

/** The ports a live deployment takes from the chains, and the file's tokens. */
export type ChainPorts = Chain | Wallets | PriceFeed | OrderSigner | TokenRegistry

/** The core's use cases and ports, as the live server builds them: what `followers` may require. */
export type LiveWorld = Layer.Success<typeof DomainLive> | Layer.Success<typeof layerLiveRuntime> | ChainPorts

/** How the live server runs, beside its file. */
export interface LiveAppOptions<E, EF = never> {
  /** The chain-facing ports (`@swapdesk/evm`'s live adapters). */
  readonly chains: Layer.Layer<ChainPorts, E>
  /** What follows the chains once the world is built (trades in flight, new blocks); nothing unless given. */
  readonly followers?: Layer.Layer<never, EF, LiveWorld> | undefined
  /** Each network's state, for `/v1/health`. */
  readonly networks: Effect.Effect<Readonly<Record<string, NetworkHealthView>>>
  /** Where the records are kept: the SQL store (`main.ts` opens `DATABASE_URL`). */
  readonly repositories: SimulatorRepositories<E>
  /** Real notification channels and the webhook sender (webhooks to any host, no channel, unless given). */
  readonly adapters?: Layer.Layer<ChannelTransport | WebhookTransport> | undefined
  /** The origins browsers may call the API from (`CORS_ORIGINS`); none unless given. */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
}

/**
 * Everything the live server runs, the trading interface at `/` included; provide an HTTP server
 * to serve it.
 */
export const liveApp = <E, EF = never>(config: LiveConfig, options: LiveAppOptions<E, EF>) => {
  const runtime = layerLiveRuntime.pipe(Layer.provideMerge(options.adapters ?? webhooksOnly))
  const base = Layer.mergeAll(runtime, options.repositories, options.chains)
  const domain = DomainLive.pipe(Layer.provideMerge(layerLiveSeed(config).pipe(Layer.provideMerge(base))))
  const world = (options.followers ?? Layer.empty).pipe(Layer.provideMerge(domain))
  const handlers = ContractHandlers.pipe(
    Layer.provide(Layer.succeed(Backend, "live")),
    Layer.provide(Layer.succeed(HealthNetworks, options.networks))
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
