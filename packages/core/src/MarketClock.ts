/**
 * The time every use case reads. In production it is the wall clock; on the simulator it is the
 * market clock, so every timestamp a run produces replays from its seed.
 */
import { Clock, Context, Effect, Layer } from "effect"

export class MarketClock extends Context.Service<MarketClock, {
  /** Milliseconds since the Unix epoch. */
  readonly now: Effect.Effect<number>
}>()("@swapdesk/core/MarketClock") {
  /** Production wiring: Effect's Clock (the wall clock, or TestClock in tests). */
  static readonly layer = Layer.succeed(MarketClock, { now: Clock.currentTimeMillis })
}

const DAY_MS = 86_400_000
/** 0000-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z: four-digit years. */
const FIRST_MS = -62_167_219_200_000
const LAST_MS = 253_402_300_799_999

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`)
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`)
const pad4 = (n: number): string => (n < 10 ? `000${n}` : n < 100 ? `00${n}` : n < 1000 ? `0${n}` : `${n}`)

/**
 * ISO 8601 UTC with milliseconds, the only timestamp format the API speaks. Every response
 * formats several, so integer arithmetic (days to civil date, after H. Hinnant) stands in for
 * `Date#toISOString`, which it matches exactly; outside four-digit years it defers to `Date`.
 */
export const toIso = (ms: number): string => {
  if (!Number.isInteger(ms) || ms < FIRST_MS || ms > LAST_MS) return new Date(ms).toISOString()
  const days = Math.floor(ms / DAY_MS)
  let rest = ms - days * DAY_MS
  const shifted = days + 719_468 // days since 0000-03-01, so that leap days end a year
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1000)
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${
    pad3(rest - seconds * 1000)
  }Z`
}

/** The current time in milliseconds. */
export const now: Effect.Effect<number, never, MarketClock> = MarketClock.use((clock) => clock.now)
