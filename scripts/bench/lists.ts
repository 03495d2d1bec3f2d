/**
 * What a page of `GET /v1/trades` costs the trade repository as an account's history grows: the
 * in-memory `TradeRepository.list` (first page of 20, unfiltered and filtered by token) on an
 * account with 0 other trades and on one with 100,000, timed in the same run; the ratio is the
 * figure (flat lists give about 1x).
 *
 * Run alone with `node scripts/bench/lists.ts`, or through `pnpm bench lists`.
 */
import { layerMemoryTradeRepository, type TradeRecord, TradeRepository } from "@swapdesk/core"
import { Effect } from "effect"
import { atMost, type BenchResult, formatRatio, median, printResult, reporter, type Row } from "./Report.ts"

const BENCHMARK = "lists"
const HISTORY = 100_000
const CALLS = 20_000

// Only the fields lists read; the rest of a trade plays no part in a page.
const tradeAt = (accountId: string, i: number): TradeRecord =>
  ({
    id: `trd_${accountId}_${String(i).padStart(7, "0")}`,
    accountId,
    createdAt: i * 1_000,
    tokenIn: i % 2 === 0 ? "SOL" : "USDC",
    tokenOut: i % 2 === 0 ? "USDC" : "ETH",
    network: "solana",
    stage: "confirmed"
  }) as unknown as TradeRecord

/** Microseconds per page: the unfiltered first page and the token-filtered one, for a fresh and a long account. */
const measure = Effect.gen(function*() {
  const repository = yield* TradeRepository
  for (let i = 0; i < 20; i++) yield* repository.insert(tradeAt("acct_fresh", i))
  for (let i = 0; i < HISTORY; i++) yield* repository.insert(tradeAt("acct_long", i))
  const time = (accountId: string, filter: { readonly token?: string }) => {
    const started = performance.now()
    for (let i = 0; i < CALLS; i++) Effect.runSync(repository.list(accountId, filter, { limit: 20, offset: 0 }))
    return ((performance.now() - started) * 1_000) / CALLS
  }
  return {
    fresh: time("acct_fresh", {}),
    long: time("acct_long", {}),
    freshToken: time("acct_fresh", { token: "SOL" }),
    longToken: time("acct_long", { token: "SOL" })
  }
}).pipe(Effect.provide(layerMemoryTradeRepository))

const { measuredRuns, row } = reporter(BENCHMARK)

/** A ratio of a page's cost at 100,000 trades to its cost at 0, and its target. */
const ratioRow = (metric: string, ratio: number): Row =>
  row(metric, formatRatio(ratio), { value: ratio, target: atMost(2, "< 2x") })

export const runListsBench = async ({ runs }: { readonly runs: number }): Promise<BenchResult> => {
  const samples = await measuredRuns(runs, () => Effect.runSync(measure), `${HISTORY.toLocaleString("en-US")} trades`)
  const pick = (key: keyof (typeof samples)[number]) => median(samples.map((s) => s[key]))
  const ratio = median(samples.map((s) => s.long / s.fresh))
  const tokenRatio = median(samples.map((s) => s.longToken / s.freshToken))
  return {
    rows: [
      row("first page of 20 trades, account with 20 trades", `${pick("fresh").toFixed(2)} µs`),
      row(`first page of 20 trades, account with ${HISTORY.toLocaleString("en-US")}`, `${pick("long").toFixed(2)} µs`),
      ratioRow("page at 100,000 trades / page at 0 (unfiltered)", ratio),
      ratioRow("page at 100,000 trades / page at 0 (token filter)", tokenRatio)
    ],
    notes: [
      `lists: medians of ${runs} runs after a warm-up, ${CALLS.toLocaleString("en-US")} pages each; the in-memory ` +
      "TradeRepository.list alone (no HTTP), so the ratio shows how a page's cost grows with the account's history"
    ]
  }
}

if (import.meta.main) printResult(await runListsBench({ runs: 3 }))
