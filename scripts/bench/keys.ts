/**
 * What recording `lastUsedAt` costs an authenticated request: `KeyAuthenticator.authenticate` on a
 * scenario key (hash, lookup, expiry check, account, and the `lastUsedAt` write), timed in process
 * with the real in-memory key repository and with one whose `touch` does nothing, interleaved in
 * the same run so that machine noise reaches both. The clock is a realtime one moving every call,
 * so every request really writes a new `lastUsedAt` (on a manual clock the time would stand still).
 *
 * Run alone with `node scripts/bench/keys.ts`, or through `pnpm bench keys`.
 */
import {
  AccountRepository,
  ApiKeyEnvironment,
  ApiKeyRepository,
  layerMemoryAccountRepository,
  layerMemoryApiKeyRepository,
  MarketClock
} from "@swapdesk/core"
import { KeyAuthenticator } from "@swapdesk/http"
import { NodeSecretHasher, sha256Hex } from "@swapdesk/http/node"
import { Effect, Layer } from "effect"
import { type BenchResult, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "keys"
const CALLS = 200_000
const SECRET = `sd_test_${"BenchKey".padEnd(40, "0")}`

/** A clock that moves one millisecond per read: every authentication is at a new instant. */
const MovingClock = Layer.sync(MarketClock, () => {
  let ms = Date.parse("2026-01-01T00:00:00Z")
  return { now: Effect.sync(() => ms++) }
})

const Seed = Layer.effectDiscard(Effect.gen(function*() {
  yield* (yield* AccountRepository).save({
    id: "acct_bench",
    plan: "pro",
    notifications: { email: null, telegram: null, push: null }
  })
  yield* (yield* ApiKeyRepository).insert({
    id: "key_bench",
    accountId: "acct_bench",
    name: "bench",
    prefix: SECRET.slice(0, 12),
    last4: SECRET.slice(-4),
    secretHash: sha256Hex(SECRET),
    scopes: ["read"],
    createdAt: 0,
    lastUsedAt: null,
    expiresAt: null,
    revokedAt: null
  })
}))

/** The memory repository with `touch` doing nothing: the path without `lastUsedAt`. */
const WithoutTouch = Layer.effect(
  ApiKeyRepository,
  Effect.map(Effect.provide(ApiKeyRepository, layerMemoryApiKeyRepository), (real) => ({
    ...real,
    touch: () => {}
  }))
)

const timeCalls = (repository: Layer.Layer<ApiKeyRepository>): Promise<number> =>
  Effect.runPromise(
    Effect.gen(function*() {
      const authenticator = yield* KeyAuthenticator
      const started = performance.now()
      for (let i = 0; i < CALLS; i++) yield* authenticator.authenticate(SECRET)
      return ((performance.now() - started) * 1_000_000) / CALLS
    }).pipe(
      Effect.provide(
        KeyAuthenticator.layer.pipe(
          Layer.provideMerge(Seed),
          Layer.provideMerge(Layer.mergeAll(
            repository,
            layerMemoryAccountRepository,
            MovingClock,
            NodeSecretHasher,
            // The key is a simulator's (`sd_test_`), so the authenticator is told it serves one.
            Layer.succeed(ApiKeyEnvironment, "test")
          ))
        )
      ),
      Effect.orDie
    )
  )

const { progress, row } = reporter(BENCHMARK)

export const runKeysBench = async ({ runs }: { readonly runs: number }): Promise<BenchResult> => {
  const withTouch: Array<number> = []
  const without: Array<number> = []
  const difference: Array<number> = []
  for (let run = 0; run <= runs; run++) {
    progress(
      `${run === 0 ? "warm-up" : `run ${run}/${runs}`} (${CALLS.toLocaleString("en-US")} authentications each way)`
    )
    // Alternate which goes first, so that neither always runs on a warmer (or noisier) machine.
    const first = run % 2 === 0
    const b0 = first ? await timeCalls(WithoutTouch) : 0
    const a = await timeCalls(layerMemoryApiKeyRepository)
    const b = first ? b0 : await timeCalls(WithoutTouch)
    if (run === 0) continue
    withTouch.push(a)
    without.push(b)
    difference.push(a - b)
  }
  const touchNs = median(withTouch)
  const noTouchNs = median(without)
  return {
    rows: [
      row("authenticate, recording lastUsedAt", `${touchNs.toFixed(0)} ns`),
      row("authenticate, lastUsedAt not recorded", `${noTouchNs.toFixed(0)} ns`),
      row(
        "lastUsedAt's cost per authenticated request (median of per-run differences)",
        `${median(difference).toFixed(0)} ns`
      )
    ],
    notes: [
      `keys: medians of ${runs} runs after a warm-up, the two variants interleaved (alternating which goes first); a clock moving 1 ms per read, ` +
      "so every call writes a new lastUsedAt; compare the cost with the authenticated read's server CPU per request (http)"
    ]
  }
}

if (import.meta.main) printResult(await runKeysBench({ runs: 9 }))
