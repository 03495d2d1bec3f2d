/**
 * Writes the candle files of the history example beside this script, the same bytes on every run
 * (a seeded walk, not market data): SOL/USDT one-minute candles as CSV, from six hours before the
 * example's start to six hours after it, with a quiet quarter of an hour missing (a gap the
 * simulator fills with its model), and ETH/USDT five-minute candles as CCXT's JSON layout over the
 * same twelve hours, with a sharp drop and recovery an hour after the start.
 *
 *   pnpm exec node examples/history/generate.ts
 *   SCENARIO=examples/history/scenario.json pnpm start
 *
 * (`npx -y pnpm@12.21.0` in place of `pnpm` where pnpm is not installed.) The scenario replays both
 * files; docs/simulator.md, "Replaying history", explains the layouts and the path through a candle.
 */
import { Prng } from "@swapdesk/simulator"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const MINUTE_MS = 60_000
/** The example scenario's `clock.start`. */
export const START_MS = Date.parse("2026-01-01T00:00:00Z")
const FROM_MS = START_MS - 6 * 60 * MINUTE_MS
const TO_MS = START_MS + 6 * 60 * MINUTE_MS
/** Minutes missing from the SOL file: 02:00 to 02:15 after the start. */
const GAP = { fromMs: START_MS + 120 * MINUTE_MS, toMs: START_MS + 135 * MINUTE_MS }

/** Six significant digits, as exchanges quote. */
const quote = (price: number): number => Number(price.toPrecision(6))

type Candle = readonly [number, number, number, number, number, number]

/** Candles of `minutes` from a seeded walk of `annualVolatility`, with `shock(timeMs)` added to the log price. */
const walk = (
  stream: string,
  firstOpen: number,
  minutes: number,
  annualVolatility: number,
  volumeScale: number,
  shock: (timeMs: number) => number
): Array<Candle> => {
  const prng = Prng.stream("examples/history", stream)
  const sigma = annualVolatility * Math.sqrt(minutes / (365 * 1_440))
  const candles: Array<Candle> = []
  let close = firstOpen
  for (let time = FROM_MS; time < TO_MS; time += minutes * MINUTE_MS) {
    const open = quote(close)
    const next = quote(open * Math.exp(sigma * prng.normal() + shock(time)))
    const high = quote(Math.max(open, next) * (1 + Math.abs(sigma * prng.normal()) / 2))
    const low = quote(Math.min(open, next) * (1 - Math.abs(sigma * prng.normal()) / 2))
    const volume = Number((volumeScale * Math.exp(0.4 * prng.normal())).toFixed(3))
    candles.push([time, open, Math.max(high, open, next), Math.min(low, open, next), next, volume])
    close = next
  }
  return candles
}

/** The files, by name: their whole text. */
export const candleFiles = (): Record<string, string> => {
  const sol = walk("SOL", 140, 1, 0.8, 9_000, () => 0)
    .filter(([time]) => time < GAP.fromMs || time >= GAP.toMs)
  const dropAtMs = START_MS + 60 * MINUTE_MS
  const eth = walk(
    "ETH",
    3_100,
    5,
    0.6,
    2_500,
    (time) => time === dropAtMs ? -0.06 : time > dropAtMs && time <= dropAtMs + 30 * MINUTE_MS ? 0.009 : 0
  )
  return {
    "sol-usdt-1m.csv": ["timestamp,open,high,low,close,volume", ...sol.map((c) => c.join(","))].join("\n") + "\n",
    "eth-usdt-5m.json": `[\n${eth.map((c) => `  ${JSON.stringify(c)}`).join(",\n")}\n]\n`
  }
}

if (import.meta.main) {
  for (const [name, text] of Object.entries(candleFiles())) {
    const path = fileURLToPath(new URL(name, import.meta.url))
    writeFileSync(path, text)
    console.log(`wrote ${path}`)
  }
}
