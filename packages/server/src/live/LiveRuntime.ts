/**
 * The ports live mode runs on beside the chains: the wall clock, real timers, ids from the CSPRNG,
 * events logged, notifications on the configured channels, Node's SHA-256 for API keys, and the
 * live key environment (keys created through the API are `sd_live_…`, and only those sign in).
 * Requires the configured channels (`ChannelTransport`).
 */
import { ApiKeyEnvironment, MarketClock } from "@swapdesk/core"
import { NodeSecretHasher } from "@swapdesk/http/node"
import { Layer } from "effect"
import { layerChannelNotifier } from "./ChannelNotifier.ts"
import { layerLoggedDomainEvents } from "./LoggedDomainEvents.ts"
import { layerRandomIds } from "./RandomIds.ts"
import { layerWallClockTimer } from "./WallClockTimer.ts"

/** Every non-chain port of a live deployment. */
export const layerLiveRuntime = layerChannelNotifier.pipe(
  Layer.provideMerge(Layer.mergeAll(
    MarketClock.layer,
    layerWallClockTimer,
    layerRandomIds,
    layerLoggedDomainEvents,
    NodeSecretHasher,
    Layer.succeed(ApiKeyEnvironment, "live")
  ))
)
