// A second process for the conformance suite's alert-limit race: core's Alerts on the SQL store at
// argv[2], creating argv[3] price alerts for acc_free from argv[4] (epoch ms) on, one after another
// (this process's lock), on a market clock that takes 2 ms to answer, as a busy process may pause
// between its count and its write. Prints each outcome's tag as one JSON line.
import { AlertIndex, Alerts, IdGenerator, idPrefixes, MarketClock } from "@swapdesk/core"
import { SqlStore } from "@swapdesk/store"
import { Effect, Layer } from "effect"
import { randomUUID } from "node:crypto"

const [location, countText, startText] = process.argv.slice(2)
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
  Layer.provide(Layer.merge(slowClock, ids))
)
const body = { type: "price", token: "SOL", condition: "above", targetPrice: 1e9, channel: "email" } as const

const program = Effect.gen(function*() {
  const alerts = yield* Alerts
  yield* Effect.sleep(Math.max(0, Number(startText) - Date.now()))
  const outcomes = yield* Effect.forEach(
    Array.from({ length: Number(countText) }),
    () => Effect.match(alerts.create("acc_free", body), { onFailure: (e) => e._tag, onSuccess: () => "Created" }),
    { concurrency: "unbounded" }
  )
  console.log(JSON.stringify(outcomes))
})

await Effect.runPromise(Effect.provide(program, layer))
