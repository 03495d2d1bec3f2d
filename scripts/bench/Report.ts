/**
 * What every benchmark reports: rows of measured figures, some with a target, printed as one
 * table. A target is informational (PASS or MISS), never an exit code: on a shared, noisy machine a
 * miss is something to look at, not a build failure.
 */

/** A figure a target is checked against: at least or at most `limit`. */
export interface Target {
  readonly kind: "atLeast" | "atMost"
  readonly limit: number
  /** How the target reads in the table, e.g. "< 2 s". */
  readonly label: string
}

export interface Row {
  readonly benchmark: string
  readonly metric: string
  /** The value as printed. */
  readonly shown: string
  /** The value the target is checked against, in the target's unit. */
  readonly value?: number
  readonly target?: Target
}

/** A benchmark's rows, and notes that qualify them (printed under the table). */
export interface BenchResult {
  readonly rows: ReadonlyArray<Row>
  readonly notes: ReadonlyArray<string>
}

export const atMost = (limit: number, label: string): Target => ({ kind: "atMost", limit, label })
export const atLeast = (limit: number, label: string): Target => ({ kind: "atLeast", limit, label })

export const verdict = (row: Row): string => {
  if (row.target === undefined || row.value === undefined) return ""
  const met = row.target.kind === "atMost" ? row.value <= row.target.limit : row.value >= row.target.limit
  return met ? "PASS" : "MISS"
}

/** The median of a non-empty sample (the mean of the middle two for an even count). */
export const median = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) throw new RangeError("median of nothing")
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The median of one figure over measured runs, each run a record of figures. */
export const medianOf = <K extends string>(runs: ReadonlyArray<Record<K, number>>, figure: K): number =>
  median(runs.map((run) => run[figure]))

export const formatMs = (ms: number): string => ms >= 1_000 ? `${(ms / 1_000).toFixed(2)} s` : `${ms.toFixed(0)} ms`

/** A count with thousands separators and no decimals. */
export const formatCount = (n: number): string => Math.round(n).toLocaleString("en-US")

export const formatRatio = (ratio: number): string => `${ratio.toFixed(2)}x`

/** The rows as an aligned plain-text table. */
export const formatTable = (rows: ReadonlyArray<Row>): string => {
  const header = ["benchmark", "metric", "value", "target", ""]
  const cells = rows.map((row) => [row.benchmark, row.metric, row.shown, row.target?.label ?? "", verdict(row)])
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)))
  const line = (values: ReadonlyArray<string>) =>
    values.map((value, column) => column === 2 ? value.padStart(widths[column]!) : value.padEnd(widths[column]!))
      .join("  ").trimEnd()
  return [line(header), widths.map((w) => "-".repeat(w)).join("  ").trimEnd(), ...cells.map(line)].join("\n")
}

/** A benchmark run alone: its table, then its notes. */
export const printResult = ({ notes, rows }: BenchResult): void => {
  console.log(formatTable(rows))
  for (const note of notes) console.log(`note: ${note}`)
}

/** Progress goes to stderr, so that stdout carries only the tables. */
export const progress = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`)
}

/**
 * What one benchmark reports through, its name given once: its rows, its progress lines, and its
 * measured runs.
 */
export const reporter = (benchmark: string) => {
  const say = (message: string): void => progress(`${benchmark}: ${message}`)
  return {
    row: (metric: string, shown: string, extra: Partial<Row> = {}): Row => ({ benchmark, metric, shown, ...extra }),
    progress: say,
    /**
     * `measure` once to warm up (its result dropped: it pays for compilation and cold caches), then
     * `runs` times; the measured runs' results in order. `about`, when given, follows each run's
     * progress line in parentheses.
     */
    measuredRuns: async <A>(
      runs: number,
      measure: (warmUp: boolean) => A | Promise<A>,
      about?: string
    ): Promise<ReadonlyArray<A>> => {
      const measured: Array<A> = []
      for (let run = 0; run <= runs; run++) {
        say(`${run === 0 ? "warm-up" : `run ${run}/${runs}`}${about === undefined ? "" : ` (${about})`}`)
        const result = await measure(run === 0)
        if (run > 0) measured.push(result)
      }
      return measured
    }
  }
}
