/**
 * The alert engine benchmark: 1,000,000 active price alerts over 50 tokens in the core's
 * `AlertEngine`, against a naive full scan of the same alerts measured in the same run.
 *
 * - observations/s with none firing: price observations of random tokens at prices no target
 *   reaches, through `AlertEngine.takePrice` (what the monitor does per token and observation);
 * - the naive scan: every alert re-checked per observation, as the monitor did before the index;
 * - cost per fired alert: prices that reach every `above` target of each token, so about half of
 *   the alerts fire, time divided by their number;
 * - heap bytes per alert: the heap after a forced collection, with the alert records and the
 *   engine, minus the heap before either existed (and the engine's share alone).
 *
 * Run alone with `node scripts/bench/alerts.ts`, or through `pnpm bench alerts`.
 */
import { AlertEngine, type AlertRecord, type ArmedAlert, exactDouble } from "@swapdesk/core"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { atLeast, atMost, type BenchResult, formatCount, formatRatio, median, printResult, reporter } from "./Report.ts"

const BENCHMARK = "alerts"
const ALERTS = 1_000_000
const TOKENS = 50
const OBSERVATIONS = 2_000_000
const NAIVE_OBSERVATIONS = 20
const T0 = Date.UTC(2026, 0, 1)

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

const heapAfterGc = (): number => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

const { measuredRuns, row } = reporter(BENCHMARK)

/** A seeded generator (mulberry32), so that every run measures the same alerts and prices. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
}

const tokens = Array.from({ length: TOKENS }, (_, i) => `TOKEN${i}`)
const accounts = Array.from({ length: 1000 }, (_, i) => `acct_${i}`)
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** An id shaped like the server's (`alrt_` and 20 base62 characters), as one flat string. */
const idOf = (next: () => number): string => {
  const chars = ["a", "l", "r", "t", "_"]
  for (let k = 0; k < 20; k++) chars.push(BASE62[Math.floor(next() * 62)]!)
  return chars.join("")
}

/**
 * Alerts of 1000 accounts around a price band of [50, 150] USD: `above` targets in (200, 1200), `below` targets in
 * (1, 41), so that no price in the band fires one.
 */
const makeAlerts = (): Array<AlertRecord> => {
  const next = random(12)
  const alerts: Array<AlertRecord> = []
  for (let i = 0; i < ALERTS; i++) {
    const above = next() < 0.5
    alerts.push({
      id: idOf(next),
      accountId: accounts[i % accounts.length]!,
      rule: {
        type: "price",
        token: tokens[i % TOKENS]!,
        condition: above ? "above" : "below",
        targetPrice: above ? 200 + next() * 1000 : 1 + next() * 40
      },
      channel: "email",
      status: "active",
      createdAt: T0,
      triggeredAt: null,
      armedAt: T0
    })
  }
  return alerts
}

interface Measured {
  readonly observationsPerSecond: number
  readonly naivePerSecond: number
  readonly firedNs: number
  readonly fired: number
  readonly bytesPerAlert: number
  readonly engineBytesPerAlert: number
}

const measure = (): Measured => {
  const before = heapAfterGc()
  const alerts = makeAlerts()
  const withRecords = heapAfterGc()
  const engine = new AlertEngine()
  for (const alert of alerts) engine.arm(alert)
  const withEngine = heapAfterGc()

  const next = random(34)
  const observedTokens = Array.from({ length: 4096 }, () => tokens[Math.floor(next() * TOKENS)]!)
  const prices = Float64Array.from({ length: 4096 }, () => 50 + next() * 100)
  const taken: Array<ArmedAlert> = []
  let started = performance.now()
  for (let i = 0; i < OBSERVATIONS; i++) {
    engine.takePrice(observedTokens[i & 4095]!, prices[i & 4095]!, exactDouble, T0 + i, taken)
  }
  const indexedMs = performance.now() - started
  if (taken.length !== 0) throw new Error(`${taken.length} alerts fired in the quiet band`)

  // The naive scan: every active alert re-checked with the same comparisons.
  let naiveFired = 0
  started = performance.now()
  for (let i = 0; i < NAIVE_OBSERVATIONS; i++) {
    const token = observedTokens[i]!
    const price = prices[i]!
    for (const alert of alerts) {
      const rule = alert.rule
      if (rule.type !== "price" || rule.token !== token || alert.armedAt > T0 + i) continue
      if (rule.condition === "above" ? price >= rule.targetPrice : price <= rule.targetPrice) naiveFired++
    }
  }
  const naiveMs = performance.now() - started
  if (naiveFired !== 0) throw new Error(`${naiveFired} alerts fired in the naive scan`)

  // Every `above` alert fires: a price beyond every target, token by token.
  started = performance.now()
  for (const token of tokens) engine.takePrice(token, 10_000, exactDouble, T0 + OBSERVATIONS, taken)
  const firedMs = performance.now() - started
  const fired = taken.length
  if (engine.size !== ALERTS - fired) throw new Error("the engine lost or kept fired alerts")

  return {
    observationsPerSecond: OBSERVATIONS / (indexedMs / 1_000),
    naivePerSecond: NAIVE_OBSERVATIONS / (naiveMs / 1_000),
    firedNs: (firedMs * 1e6) / fired,
    fired,
    bytesPerAlert: (withEngine - before) / ALERTS,
    engineBytesPerAlert: (withEngine - withRecords) / ALERTS
  }
}

export interface AlertsOptions {
  /** Measured runs, after one warm-up. */
  readonly runs: number
}

export const runAlertsBench = async ({ runs }: AlertsOptions): Promise<BenchResult> => {
  const results = await measuredRuns(runs, () => {
    const measured = measure()
    gc()
    return measured
  })
  const of = (pick: (m: Measured) => number) => median(results.map(pick))
  const observations = of((m) => m.observationsPerSecond)
  const naive = of((m) => m.naivePerSecond)
  const ratio = of((m) => m.observationsPerSecond / m.naivePerSecond)
  const bytes = of((m) => m.bytesPerAlert)
  const rows = [
    row("observations/s, 1M price alerts, none firing", `${formatCount(observations)}/s`, {
      value: observations,
      target: atLeast(1_000_000, ">= 1,000,000/s")
    }),
    row("  naive full scan, same alerts", `${formatCount(naive)}/s`),
    row("  indexed/naive", formatRatio(ratio), { value: ratio, target: atLeast(1_000, ">= 1000x") }),
    row(`cost per fired alert (${formatCount(of((m) => m.fired))} fired)`, `${of((m) => m.firedNs).toFixed(0)} ns`),
    row("heap per alert (record + engine)", `${bytes.toFixed(0)} B`, { value: bytes, target: atMost(400, "<= 400 B") }),
    row("  the engine's share", `${of((m) => m.engineBytesPerAlert).toFixed(0)} B`)
  ]
  const notes = [
    `alerts: medians of ${runs} runs after one warm-up; ${formatCount(ALERTS)} price alerts (half above, half below) ` +
    `over ${TOKENS} tokens; ${formatCount(OBSERVATIONS)} indexed observations, ${NAIVE_OBSERVATIONS} naive ones`,
    "alerts: heap is measured after forced collections; the record is what the alert repository keeps anyway"
  ]
  return { rows, notes }
}

if (import.meta.main) printResult(await runAlertsBench({ runs: 3 }))
