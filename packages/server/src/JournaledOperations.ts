/**
 * The calls the simulator's journal records, as one table (docs/storage.md#what-a-restart-restores): each entry
 * is a call's name in the journal, the schema of its arguments (their journal form is the schema's
 * encoding, plain JSON) and the call itself, on the world's own services. The journaled services
 * (JournaledWorld) append an entry with the table's encoding and run the entry's call; a restart
 * decodes every entry it replays with the same table and runs the same call. A name is never
 * reused for other arguments: a journal written before a change must still decode after it, or the
 * restart is refused ({@link JournalEntryRefused}) before anything is replayed.
 */
import {
  type Alerts,
  type ApiKeys,
  ApiScope,
  CreateAlertBody,
  CreateApiKeyBody,
  CreateOrderBody,
  CreateTradeBody,
  CreateWebhookBody,
  Network,
  type Notifications,
  type Orders,
  orderView,
  type TokenCatalog,
  tradeCreatedView,
  type Trades,
  UpdateNotificationsBody,
  type Webhooks
} from "@swapdesk/core"
import type { IdempotentClaim } from "@swapdesk/http"
import { faultKinds, type SimulatorControl } from "@swapdesk/simulator"
import type { JournalEntry } from "@swapdesk/store"
import { Effect, Result, Schema, SchemaIssue } from "effect"

/** The world's own (unjournaled) services, which a journaled call runs on. */
export interface JournaledServices {
  readonly trades: Trades["Service"]
  readonly orders: Orders["Service"]
  readonly alerts: Alerts["Service"]
  readonly apiKeys: ApiKeys["Service"]
  readonly webhooks: Webhooks["Service"]
  readonly notifications: Notifications["Service"]
  readonly control: SimulatorControl["Service"]
  /** The world's tokens, in whose decimals an idempotent call's response shows amounts. */
  readonly tokens: TokenCatalog
}

/**
 * A call that an `Idempotency-Key` covers: whose account the key belongs to, and the data of the
 * response its success answers with (its handler's view). A restart answers a claim the crash left
 * without a response from the call's replay (ClaimSettlement).
 */
export interface IdempotentCall<Args, A> {
  readonly accountId: (args: Args) => string
  readonly view: (tokens: TokenCatalog) => (value: A) => unknown
}

/** A call's arguments as the journal stores them: a JSON object. */
type JournalArguments = { readonly [name: string]: unknown }

/** One kind of journaled call. */
export interface JournaledOperation<Args, A, E> {
  /** The call's name in the journal (`trades.create`, `control.advance`, ...). */
  readonly name: string
  /** Its arguments; their encoding is what the journal stores. */
  readonly args: Schema.Codec<Args, JournalArguments>
  /** The call, on the world's own services: the same when it is made and when it is replayed. */
  readonly run: (world: JournaledServices, args: Args) => Effect.Effect<A, E>
  readonly idempotent?: IdempotentCall<Args, A>
  /** An entry of this call, decoded for a restart to replay it: derived from the fields above. */
  readonly decode: (entry: JournalEntry) => DecodedEntry
}

/** The `Idempotency-Key` claim a journal entry carries beside its call's arguments. */
const IdempotentClaimSchema = Schema.Struct({
  key: Schema.String,
  fingerprint: Schema.String,
  claimedAt: Schema.Finite
})
const ClaimField = Schema.Struct({ idempotency: Schema.optionalKey(IdempotentClaimSchema) })

/** A journal entry decoded, ready to be replayed. */
export interface DecodedEntry {
  readonly entry: JournalEntry
  /**
   * The call made again; for a call made for a request holding an `Idempotency-Key` claim, its
   * success is the data of that request's response.
   */
  readonly run: (world: JournaledServices) => Effect.Effect<unknown, unknown>
  /** The claim the call's replay answers, and its account. */
  readonly claim: { readonly accountId: string; readonly claim: IdempotentClaim } | undefined
}

/**
 * A journal entry this server cannot replay: a call it does not know, or arguments its schema no
 * longer decodes. The restart stops before replaying anything, naming the entry.
 */
export class JournalEntryRefused extends Error {
  override readonly name = "JournalEntryRefused"
  /** The entry's sequence number in the journal. */
  readonly seq: number
  /** The entry's call, as the journal names it. */
  readonly op: string
  constructor(seq: number, op: string, reason: string) {
    super(`journal entry ${seq} (${op}) ${reason}`)
    this.seq = seq
    this.op = op
  }
}

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** The value at `path` in plain data, if any. */
const valueAt = (data: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>(
    (value, key) =>
      typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    data
  )

/** A decoding failure of `stored` arguments in one line: each problem, where it is and what was found there. */
const describe = (error: Schema.SchemaError, stored: unknown): string =>
  formatIssues(error.issue).issues.map((issue) => {
    // The first segment is the decoded wrapper's (`args` or `claim`), not the stored arguments'.
    const path = (issue.path ?? []).slice(1).map((segment) => typeof segment === "object" ? segment.key : segment)
    const found = valueAt(stored, path)
    const where = path.length === 0 ? "" : `${path.map(String).join(".")}: `
    return `${where}${issue.message}${found === undefined ? "" : ` (found ${JSON.stringify(found)})`}`
  }).join("; ")

/** How an entry of `operation` is decoded; it throws a {@link JournalEntryRefused} for one that does not. */
function decoderOf<Args, A, E>(
  operation: Omit<JournaledOperation<Args, A, E>, "decode">
): (entry: JournalEntry) => DecodedEntry {
  const decodeArgs = Schema.decodeUnknownResult(Schema.Struct({ args: operation.args, claim: ClaimField }))
  return (entry) => {
    const decoded = decodeArgs({ args: entry.args, claim: entry.args })
    if (Result.isFailure(decoded)) {
      throw new JournalEntryRefused(entry.seq, entry.op, `no longer decodes (${describe(decoded.failure, entry.args)})`)
    }
    const { args, claim: { idempotency } } = decoded.success
    const idempotent = operation.idempotent
    if (idempotency === undefined || idempotent === undefined) {
      return { entry, run: (world) => operation.run(world, args), claim: undefined }
    }
    return {
      entry,
      run: (world) => Effect.map(operation.run(world, args), idempotent.view(world.tokens)),
      claim: { accountId: idempotent.accountId(args), claim: idempotency }
    }
  }
}

const operation = <Args, A, E>(
  definition: Omit<JournaledOperation<Args, A, E>, "decode">
): JournaledOperation<Args, A, E> => ({ ...definition, decode: decoderOf(definition) })

const AccountItem = Schema.Struct({ accountId: Schema.String, id: Schema.String })
const accountBody = <B>(body: Schema.Codec<B, unknown>) => Schema.Struct({ accountId: Schema.String, body })
const FaultKind = Schema.Literals(faultKinds)

// Most calls are of one of three kinds: on an account's record, with an account's body, on the control.

/** A call on one of an account's records, named by its id: `{ accountId, id }`. */
const accountItemCall = <A, E>(
  name: string,
  run: (world: JournaledServices, accountId: string, id: string) => Effect.Effect<A, E>
) => operation({ name, args: AccountItem, run: (world, { accountId, id }) => run(world, accountId, id) })

/** A call with an account's request body: `{ accountId, body }`. */
const accountBodyCall = <B, A, E>(
  name: string,
  body: Schema.Codec<B, unknown>,
  run: (world: JournaledServices, accountId: string, body: B) => Effect.Effect<A, E>
) => operation({ name, args: accountBody(body), run: (world, args) => run(world, args.accountId, args.body) })

/** A call on the simulator's control. */
const controlCall = <Args, A, E>(
  name: string,
  args: Schema.Codec<Args, JournalArguments>,
  run: (control: SimulatorControl["Service"], args: Args) => Effect.Effect<A, E>
) => operation({ name, args, run: ({ control }, decoded) => run(control, decoded) })

/** Every journaled call. */
export const JournaledOperations = {
  tradesCreate: operation({
    name: "trades.create",
    args: accountBody(CreateTradeBody),
    run: ({ trades }, { accountId, body }) => trades.create(accountId, body),
    idempotent: { accountId: (args) => args.accountId, view: tradeCreatedView }
  }),
  tradesDecide: operation({
    name: "trades.decide",
    args: Schema.Struct({ tradeId: Schema.String, approve: Schema.Boolean }),
    run: ({ trades }, { approve, tradeId }) =>
      trades.decide(tradeId, approve ? { _tag: "Approve" } : { _tag: "Reject" })
  }),
  ordersCreate: operation({
    name: "orders.create",
    args: accountBody(CreateOrderBody),
    run: ({ orders }, { accountId, body }) => orders.create(accountId, body),
    idempotent: { accountId: (args) => args.accountId, view: orderView }
  }),
  ordersCancel: accountItemCall("orders.cancel", ({ orders }, accountId, id) => orders.cancel(accountId, id)),
  alertsCreate: accountBodyCall(
    "alerts.create",
    CreateAlertBody,
    ({ alerts }, accountId, body) => alerts.create(accountId, body)
  ),
  alertsSetStatus: operation({
    name: "alerts.setStatus",
    args: Schema.Struct({
      accountId: Schema.String,
      id: Schema.String,
      status: Schema.Literals(["active", "disabled"])
    }),
    run: ({ alerts }, { accountId, id, status }) => alerts.setStatus(accountId, id, status)
  }),
  alertsRemove: accountItemCall("alerts.remove", ({ alerts }, accountId, id) => alerts.remove(accountId, id)),
  apiKeysCreate: operation({
    name: "apiKeys.create",
    args: Schema.Struct({
      caller: Schema.Struct({ accountId: Schema.String, scopes: Schema.Array(ApiScope) }),
      body: CreateApiKeyBody
    }),
    run: ({ apiKeys }, { body, caller }) => apiKeys.create(caller, body)
  }),
  apiKeysRevoke: accountItemCall("apiKeys.revoke", ({ apiKeys }, accountId, id) => apiKeys.revoke(accountId, id)),
  webhooksCreate: accountBodyCall(
    "webhooks.create",
    CreateWebhookBody,
    ({ webhooks }, accountId, body) => webhooks.create(accountId, body)
  ),
  webhooksRemove: accountItemCall("webhooks.remove", ({ webhooks }, accountId, id) => webhooks.remove(accountId, id)),
  notificationsUpdate: accountBodyCall(
    "notifications.update",
    UpdateNotificationsBody,
    ({ notifications }, accountId, body) => notifications.update(accountId, body)
  ),
  controlAdvance: controlCall(
    "control.advance",
    Schema.Struct({ ms: Schema.Finite }),
    (control, { ms }) => control.advance(ms)
  ),
  controlAdvanceTo: controlCall(
    "control.advanceTo",
    Schema.Struct({ targetMs: Schema.Finite }),
    (control, { targetMs }) => control.advanceTo(targetMs)
  ),
  controlSetPrice: controlCall(
    "control.setPrice",
    Schema.Struct({ token: Schema.String, priceUsd: Schema.Finite }),
    (control, args) => control.setPrice(args.token, args.priceUsd)
  ),
  controlInjectFault: controlCall(
    "control.injectFault",
    Schema.Struct({ network: Network, kind: FaultKind, durationMs: Schema.Finite }),
    (control, { durationMs, kind, network }) => control.injectFault(network, kind, durationMs)
  ),
  controlWhale: controlCall(
    "control.whale",
    Schema.Struct({ token: Schema.String, network: Network, valueUsd: Schema.Finite }),
    (control, { network, token, valueUsd }) => control.whale(token, network, valueUsd)
  )
}

/**
 * A call's journal form: its encoded arguments, and the `Idempotency-Key` claim of the request it
 * was made for, when it has one (a restart answers that claim from the call's replay).
 */
export const journalArguments = <Args, A, E>(
  operation: JournaledOperation<Args, A, E>,
  args: Args,
  claim: IdempotentClaim | undefined
): JournalArguments => {
  const encoded = Schema.encodeSync(operation.args)(args)
  return claim === undefined ? encoded : { ...encoded, idempotency: claim }
}

const byName: ReadonlyMap<string, (entry: JournalEntry) => DecodedEntry> = new Map(
  Object.values(JournaledOperations).map((operation) => [operation.name, operation.decode])
)

/**
 * Decodes the journal a restart replays, every entry before any is replayed.
 *
 * @throws JournalEntryRefused for the first entry this server cannot replay.
 */
export const decodeJournal = (entries: ReadonlyArray<JournalEntry>): ReadonlyArray<DecodedEntry> =>
  entries.map((entry) => {
    const decode = byName.get(entry.op)
    if (decode === undefined) throw new JournalEntryRefused(entry.seq, entry.op, "is a call this server does not know")
    return decode(entry)
  })
