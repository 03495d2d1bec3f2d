/**
 * What the header says about the server behind the interface: its backend (`simulator` or `live`)
 * and, in live mode, each network's node as `GET /v1/health` reports it (docs/live.md), so a network
 * whose RPC does not answer is marked before a trade on it is refused with `NETWORK_UNAVAILABLE`,
 * and one whose index is behind (`lagging`) says by how many blocks: its market data is that old.
 */
import type { Health, NetworkHealth } from "./api/Types.ts"

/** One network's state in the header's badge. */
export interface NetworkBadge {
  readonly network: string
  readonly up: boolean
  /** Shown beside the name when something is wrong: the node is down, or its index lags. */
  readonly status: string | null
  /** What a reader is told: the chain, whether its node answers, and how far indexing lags. */
  readonly title: string
}

/** What the badge says beside a network's name: nothing while its node answers and its index keeps up. */
const statusOf = (state: NetworkHealth): string | null => {
  if (state.rpc !== "up") return "down"
  if (!state.lagging) return null
  return state.lagBlocks === null ? "indexing" : `indexing, ${state.lagBlocks} blocks behind`
}

/** The backend's label: "Simulator", "Live", or the backend's own name for one this interface does not know. */
export const backendLabel = (health: Health | null): string | null => {
  if (health === null) return null
  if (health.backend === "simulator") return "Simulator"
  if (health.backend === "live") return "Live"
  return health.backend
}

/** The live networks in name order (none on the simulator), a down node and a lagging index marked. */
export const networkBadges = (health: Health | null): ReadonlyArray<NetworkBadge> =>
  Object.entries(health?.networks ?? {})
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([network, state]) => ({
      network,
      up: state.rpc === "up",
      status: statusOf(state),
      title: state.rpc === "up"
        ? `${network} (chain ${state.chainId}): node up, head block ${state.headBlock ?? "unknown"}${
          state.lagBlocks === null ? "" : `, indexing ${state.lagBlocks} blocks behind`
        }`
        : `${network} (chain ${state.chainId}): node down, trades on it are refused until it answers`
    }))
