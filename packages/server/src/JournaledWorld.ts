/**
 * A simulated world that survives a restart (docs/storage.md#what-a-restart-restores). Every call
 * that changes the world (the API's writes and the `/v1/sim` control calls) runs under one lock, in
 * the order the journal records it, its entry committed before it runs: the simulator is
 * deterministic, so replaying the journal from the scenario's seed at the same market times
 * rebuilds the market, the chains, the wallets, the pending trades, the open orders, the alerts'
 * state and the event log exactly. Which calls those are, how their arguments are stored and what
 * each runs is one table (JournaledOperations), from which both the journaled services here and
 * the replay derive. The realtime driver's advances are journaled at most once a
 * second of wall time (an advance to a later time runs every step the skipped ones would have).
 */
import {
  AlertIndex,
  Alerts,
  ApiKeys,
  type AttemptFailure,
  ChannelTransport,
  IdempotencyStore,
  idPrefixes,
  type Notification,
  notificationRetryDelaysMs,
  Notifications,
  OrderIndex,
  Orders,
  TokenRegistry,
  type TradeDecision,
  Trades,
  ValidationFailed,
  type WebhookDeliveryRecord,
  type WebhookMessage,
  Webhooks,
  WebhookTransport
} from "@swapdesk/core"
import { type IdempotentClaim, IdempotentRequest } from "@swapdesk/http"
import { SimulationState, type SimulatorAdapters, SimulatorControl, takeWorldSnapshot } from "@swapdesk/simulator"
import { Restoring, SimulatorJournal, SimulatorSnapshots, UnansweredClaims } from "@swapdesk/store"
import { Clock, Context, Deferred, Effect, Layer, Semaphore } from "effect"
import { createHash } from "node:crypto"
import { makeClaimSettlement } from "./ClaimSettlement.ts"
import {
  decodeJournal,
  journalArguments,
  type JournaledOperation,
  JournaledOperations as operations,
  type JournaledServices
} from "./JournaledOperations.ts"

/** A claim as the journal and the claims table both know it. */
const claimIdentity = (claim: { readonly key: string; readonly fingerprint: string; readonly claimedAt: number }) =>
  JSON.stringify([claim.key, claim.fingerprint, claim.claimedAt])

/** A wallet's decision as the journal keeps it: the simulator's wallets only approve or reject. */
const approvalArgs = (tradeId: string, decision: TradeDecision) => ({ tradeId, approve: decision._tag !== "Reject" })

/** How often, at most, the realtime driver's advances are journaled (wall-clock ms). */
const DRIVER_JOURNAL_INTERVAL_MS = 1_000

/**
 * A snapshot is due after a day of market time or a thousand journaled calls since the last one,
 * whichever comes first: a restart then replays at most about that much (docs/storage.md#snapshots).
 */
const SNAPSHOT_AFTER_MS = 86_400_000
const SNAPSHOT_AFTER_ENTRIES = 1_000

/** Replays the journal found at start onto the freshly built world, then hands it the database. */
export class JournalReplay extends Context.Service<JournalReplay, {
  readonly restore: Effect.Effect<void>
}>()("@swapdesk/server/JournalReplay") {}

/**
 * The use cases and the control service, journaled; and {@link JournalReplay}. Requires the world's
 * own (unjournaled) services, which the replay calls.
 */
export const layerJournaled = Layer.effectContext(Effect.gen(function*() {
  const trades = yield* Trades
  const orders = yield* Orders
  const alerts = yield* Alerts
  const apiKeys = yield* ApiKeys
  const webhooks = yield* Webhooks
  const notifications = yield* Notifications
  const control = yield* SimulatorControl
  const tokens = yield* TokenRegistry
  const journal = yield* SimulatorJournal
  const restoring = yield* Restoring
  const claims = yield* UnansweredClaims
  const idempotency = yield* IdempotencyStore
  const sim = yield* SimulationState
  const snapshots = yield* SimulatorSnapshots
  const world = yield* Effect.context<SimulationState | AlertIndex | OrderIndex>()
  const services: JournaledServices = { trades, orders, alerts, apiKeys, webhooks, notifications, control, tokens }
  const lock = yield* Semaphore.make(1)
  let appendedAt = Number.NEGATIVE_INFINITY
  // The last entry whose call the world includes: a snapshot taken now covers the journal up to it.
  let journalSeq = yield* journal.lastSeq
  // Since the last snapshot (or the start: a restored world is as fresh as its snapshot, give or
  // take the journal replayed after it).
  let snapshotAt = sim.now
  let entriesSinceSnapshot = 0
  // The `Idempotency-Key` claims of the calls journaled since the last snapshot.
  let claimsSinceSnapshot: Array<IdempotentClaim> = []

  // A call made for a request holding an `Idempotency-Key` claim is journaled with that claim, so a
  // restart can answer the claim should the crash leave it without a response (ClaimSettlement).
  const append = <Args, A, E>(operation: JournaledOperation<Args, A, E>, args: Args) =>
    Effect.gen(function*() {
      appendedAt = yield* Clock.currentTimeMillis
      const claim = yield* IdempotentRequest
      const entry = yield* journal.append(sim.now, operation.name, journalArguments(operation, args, claim))
      journalSeq = entry.seq
      entriesSinceSnapshot++
      if (claim !== undefined) claimsSinceSnapshot.push(claim)
      return entry
    })

  /**
   * Takes a snapshot once one is due and the world can be taken, before a call: under the lock, so
   * the world and the records it holds are those of the journal up to the last entry. Not while a
   * delivery is under way (`takeWorldSnapshot`), nor while a call journaled since the last snapshot
   * has its `Idempotency-Key` claim still unanswered (its response is stored once the request ends,
   * after the lock): the snapshot drops the journal before it, and a restart settles such a claim
   * only from an entry it replays (ClaimSettlement). It is tried again before the next call.
   */
  const snapshotIfDue = Effect.gen(function*() {
    if (restoring.mode() !== "live") return
    if (sim.now - snapshotAt < SNAPSHOT_AFTER_MS && entriesSinceSnapshot < SNAPSHOT_AFTER_ENTRIES) return
    if (claimsSinceSnapshot.length > 0) {
      const unanswered = new Set((yield* claims.list).map(claimIdentity))
      if (claimsSinceSnapshot.some((claim) => unanswered.has(claimIdentity(claim)))) return
    }
    const taken = yield* Effect.provideContext(takeWorldSnapshot, world)
    if (taken === undefined) return
    yield* snapshots.save(journalSeq, sim.now, taken)
    snapshotAt = sim.now
    entriesSinceSnapshot = 0
    claimsSinceSnapshot = []
  })

  /**
   * Makes the call `operation(args)`: alone, once its journal entry is committed, and to the end (a
   * client hanging up must not leave a journaled call half done, which the replay would finish).
   */
  const journaled = <Args, A, E>(operation: JournaledOperation<Args, A, E>, args: Args): Effect.Effect<A, E> =>
    lock.withPermits(1)(Effect.uninterruptible(
      Effect.andThen(snapshotIfDue, Effect.andThen(append(operation, args), operation.run(services, args)))
    ))

  const restore = Effect.gen(function*() {
    // Every entry is decoded before any is replayed: one this server cannot replay refuses the start
    // with the world and the database as they were.
    const calls = decodeJournal(restoring.entries)
    // Read before anything is served: every claim without a response was cut short by the crash.
    const settlement = makeClaimSettlement(yield* claims.list, idempotency)
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!
      // The last call may have been cut short: its writes reach the database too.
      if (i === calls.length - 1) restoring.setMode("tee")
      yield* control.advanceTo(call.entry.at)
      // A call that failed the first time fails the same way now, and changes nothing either time.
      settlement.record(call.claim, yield* Effect.exit(call.run(services)), sim.now)
      // Lets the deliveries the call started make their attempts while the replay is on.
      yield* Effect.yieldNow
    }
    restoring.setMode("live")
    yield* settlement.settle
    yield* Deferred.succeed(restoring.done, undefined)
  })

  return Context.make(JournalReplay, { restore }).pipe(
    Context.add(Trades, {
      ...trades,
      create: (accountId, body) => journaled(operations.tradesCreate, { accountId, body }),
      decide: (tradeId, decision) => journaled(operations.tradesDecide, approvalArgs(tradeId, decision)),
      // The simulator's wallets sign nothing: a rejection is journaled as the control route's, and an
      // approval goes through `POST /v1/sim/approvals`.
      answer: (accountId, tradeId, decision) =>
        Effect.flatMap(trades.get(accountId, tradeId), () =>
          decision._tag === "Reject"
            ? journaled(operations.tradesDecide, approvalArgs(tradeId, decision))
            : Effect.fail(
              new ValidationFailed({
                details: [{ path: "", message: "the simulator's wallets approve through POST /v1/sim/approvals" }]
              })
            ))
    }),
    Context.add(Orders, {
      ...orders,
      create: (accountId, body) => journaled(operations.ordersCreate, { accountId, body }),
      cancel: (accountId, id) => journaled(operations.ordersCancel, { accountId, id })
    }),
    Context.add(Alerts, {
      ...alerts,
      create: (accountId, body) => journaled(operations.alertsCreate, { accountId, body }),
      setStatus: (accountId, id, status) => journaled(operations.alertsSetStatus, { accountId, id, status }),
      remove: (accountId, id) => journaled(operations.alertsRemove, { accountId, id })
    }),
    Context.add(ApiKeys, {
      ...apiKeys,
      // The caller as plain data: the key's other fields are not the call's.
      create: (caller, body) =>
        journaled(operations.apiKeysCreate, { caller: { accountId: caller.accountId, scopes: caller.scopes }, body }),
      revoke: (accountId, id) => journaled(operations.apiKeysRevoke, { accountId, id })
    }),
    Context.add(Webhooks, {
      ...webhooks,
      create: (accountId, body) => journaled(operations.webhooksCreate, { accountId, body }),
      remove: (accountId, id) => journaled(operations.webhooksRemove, { accountId, id })
    }),
    Context.add(Notifications, {
      ...notifications,
      update: (accountId, body) => journaled(operations.notificationsUpdate, { accountId, body })
    }),
    Context.add(SimulatorControl, {
      ...control,
      advance: (ms) => journaled(operations.controlAdvance, { ms }),
      // The realtime driver's step, journaled at most once a second of wall time: a later one runs
      // every step the skipped ones would have.
      advanceTo: (targetMs) =>
        lock.withPermits(1)(Effect.uninterruptible(Effect.gen(function*() {
          const wall = yield* Clock.currentTimeMillis
          if (!(targetMs > sim.now && wall - appendedAt >= DRIVER_JOURNAL_INTERVAL_MS)) {
            return yield* control.advanceTo(targetMs)
          }
          yield* snapshotIfDue
          yield* append(operations.controlAdvanceTo, { targetMs })
          return yield* operations.controlAdvanceTo.run(services, { targetMs })
        }))),
      setPrice: (token, priceUsd) => journaled(operations.controlSetPrice, { token, priceUsd }),
      injectFault: (network, kind, durationMs) =>
        journaled(operations.controlInjectFault, { network, kind, durationMs }),
      whale: (token, network, valueUsd) => journaled(operations.controlWhale, { token, network, valueUsd })
    })
  )
}))

/** A notification's identity across runs (the replay sends the same ones): its fields, digested. */
const notificationKey = (notification: Notification): string =>
  createHash("sha256").update(
    JSON.stringify([notification.alertId, notification.channel, notification.to, notification.message])
  ).digest("base64url").slice(0, 22)

/**
 * The deployment's channels and webhook sender, aware of a restore. A webhook attempt the replay
 * makes again is answered with its stored outcome (found by its id, `dlv_…-<attempt>`, among the
 * attempts that had ended when the server started), so retries follow as they did; an attempt the
 * store never saw end (the server stopped during it, or before it was due) waits for the replay to
 * finish and then goes out for real, with the message's same `webhook-id`, so the receiver can drop
 * a copy it already had. Notifications on real channels work the same way: how each attempt ended
 * is stored (`swapdesk_notification_attempts`), and only an attempt with no outcome is sent again.
 */
export const restoringAdapters = (adapters: SimulatorAdapters) =>
  Layer.effectContext(
    Effect.gen(function*() {
      const inner = yield* WebhookTransport
      const channels = yield* ChannelTransport
      const restoring = yield* Restoring
      const journal = yield* SimulatorJournal
      // Read before anything of this run writes an attempt; each is used once.
      const ended = new Map<string, WebhookDeliveryRecord>()
      const endedNotifications = new Map<string, "sent" | "failed">()
      if (restoring.entries.length > 0) {
        for (const delivery of yield* journal.endedDeliveries) ended.set(delivery.id, delivery)
        for (const [id, status] of yield* journal.endedNotifications) endedNotifications.set(id, status)
      }
      // Which attempt of each message is next: a message's attempts run one after another.
      const attempts = new Map<string, number>()
      const post = (message: WebhookMessage) =>
        Effect.gen(function*() {
          const attempt = (attempts.get(message.messageId) ?? 0) + 1
          attempts.set(message.messageId, attempt)
          const id = `${idPrefixes.delivery}${message.messageId.slice(idPrefixes.message.length)}-${attempt}`
          const stored = ended.get(id)
          ended.delete(id)
          if (stored?.status === "succeeded") {
            attempts.delete(message.messageId)
            return stored.responseStatus ?? 200
          }
          if (stored !== undefined) {
            return yield* Effect.fail({
              reason: "failed before the restart",
              ...(stored.responseStatus === null ? {} : { responseStatus: stored.responseStatus })
            })
          }
          attempts.delete(message.messageId)
          yield* Deferred.await(restoring.done)
          return yield* inner.post(message)
        })
      // The same for notifications, whose attempts are all recorded as they end.
      const notificationAttempts = new Map<string, number>()
      const send = (notification: Notification): Effect.Effect<void, AttemptFailure> =>
        Effect.gen(function*() {
          const key = notificationKey(notification)
          const attempt = (notificationAttempts.get(key) ?? 0) + 1
          // After the last attempt the count is not needed any more.
          if (attempt > notificationRetryDelaysMs.length) notificationAttempts.delete(key)
          else notificationAttempts.set(key, attempt)
          const id = `${key}-${attempt}`
          const stored = endedNotifications.get(id)
          endedNotifications.delete(id)
          if (stored === "sent") notificationAttempts.delete(key)
          if (stored !== undefined) {
            return yield* stored === "sent" ? Effect.void : Effect.fail({ reason: "failed before the restart" })
          }
          yield* Deferred.await(restoring.done)
          const outcome = yield* Effect.result(channels.send(notification))
          yield* journal.notificationEnded(id, outcome._tag === "Success" ? "sent" : "failed")
          if (outcome._tag === "Success") notificationAttempts.delete(key)
          if (outcome._tag === "Failure") return yield* Effect.fail(outcome.failure)
        })
      return Context.make(WebhookTransport, {
        post: (message) => ended.size === 0 && restoring.mode() === "live" ? inner.post(message) : post(message),
        checkUrl: inner.checkUrl
      }).pipe(Context.add(ChannelTransport, { configured: channels.configured, send }))
    })
  ).pipe(Layer.provide(adapters))
