// A second process for the conformance suite's alert-limit race: core's Alerts on the SQL store at
// argv[2], creating argv[3] price alerts for acc_free at once (one after another under this process's
// lock), on a market clock that takes 2 ms to answer, as a busy process may pause between its count
// and its write. It talks to the test by lines: it prints "ready" once connected and waits for "go"
// (sent when every racer is ready), prints "started" as its creations begin, and holds its last
// creation until it reads "all started", so that its creations cannot all be over before the other
// racer's begin. Last it prints one JSON line: each outcome's tag, and when (epoch ms) its creations
// started and ended.
import {
  AlertIndex,
  Alerts,
  IdGenerator,
  idPrefixes,
  MarketClock,
  simulatorTokens,
  TokenRegistry
} from "@swapdesk/core"
import { SqlStore } from "@swapdesk/store"
import { Deferred, Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"
import { createInterface } from "node:readline"

const [location, countText] = process.argv.slice(2)
const ids = Layer.succeed(IdGenerator, {
  next: (kind) => Effect.sync(() => `${idPrefixes[kind]}${randomUUID()}`),
  token: (length) => Effect.sync(() => randomUUID().replaceAll("-", "").slice(0, length))
})
const slowClock = Layer.succeed(MarketClock, {
  now: Effect.andThen(Effect.sleep("2 millis"), Effect.sync(() => Date.now()))
})
const layer = Alerts.layer.pipe(
  Layer.provideMerge(AlertIndex.layer),
  Layer.provideMerge(Layer.orDie(SqlStore.layer(SqlStore.parseDatabaseUrl(location!)))),
  Layer.provide(Layer.mergeAll(slowClock, ids, TokenRegistry.layer(simulatorTokens)))
)
const body = { type: "price", token: "SOL", condition: "above", targetPrice: 1e9, channel: "email" } as const
/** Wall-clock time with sub-millisecond precision, comparable between processes on one machine. */
const wallNow = () => performance.timeOrigin + performance.now()

const program = Effect.gen(function*() {
  const alerts = yield* Alerts
  const go = yield* Deferred.make<void>()
  const allStarted = yield* Deferred.make<void>()
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (line === "go") Deferred.doneUnsafe(go, Effect.void)
    if (line === "all started") Deferred.doneUnsafe(allStarted, Effect.void)
  })
  console.log("ready")
  yield* Deferred.await(go)
  const started = wallNow()
  console.log("started")
  const count = Number(countText)
  const outcomes = yield* Effect.forEach(
    Array.from({ length: count }, (_, i) => i),
    (i) =>
      Effect.andThen(
        i === count - 1 ? Deferred.await(allStarted) : Effect.void,
        Effect.match(alerts.create("acc_free", body), { onFailure: (e) => e._tag, onSuccess: () => "Created" })
      ),
    { concurrency: "unbounded" }
  )
  const ended = wallNow()
  console.log(JSON.stringify({ outcomes, started, ended }))
})

await Effect.runPromise(Effect.provide(program, layer))
process.exit(0)
