/**
 * `/v1/sim/*` on the simulator's control service (and, for approvals, the `Trades` use cases,
 * since the approval is a fact about the trade record).
 */
import { toIso, TokenRegistry, Trades, tradeView } from "@swapdesk/core"
import { ApiHandlers, makeResponder } from "@swapdesk/http"
import { SimulationState, SimulatorControl } from "@swapdesk/simulator"
import { Effect } from "effect"
import { logPageLimits, SimulatorBackedApi } from "../api/SimulatorApi.ts"

export const SimulatorHandlers = ApiHandlers.group(SimulatorBackedApi, "sim", (handlers) =>
  Effect.gen(function*() {
    const { respond } = yield* makeResponder
    const control = yield* SimulatorControl
    const trades = yield* Trades
    const tokens = yield* TokenRegistry
    const tradeViewOf = tradeView(tokens)
    const sim = yield* SimulationState
    return handlers
      .handle("clock", () => respond(control.clock, ({ mode, now }) => ({ now: toIso(now), mode })))
      // A client that hangs up does not stop the market halfway through the span it asked for.
      .handle("advance", ({ payload }) => respond(control.advance(payload.ms), (now) => ({ now: toIso(now) })), {
        uninterruptible: true
      })
      .handle("setPrice", ({ params, payload }) =>
        respond(
          Effect.flatMap(
            tokens.resolve(params.token),
            (token) => Effect.as(control.setPrice(token.symbol, payload.price), token.symbol)
          ),
          (token) => ({ token, price: payload.price, at: toIso(sim.now) })
        ))
      .handle("fault", ({ payload }) =>
        respond(
          Effect.map(control.injectFault(payload.network, payload.kind, payload.durationMs), () => sim.now),
          (startsAt) => ({
            network: payload.network,
            kind: payload.kind,
            startsAt: toIso(startsAt),
            endsAt: toIso(startsAt + payload.durationMs)
          })
        ))
      .handle("approval", ({ payload }) =>
        respond(
          trades.decide(payload.tradeId, payload.approve ? { _tag: "Approve" } : { _tag: "Reject" }),
          tradeViewOf
        ))
      .handle("whale", ({ payload }) =>
        respond(
          Effect.flatMap(
            tokens.resolve(payload.token, payload.network),
            (token) => Effect.as(control.whale(token.symbol, payload.network, payload.valueUsd), token.symbol)
          ),
          (token) => ({ token, network: payload.network, valueUsd: payload.valueUsd, at: toIso(sim.now) })
        ))
      .handle("outbox", ({ query }) =>
        respond(control.outbox(query.after ?? 0, query.limit ?? logPageLimits.defaultLimit), (page) =>
          page))
      .handle("events", ({ query }) =>
        respond(control.events(query.after ?? 0, query.limit ?? logPageLimits.defaultLimit), (page) =>
          page))
  }))
