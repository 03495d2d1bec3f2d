/**
 * The chain-facing side of the live server: `@swapdesk/evm`'s live adapters for the file's networks,
 * signing with the delegated wallets' keys, and each network's state for `/v1/health`.
 */
import type { NetworkHealthView } from "@swapdesk/http"
import { Effect, type Layer } from "effect"
import type { ChainPorts, LiveWorld } from "../LiveServer.ts"
import { StartupFailure } from "../StartupFailure.ts"
import type { LiveStart } from "./LiveStart.ts"

/** What `liveApp` takes from the chains, and the names of the networks served. */
export interface LiveChains {
  readonly chains: Layer.Layer<ChainPorts, StartupFailure>
  readonly followers: Layer.Layer<never, StartupFailure, LiveWorld>
  readonly networks: Effect.Effect<Readonly<Record<string, NetworkHealthView>>>
  readonly networkNames: ReadonlyArray<string>
}

/** The chains' ports and health for the checked live start. */
export const liveChains = (_start: LiveStart): Effect.Effect<LiveChains, StartupFailure> =>
  Effect.fail(new StartupFailure({ message: "LIVE_CONFIG: the live chain adapters are not built yet" }))
