/**
 * Whether each configured network can be used: its RPC answers, with the configured chain id. A
 * poll fiber reads every network's chain id and head block; a network whose RPC does not answer,
 * or answers another chain id, is down until a later poll finds it back. What needs the node fails
 * at once on a down network with `NetworkUnavailable` (`503 NETWORK_UNAVAILABLE`, `Retry-After`).
 */
import type { Network } from "@swapdesk/core"
import { Context, Effect, Layer } from "effect"
import { type EvmNetwork, isEvmNetwork } from "../EvmNetwork.ts"
import { NetworkUnavailable } from "../EvmRpcFailure.ts"
import { LiveState, type LiveStateShape } from "./LiveState.ts"

/** One network's state, as `GET /v1/health` shows it. */
export interface LiveNetworkHealth {
  readonly network: EvmNetwork
  readonly chainId: number
  readonly rpc: "up" | "down"
  /** The last head block read, null before any was. */
  readonly headBlock: number | null
  /** Why the network is down (absent when up). */
  readonly reason?: string
}

/** The networks' state, kept by a poll fiber. */
export class LiveNetworkStatus extends Context.Service<LiveNetworkStatus, {
  /** Every configured network, in the order ethereum, base, arbitrum. */
  readonly networks: Effect.Effect<ReadonlyArray<LiveNetworkHealth>>
  /** Succeeds when the network is up; fails with `NetworkUnavailable` when it is down or not configured. */
  readonly requireUp: (network: Network) => Effect.Effect<void, NetworkUnavailable>
  /** How long a client should wait before trying a down network again: the poll interval, in seconds. */
  readonly retryAfterSeconds: number
}>()("@swapdesk/evm/LiveNetworkStatus") {}

/** How the status is polled. */
export interface LiveNetworkStatusOptions {
  /** 5 s when absent. */
  readonly pollIntervalMs?: number
}

/** Reads every network once (so the status is known when the layer is built), then polls in a fiber. */
export const makeLiveNetworkStatus = (state: LiveStateShape, options: LiveNetworkStatusOptions = {}) =>
  Effect.gen(function*() {
    const pollIntervalMs = options.pollIntervalMs ?? 5_000
    const health = new Map<EvmNetwork, LiveNetworkHealth>()
    for (const [network, context] of state.networks) {
      health.set(network, {
        network,
        chainId: context.settings.chainId,
        rpc: "down",
        headBlock: null,
        reason: "not read yet"
      })
    }
    const pollOnce = Effect.forEach(
      [...state.networks.values()],
      (context) =>
        Effect.all([context.rpc.verifyChain, context.rpc.headBlock], { concurrency: 2 }).pipe(
          Effect.match({
            onSuccess: ([, head]) =>
              health.set(context.network, {
                network: context.network,
                chainId: context.settings.chainId,
                rpc: "up",
                headBlock: Number(head)
              }),
            onFailure: (failure) =>
              health.set(context.network, {
                ...health.get(context.network)!,
                rpc: "down",
                reason: failure._tag === "NetworkUnavailable" ? failure.reason : failure._tag
              })
          })
        ),
      { concurrency: "unbounded", discard: true }
    )
    yield* pollOnce
    yield* Effect.forkScoped(Effect.forever(Effect.andThen(Effect.sleep(pollIntervalMs), pollOnce)))
    return LiveNetworkStatus.of({
      networks: Effect.sync(() => [...health.values()]),
      requireUp: (network) =>
        Effect.suspend(() => {
          const found = isEvmNetwork(network) ? health.get(network) : undefined
          if (found === undefined) {
            return Effect.fail(
              new NetworkUnavailable({ network: network as EvmNetwork, reason: "not a network of the live file" })
            )
          }
          return found.rpc === "up"
            ? Effect.void
            : Effect.fail(new NetworkUnavailable({ network: found.network, reason: found.reason ?? "down" }))
        }),
      retryAfterSeconds: Math.max(1, Math.ceil(pollIntervalMs / 1000))
    })
  })

/** The status service over the shared state. */
export const layerLiveNetworkStatus = (options: LiveNetworkStatusOptions = {}) =>
  Layer.effect(LiveNetworkStatus, LiveState.use((state) => makeLiveNetworkStatus(state, options)))
