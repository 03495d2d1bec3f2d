/**
 * A file of real candles, as exported by CCXT (`fetchOHLCV`) or freqtrade: either the JSON layout,
 * an array of `[timestampMs, open, high, low, close, volume]`, or CSV with the header
 * `timestamp,open,high,low,close,volume` (`timestamp` in Unix milliseconds or ISO 8601 with a time
 * zone). CSV is read with Papa Parse (docs/decisions.md says why that parser).
 *
 * The candles land in one `Float64Array` per column, not an object per candle: a year of one-minute
 * candles is 525 600 rows, about 25 MB this way. Every rule a replay relies on is checked here, and
 * a fault is reported with where it is (`line N` of a CSV file, `index N` of a JSON array) and what
 * is wrong, so that an operator can fix the file without reading the code.
 */
import { priceRangeUsd } from "@swapdesk/core"
import Papa from "papaparse"

const MINUTE_MS = 60_000
const HEADER = ["timestamp", "open", "high", "low", "close", "volume"] as const

/** Candles of one resolution, oldest first, one typed array per column. */
export interface CandleSeries {
  /** Open time of each candle, Unix milliseconds (whole minutes). */
  readonly openTimeMs: Float64Array
  readonly open: Float64Array
  readonly high: Float64Array
  readonly low: Float64Array
  readonly close: Float64Array
  /** Volume in the token's units. */
  readonly volume: Float64Array
  /** The time from one candle's open to the next (a whole number of minutes); gaps are multiples of it. */
  readonly resolutionMs: number
}

/** Why a candle file was refused: where (`line 3`, `index 2`, or empty for the whole file) and what. */
export class CandleFileFault extends Error {
  readonly location: string
  readonly fault: string
  constructor(location: string, fault: string) {
    super(location === "" ? fault : `${location}: ${fault}`)
    this.name = "CandleFileFault"
    this.location = location
    this.fault = fault
  }
}

/** The time a candle series covers: from the first open to the end of the last candle. */
export const seriesRange = (series: CandleSeries): { readonly fromMs: number; readonly toMs: number } => ({
  fromMs: series.openTimeMs[0]!,
  toMs: series.openTimeMs[series.openTimeMs.length - 1]! + series.resolutionMs
})

const PRICE_NAMES = ["open", "high", "low", "close"] as const

/** Columns being filled, grown by doubling when a count was not known in advance. */
class Columns {
  length = 0
  /** How a candle's position (its line or index) reads in a message. */
  private readonly where: (position: number) => string
  time: Float64Array
  open: Float64Array
  high: Float64Array
  low: Float64Array
  close: Float64Array
  volume: Float64Array

  constructor(capacity: number, where: (position: number) => string) {
    this.where = where
    this.time = new Float64Array(capacity)
    this.open = new Float64Array(capacity)
    this.high = new Float64Array(capacity)
    this.low = new Float64Array(capacity)
    this.close = new Float64Array(capacity)
    this.volume = new Float64Array(capacity)
  }

  /** Checks one candle (at `position`) against the ones before it and appends it. */
  push(position: number, time: number, open: number, high: number, low: number, close: number, volume: number): void {
    // Messages are built only on a fault: this runs for every row of a year of candles.
    const fault = (text: string) => new CandleFileFault(this.where(position), text)
    if (!Number.isInteger(time) || time % MINUTE_MS !== 0) {
      throw fault(`timestamp ${time} is not a whole minute (Unix milliseconds)`)
    }
    const { max, min } = priceRangeUsd
    if (
      !(open >= min && open <= max && high >= min && high <= max && low >= min && low <= max && close >= min &&
        close <= max)
    ) {
      const prices = [open, high, low, close]
      for (let k = 0; k < 4; k++) {
        const price = prices[k]!
        if (!(price > 0)) throw fault(`${PRICE_NAMES[k]} ${price} is not a positive price`)
        if (!(price >= min && price <= max)) {
          throw fault(`${PRICE_NAMES[k]} ${price} is outside the quotable range ${min} to ${max} USD`)
        }
      }
    }
    if (high < Math.max(open, close)) throw fault(`high ${high} is below max(open, close) ${Math.max(open, close)}`)
    if (low > Math.min(open, close)) throw fault(`low ${low} is above min(open, close) ${Math.min(open, close)}`)
    if (!(volume >= 0) || !Number.isFinite(volume)) throw fault(`volume ${volume} is not a non-negative number`)
    const n = this.length
    if (n > 0 && !(time > this.time[n - 1]!)) {
      throw fault(
        `timestamp ${new Date(time).toISOString()} is not after the previous candle's ${
          new Date(this.time[n - 1]!).toISOString()
        } (timestamps out of order)`
      )
    }
    if (n === this.time.length) this.grow()
    this.time[n] = time
    this.open[n] = open
    this.high[n] = high
    this.low[n] = low
    this.close[n] = close
    this.volume[n] = volume
    this.length = n + 1
  }

  private grow(): void {
    const capacity = Math.max(16, this.time.length * 2)
    const grown = (column: Float64Array) => {
      const next = new Float64Array(capacity)
      next.set(column)
      return next
    }
    this.time = grown(this.time)
    this.open = grown(this.open)
    this.high = grown(this.high)
    this.low = grown(this.low)
    this.close = grown(this.close)
    this.volume = grown(this.volume)
  }

  /**
   * The series, its columns trimmed to their length (the spare capacity is let go), after checking
   * that it has one resolution. `describe` names the i-th candle's position.
   */
  finish(describe: (row: number) => string): CandleSeries {
    const n = this.length
    if (n === 0) throw new CandleFileFault("", "has no candles")
    const trim = (column: Float64Array) => (column.length === n ? column : column.slice(0, n))
    const columns = [this.time, this.open, this.high, this.low, this.close, this.volume].map(trim)
    const empty = new Float64Array(0)
    this.time =
      this.open =
      this.high =
      this.low =
      this.close =
      this.volume =
        empty
    const [time, open, high, low, close, volume] = columns as [
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array,
      Float64Array
    ]
    let resolutionMs = Number.POSITIVE_INFINITY
    for (let i = 1; i < n; i++) resolutionMs = Math.min(resolutionMs, time[i]! - time[i - 1]!)
    // A single candle has no spacing to read; it is taken as one minute.
    if (n === 1) resolutionMs = MINUTE_MS
    for (let i = 1; i < n; i++) {
      const step = time[i]! - time[i - 1]!
      if (step % resolutionMs !== 0) {
        throw new CandleFileFault(
          describe(i),
          `is ${step / MINUTE_MS} minutes after the previous candle, not a multiple of the file's resolution of ${
            resolutionMs / MINUTE_MS
          } minutes (candles of one resolution; gaps allowed)`
        )
      }
    }
    return { openTimeMs: time, open, high, low, close, volume, resolutionMs }
  }
}

const indexed = (i: number) => `index ${i}`
const lined = (line: number) => `line ${line}`

/** The JSON layout: an array of `[timestampMs, open, high, low, close, volume]`. */
const parseJson = (text: string): CandleSeries => {
  let rows: unknown
  try {
    rows = JSON.parse(text)
  } catch (error) {
    throw new CandleFileFault("", `is not valid JSON: ${(error as Error).message}`)
  }
  if (!Array.isArray(rows)) throw new CandleFileFault("", "is not an array of candles")
  const where = indexed
  const columns = new Columns(rows.length, where)
  for (let i = 0; i < rows.length; i++) {
    const row: unknown = rows[i]
    if (!Array.isArray(row) || row.length !== 6) {
      throw new CandleFileFault(where(i), `is not [timestampMs, open, high, low, close, volume]`)
    }
    for (let k = 0; k < 6; k++) {
      if (typeof row[k] !== "number") {
        throw new CandleFileFault(where(i), `${HEADER[k]} ${JSON.stringify(row[k])} is not a number`)
      }
    }
    columns.push(i, row[0], row[1], row[2], row[3], row[4], row[5])
  }
  return columns.finish(indexed)
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i

const DIGITS = /^\d+$/
const isDigits = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) return false
  }
  return true
}
/** What JavaScript reads as a finite number, and nothing else (no empty field, no `0x`, no `Infinity`). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** A CSV timestamp: Unix milliseconds, or ISO 8601 with a time zone (a local time means nothing on a server). */
const parseTimestamp = (where: string, text: string): number => {
  if (DIGITS.test(text)) return Number(text)
  if (!ISO_WITH_ZONE.test(text)) {
    throw new CandleFileFault(
      where,
      `timestamp ${JSON.stringify(text)} is neither Unix milliseconds nor ISO 8601 with a time zone`
    )
  }
  const ms = Date.parse(text.replace(" ", "T"))
  if (Number.isNaN(ms)) throw new CandleFileFault(where, `timestamp ${JSON.stringify(text)} is not a real date-time`)
  return ms
}

/**
 * A CSV number, or NaN for text that is not one. `Number` alone would also read "" as 0 and "0x1f"
 * as 31; those are refused here without a regular expression on the common path, which runs for
 * every field of a year of candles.
 */
const numberOf = (text: string): number => {
  const value = Number(text)
  if (text.length === 0 || !Number.isFinite(value)) return Number.NaN
  const second = text.charCodeAt(1)
  // "0x", "0b", "0o" (either case): radix prefixes `Number` accepts and a decimal file never has.
  return text.charCodeAt(0) === 48 && (second | 32) >= 97 && (second | 32) <= 122 && (second | 32) !== 101 &&
      !DECIMAL.test(text)
    ? Number.NaN
    : value
}

/** The CSV layout, with its header. Blank lines are skipped; line numbers count them. */
const parseCsv = (text: string): CandleSeries => {
  let lineCount = 1
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) lineCount++
  const where = lined
  const columns = new Columns(lineCount, where)
  let line = 0
  let fault: CandleFileFault | undefined
  Papa.parse<Array<string>>(text, {
    skipEmptyLines: false,
    step: (result, parser) => {
      line++
      const row = result.data
      try {
        if (result.errors.length > 0) throw new CandleFileFault(where(line), result.errors[0]!.message)
        if (row.length === 1 && row[0]!.trim() === "") return
        if (line === 1) {
          const header = row.map((cell) => cell.trim().toLowerCase())
          if (header.join(",") !== HEADER.join(",")) {
            throw new CandleFileFault(
              where(line),
              `header ${JSON.stringify(row.join(","))} is not ${JSON.stringify(HEADER.join(","))}`
            )
          }
          return
        }
        if (row.length !== 6) throw new CandleFileFault(where(line), `has ${row.length} fields, not 6`)
        const open = numberOf(row[1]!.trim())
        const high = numberOf(row[2]!.trim())
        const low = numberOf(row[3]!.trim())
        const close = numberOf(row[4]!.trim())
        const volume = numberOf(row[5]!.trim())
        if (Number.isNaN(open + high + low + close + volume)) {
          const bad = [open, high, low, close, volume].findIndex(Number.isNaN)
          throw new CandleFileFault(
            where(line),
            `${HEADER[bad + 1]} ${JSON.stringify(row[bad + 1]!.trim())} is not a number`
          )
        }
        const time = row[0]!.trim()
        const timeMs = time.length > 0 && time.length <= 16 && isDigits(time)
          ? Number(time)
          : parseTimestamp(where(line), time)
        columns.push(line, timeMs, open, high, low, close, volume)
      } catch (error) {
        if (!(error instanceof CandleFileFault)) throw error
        fault = error
        parser.abort()
      }
    }
  })
  if (fault !== undefined) throw fault
  if (line === 0 || (line === 1 && text.trim() === "")) throw new CandleFileFault("", "is empty")
  // The resolution check names the line of the i-th candle, found again only on a fault.
  const lineOf = lineNumbers(text)
  return columns.finish((i) => `line ${lineOf(i)}`)
}

/** The line of the i-th candle of a CSV text (its header is line 1, blank lines count). */
const lineNumbers = (text: string) => (row: number): number => {
  let line = 1
  let seen = -1
  let at = 0
  while (at <= text.length) {
    const end = text.indexOf("\n", at)
    const content = text.slice(at, end < 0 ? text.length : end).trim()
    if (line > 1 && content !== "") {
      seen++
      if (seen === row) return line
    }
    if (end < 0) break
    at = end + 1
    line++
  }
  return line
}

/**
 * Parses a candle file's text: JSON when it starts with `[`, CSV otherwise. Throws `CandleFileFault`
 * naming the line or index and the fault.
 */
export const parseCandleFile = (text: string): CandleSeries => {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  return body.trimStart().startsWith("[") ? parseJson(body) : parseCsv(body)
}
