/**
 * The core's ports on real EVM networks, as one layer: `Chain`, `Wallets`, `PriceFeed`,
 * `OrderSigner`, the networks' `LiveNetworkStatus`, and the `LiveState` they share (which the
 * followers, `layerLiveFollowers`, need too). It requires the repositories the holds are rebuilt
 * from, and no `MarketReactor`: the core's `DomainLive` can be built on it.
 */
import { Chain, OrderRepository, OrderSigner, PriceFeed, TradeRepository, Wallets } from "@swapdesk/core"
import { Context, Effect, Layer } from "effect"
import type { DelegatedSigner, ExecutorSigner } from "../DelegatedSigners.ts"
import type { LiveConfig } from "../LiveConfig.ts"
import { makeLiveChain } from "./LiveChain.ts"
import { LiveNetworkStatus, makeLiveNetworkStatus } from "./LiveNetworkStatus.ts"
import { makeLiveOrderSigner } from "./LiveOrderSigner.ts"
import { makeLivePriceFeed } from "./LivePriceFeed.ts"
import { LiveState, makeLiveState } from "./LiveState.ts"
import { liveTokensOf } from "./LiveTokens.ts"
import { makeLiveWallets, restoreHolds } from "./LiveWallets.ts"

/** What the live ports are built from. */
export interface LivePortsOptions {
  readonly config: LiveConfig
  /** The delegated wallets' keys (`readDelegatedSigners`). */
  readonly signers: ReadonlyArray<DelegatedSigner>
  /** The networks' executor keys (`readExecutorSigners`): limit orders fill through them. */
  readonly executors?: ReadonlyArray<ExecutorSigner>
  /** Per RPC call: 10 s when absent. */
  readonly rpcTimeoutMs?: number
  /** How often each network's RPC is checked: 5 s when absent. */
  readonly statusPollIntervalMs?: number
  /** How long an external wallet's swap waits for its owner: 10 minutes when absent (tests shorten it). */
  readonly approvalTimeoutMs?: number
}

/** Every live port, over one shared state. */
export const layerLivePorts = (
  options: LivePortsOptions
): Layer.Layer<
  Chain | Wallets | PriceFeed | OrderSigner | LiveNetworkStatus | LiveState,
  never,
  TradeRepository | OrderRepository
> =>
  Layer.effectContext(Effect.gen(function*() {
    const state = makeLiveState(
      options.config,
      options.signers,
      options.rpcTimeoutMs === undefined ? {} : { rpcTimeoutMs: options.rpcTimeoutMs },
      options.executors ?? []
    )
    yield* restoreHolds(state)
    const status = yield* makeLiveNetworkStatus(
      state,
      options.statusPollIntervalMs === undefined ? {} : { pollIntervalMs: options.statusPollIntervalMs }
    )
    return Context.make(LiveState, state).pipe(
      Context.add(LiveNetworkStatus, status),
      Context.add(
        Chain,
        makeLiveChain(state, {
          status,
          ...(options.approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs: options.approvalTimeoutMs })
        })
      ),
      Context.add(Wallets, makeLiveWallets(state, status)),
      Context.add(PriceFeed, makeLivePriceFeed(state, liveTokensOf(options.config))),
      Context.add(OrderSigner, makeLiveOrderSigner(state))
    )
  }))
