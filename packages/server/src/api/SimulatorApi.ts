/**
 * `/v1/sim/*`: the simulator's control routes (docs/simulator.md#control-routes), mounted only when the server
 * runs on the simulator. On a loopback address no key is needed (a present but invalid one is still
 * refused); elsewhere they take the operator's `SIM_CONTROL_KEY` (`ControlAuthentication`).
 */
import { IsoDateTime, Network, PriceUsd, queryInteger, TokenReference, TradeView } from "@swapdesk/core"
import {
  Api,
  BadRequest,
  Conflict,
  documented,
  Envelope,
  jsonBody,
  NotFound,
  queryRoute,
  readRoute,
  RequestValidation
} from "@swapdesk/http"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ControlAuthentication } from "../ControlAuthentication.ts"

const PositiveFinite = Schema.Finite.check(Schema.isGreaterThan(0, { message: "must be greater than 0" }))
/**
 * At most 31 days in one call: a day of the demo market takes about a third of a second to run,
 * so one request stays within seconds. Longer spans take several calls.
 */
const MAX_ADVANCE_MS = 31 * 86_400_000
/** A trillion dollars: beyond any real swap, and small enough that summed volumes stay finite. */
const WhaleValueUsd = PositiveFinite.check(Schema.isLessThanOrEqualTo(1e12, { message: "must be at most 1e12 (USD)" }))
const Duration = Schema.Finite.check(
  Schema.isInt({ message: "must be a whole number of milliseconds" }),
  Schema.isBetween({ minimum: 1, maximum: MAX_ADVANCE_MS }, { message: `must be between 1 and ${MAX_ADVANCE_MS}` })
)

/** How many entries one page of the event log or the outbox holds: 1000 unless asked, at most 10,000. */
export const logPageLimits = { defaultLimit: 1000, maxLimit: 10_000 } as const

/** A page of the event log or the outbox: the entries after `seq` `after` (0: from the oldest kept), up to `limit`. */
export const LogPageQuery = Schema.Struct({
  after: Schema.optionalKey(queryInteger(0, Number.MAX_SAFE_INTEGER, /^(0|[1-9][0-9]{0,14})$/)),
  limit: Schema.optionalKey(queryInteger(1, logPageLimits.maxLimit, /^([1-9][0-9]{0,3}|10000)$/))
})
/** The last `seq` of a page, or `null` when nothing follows it. */
const NextAfter = Schema.NullOr(Schema.Int)

export const ClockView = Schema.Struct({ now: IsoDateTime, mode: Schema.Literals(["manual", "realtime"]) })
export const AdvanceBody = Schema.Struct({ ms: Duration })
export const AdvancedView = Schema.Struct({ now: IsoDateTime })
export const SetPriceBody = Schema.Struct({ price: PriceUsd })
export const PriceSetView = Schema.Struct({ token: Schema.String, price: Schema.Finite, at: IsoDateTime })
export const FaultBody = Schema.Struct({
  network: Network,
  kind: Schema.Literals(["outage", "congestion", "gas_spike"]),
  durationMs: Duration
})
export const FaultView = Schema.Struct({
  network: Network,
  kind: Schema.Literals(["outage", "congestion", "gas_spike"]),
  startsAt: IsoDateTime,
  endsAt: IsoDateTime
})
export const ApprovalBody = Schema.Struct({ tradeId: Schema.String, approve: Schema.Boolean })
export const WhaleBody = Schema.Struct({ token: TokenReference, network: Network, valueUsd: WhaleValueUsd })
export const WhaleView = Schema.Struct({
  token: Schema.String,
  network: Network,
  valueUsd: Schema.Finite,
  at: IsoDateTime
})
export const OutboxView = Schema.Struct({
  notifications: Schema.Array(Schema.Struct({
    seq: Schema.Int,
    channel: Schema.Literals(["email", "push", "telegram"]),
    to: Schema.String,
    alertId: Schema.String,
    message: Schema.String,
    sentAt: IsoDateTime,
    /** `recorded` (no real channel configured), `pending` (attempts go on), `sent`, or `failed` after the last attempt. */
    status: Schema.Literals(["recorded", "pending", "sent", "failed"]),
    /** Attempts made on the real channel. */
    attempts: Schema.Int
  })),
  nextAfter: NextAfter
})
export const EventsView = Schema.Struct({
  events: Schema.Array(Schema.Struct({
    seq: Schema.Int,
    at: IsoDateTime,
    type: Schema.String,
    data: Schema.Record(Schema.String, Schema.Unknown)
  })),
  nextAfter: NextAfter
})

/** The options of a control action: its JSON body (`jsonBody`) and the `data` it answers. */
const action = <Payload extends Schema.Top, Data extends Schema.Top, const Errors extends ReadonlyArray<Schema.Top>>(
  payload: Payload,
  data: Data,
  ...errors: Errors
) => ({ ...jsonBody(payload, ...errors), success: Envelope(data) })

export class SimulatorApi extends HttpApiGroup.make("sim")
  .add(
    readRoute("clock", "/v1/sim/clock", ClockView, { summary: "The market clock" }),
    HttpApiEndpoint.post("advance", "/v1/sim/clock/advance", action(AdvanceBody, AdvancedView, BadRequest, Conflict))
      .annotateMerge(documented({
        summary: "Manual clock: run every event due in the next `ms`, in order",
        examples: { body: { ms: 60_000 } }
      })),
    HttpApiEndpoint.put("setPrice", "/v1/sim/prices/:token", {
      params: { token: Schema.String },
      ...action(SetPriceBody, PriceSetView, BadRequest, Conflict)
    }).annotateMerge(documented({
      summary:
        "Move a token's USD price; alerts are evaluated before the response (409 PRICE_FROM_HISTORY on a replayed token)",
      examples: { body: { price: 250 } }
    })),
    HttpApiEndpoint.post("fault", "/v1/sim/faults", action(FaultBody, FaultView, BadRequest)).annotateMerge(documented({
      summary: "Inject an outage, congestion or gas spike on a network",
      examples: { body: { network: "ethereum", kind: "congestion", durationMs: 300_000 } }
    })),
    HttpApiEndpoint.post(
      "approval",
      "/v1/sim/approvals",
      action(ApprovalBody, TradeView, BadRequest, NotFound, Conflict)
    )
      .annotateMerge(documented({
        summary: "The wallet approves or rejects a trade awaiting approval",
        examples: { body: { tradeId: "trd_V0EqxmPlrww0EEmI9QfJ", approve: true } }
      })),
    HttpApiEndpoint.post("whale", "/v1/sim/whales", action(WhaleBody, WhaleView, BadRequest)).annotateMerge(documented({
      summary: "A whale swap happens now",
      examples: { body: { token: "SOL", network: "solana", valueUsd: 2_500_000 } }
    })),
    queryRoute("outbox", "/v1/sim/outbox", LogPageQuery, OutboxView, {
      summary:
        "Every notification, with its delivery status and attempts, oldest first, a page at a time (the most recent kept)"
    }),
    queryRoute("events", "/v1/sim/events", LogPageQuery, EventsView, {
      summary: "The ordered event log, oldest first, a page at a time (the most recent kept)"
    })
  )
  .annotate(
    OpenApi.Description,
    "Simulator control: the market clock, prices, faults, approvals, whales, the outbox and the event log (only on the simulator)"
  )
  .middleware(ControlAuthentication)
{}

/** The contract plus the simulator's control routes: what the standalone server serves. */
export class SimulatorBackedApi extends Api.add(SimulatorApi.middleware(RequestValidation)) {}
