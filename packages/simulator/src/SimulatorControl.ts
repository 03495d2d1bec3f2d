/**
 * The simulator's control operations (docs/simulator.md#control-routes): advance the clock, move a price,
 * inject a fault or a whale, and read the outbox and the event log. Every operation that moves the
 * world runs under one lock and tells the domain (through `MarketReactor`) what happened before it
 * returns, so an alert a price move triggers has fired by the time the caller hears back.
 */
import {
  ClockNotManual,
  type InvalidToken,
  MarketReactor,
  type Network,
  PriceFromHistory,
  simulatorCatalog
} from "@swapdesk/core"
import { Context, Effect, Layer, Semaphore } from "effect"
import type { FaultKind } from "./chain/Faults.ts"
import type { LoggedEvent } from "./EventLog.ts"
import type { SentNotification } from "./Simulation.ts"
import { SimulationState } from "./SimulationState.ts"

/**
 * How many quiet ticks the advance loop runs between two yields to other fibers: about what the
 * runtime's own budget (2048 operations) gave when every tick was a step of its own.
 */
const YIELD_EVERY = 1024

/** A page of the event log, as `GET /v1/sim/events` answers it: oldest first; `nextAfter` is the cursor on. */
export interface EventPage {
  readonly events: ReadonlyArray<LoggedEvent>
  /** The last `seq` returned, to pass as `after` for the next page; `null` when nothing follows. */
  readonly nextAfter: number | null
}

/** A page of the outbox, as `GET /v1/sim/outbox` answers it: oldest first; `nextAfter` is the cursor on. */
export interface OutboxPage {
  readonly notifications: ReadonlyArray<SentNotification>
  /** The last `seq` returned, to pass as `after` for the next page; `null` when nothing follows. */
  readonly nextAfter: number | null
}

export class SimulatorControl extends Context.Service<SimulatorControl, {
  /** Market time now, in epoch milliseconds (`GET /v1/sim/clock` writes it as ISO 8601), and the clock's mode. */
  readonly clock: Effect.Effect<{ readonly now: number; readonly mode: "manual" | "realtime" }>
  /** Manual mode: runs every event due in the next `ms`, in order; answers the new time. */
  readonly advance: (ms: number) => Effect.Effect<number, ClockNotManual>
  /** Runs every event due by `targetMs` (the realtime driver's step); answers the new time. */
  readonly advanceTo: (targetMs: number) => Effect.Effect<number>
  /** Refused for a token whose price is replayed from history (docs/simulator.md, "Replaying history"). */
  readonly setPrice: (token: string, priceUsd: number) => Effect.Effect<void, InvalidToken | PriceFromHistory>
  readonly injectFault: (network: Network, kind: FaultKind, durationMs: number) => Effect.Effect<void>
  readonly whale: (token: string, network: Network, valueUsd: number) => Effect.Effect<void, InvalidToken>
  /** Up to `limit` notifications sent after `seq` `after`, oldest first, from the ones kept. */
  readonly outbox: (after: number, limit: number) => Effect.Effect<OutboxPage>
  /** Up to `limit` log entries after `seq` `after`, oldest first, from the ones kept. */
  readonly events: (after: number, limit: number) => Effect.Effect<EventPage>
}>()("@swapdesk/simulator/SimulatorControl") {
  static readonly layer = Layer.effect(
    SimulatorControl,
    Effect.gen(function*() {
      const sim = yield* SimulationState
      const reactor = yield* MarketReactor
      const lock = yield* Semaphore.make(1)
      const exclusive = lock.withPermits(1)

      const drive = (until: number) =>
        Effect.gen(function*() {
          let quietTicks = 0
          for (;;) {
            const report = sim.step(until)
            if (report === undefined) break
            if (report._tag === "Market") {
              // Most ticks ask nothing of the domain: their no-op is skipped, and the loop yields to
              // other fibers every `YIELD_EVERY` ticks instead, as the runtime would have.
              const reaction = reactor.onMarket(report.observation)
              if (reaction !== Effect.void) yield* reaction
              else if (++quietTicks % YIELD_EVERY === 0) yield* Effect.yieldNow
            } else if (report._tag === "Trades") {
              for (const { event, tradeId } of report.events) yield* reactor.onTradeEvent(tradeId, event)
            } else {
              // Deferred work (a delivery's next attempt) runs beside the market, never holding it.
              for (const task of report.tasks) yield* Effect.forkDetach(task)
            }
          }
          sim.settle(until)
          return sim.now
        })

      return {
        clock: Effect.sync(() => ({ now: sim.now, mode: sim.mode })),
        advance: (ms) =>
          sim.mode === "manual"
            ? exclusive(Effect.suspend(() => drive(sim.now + ms)))
            : Effect.fail(new ClockNotManual()),
        advanceTo: (targetMs) => exclusive(Effect.suspend(() => drive(Math.max(targetMs, sim.now)))),
        setPrice: (token, priceUsd) =>
          Effect.flatMap(
            simulatorCatalog.resolve(token),
            (t) =>
              sim.market.isReplayed(t.symbol)
                ? Effect.fail(new PriceFromHistory({ token: t.symbol }))
                : exclusive(Effect.suspend(() => reactor.onMarket(sim.setPrice(t.symbol, priceUsd))))
          ),
        injectFault: (network, kind, durationMs) =>
          exclusive(Effect.sync(() => sim.injectFault(network, kind, durationMs))),
        whale: (token, network, valueUsd) =>
          Effect.flatMap(
            simulatorCatalog.resolve(token, network),
            (t) => exclusive(Effect.suspend(() => reactor.onMarket(sim.whale(t.symbol, network, valueUsd))))
          ),
        outbox: (after, limit) =>
          Effect.sync(() => {
            const { entries, nextAfter } = sim.outbox.page(after, limit)
            return { notifications: entries, nextAfter }
          }),
        events: (after, limit) =>
          Effect.sync(() => {
            const { entries, nextAfter } = sim.log.page(after, limit)
            return { events: entries, nextAfter }
          })
      }
    })
  )
}
