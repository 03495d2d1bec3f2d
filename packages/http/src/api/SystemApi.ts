/**
 * `/v1/health`: is the service up, and on what.
 */
import { Schema } from "effect"
import { HttpApiGroup, OpenApi } from "effect/http-api"
import { readRoute } from "./Routes.ts"
import { KeyCheck } from "./Security.ts"

const BlockNumber = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** One network of a live server, as `/v1/health` reports it. */
export const NetworkHealthView = Schema.Struct({
  chainId: Schema.Int,
  /** Whether the network's RPC answers, with the configured chain id. */
  rpc: Schema.Literals(["up", "down"]),
  /** The latest block the RPC reported; null until it has answered once. */
  headBlock: Schema.NullOr(BlockNumber),
  /** The latest block the market-data index holds; null until it has written its first range. */
  indexedBlock: Schema.NullOr(BlockNumber),
  /** `headBlock - indexedBlock`; null when either is. */
  lagBlocks: Schema.NullOr(Schema.Int),
  /** Whether the index is too far behind for current market data: `lagBlocks` over the server's limit, or null. */
  lagging: Schema.Boolean.annotate({
    description: "True when the market-data index is more than the server's limit (50 blocks) behind the head, " +
      "or has indexed nothing yet: market data and alerts on this network may be stale"
  })
})
export type NetworkHealthView = typeof NetworkHealthView.Type

/** `GET /v1/health` `data`. */
export const HealthView = Schema.Struct({
  status: Schema.Literal("ok"),
  version: Schema.String,
  /** What the service runs on (`Backend`): named by the server that composes the routes. */
  backend: Schema.String.annotate({
    description: "What the service runs on: `simulator` on the built-in simulator, `live` on real chains, " +
      "`custom` on other adapters"
  }),
  time: Schema.String,
  /** On a live server: each network it serves, by name. Absent on the simulator. */
  networks: Schema.optionalKey(
    Schema.Record(Schema.String, NetworkHealthView).annotate({
      description: "On a live server, each EVM network by name: its RPC's state, head block and index lag"
    })
  )
})
export type HealthView = typeof HealthView.Type

/** `/v1/health`. */
export class SystemApi extends HttpApiGroup.make("system")
  .add(
    readRoute("health", "/v1/health", HealthView, { summary: "Liveness" })
  )
  .annotate(OpenApi.Description, "Service status")
  .middleware(KeyCheck)
{}
