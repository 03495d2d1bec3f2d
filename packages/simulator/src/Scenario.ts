/**
 * The scenario file (docs/simulator.md#the-scenario-file): what a simulated world starts with. Decoded with a
 * Schema; every problem is reported with the field's path and the offending value, and every key
 * left out takes the default documented in docs/simulator.md.
 *
 * The `history` key names files of real candles; decoding reads and parses them (a relative path is
 * resolved against `ScenarioSources.directory`, the scenario file's own), so that a scenario that
 * decodes is one the market can replay.
 */
import {
  API_KEY_PATTERN,
  ApiScope,
  DeclaredAccountId,
  type FileIssue,
  fileIssuesOf,
  InvalidFile,
  Network,
  NotificationSettingsInput,
  parseAmount,
  Plan,
  PriceUsd,
  simulatorCatalog
} from "@swapdesk/core"
import { Option, Result, Schema } from "effect"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { CandleFileFault, type CandleSeries, parseCandleFile, seriesRange } from "./market/CandleFile.ts"
import { defaultMarketParams } from "./market/MarketParams.ts"

/** An object keyed by network, each key optional. */
const perNetwork = <S extends Schema.Top>(value: S) =>
  Schema.Struct({
    solana: Schema.optionalKey(value),
    ethereum: Schema.optionalKey(value),
    base: Schema.optionalKey(value),
    arbitrum: Schema.optionalKey(value)
  })

/**
 * The range of every numeric setting that has no natural one, bounds included (docs/simulator.md,
 * "Ranges of the numeric settings"). Each is wider than any real market needs, and narrow enough
 * that everything the world computes from it stays a finite number and every call that moves the
 * world ends:
 *
 * - `speed`: an hour of market time a second. A day of the demo market takes about a third of a
 *   second to run, so the realtime driver keeps up with a few percent of one core. Far above it,
 *   each catch-up takes longer than the last while holding the world's lock (at 1e300, for ever).
 * - `rateLimitPerMinute`: whole requests, one to a million a minute (more than a server answers);
 *   the `RateLimit-Limit` header carries it as an integer.
 * - `blockTimeMs`: a millisecond to an hour (the slowest real chain makes a block every 10
 *   minutes); with 1000 confirmations a trade still completes within 43 days.
 * - `annualVolatility`: 0.01% to 1000% a year. A walk's log price drifts by −σ²t/2, at most 12.3
 *   over the longest history (90 days); at σ = 100 it is 1233 and the history's first prices
 *   overflow to Infinity. A vanishing σ underflows the variance to 0 and makes activity NaN.
 * - `usd` (`dailyVolumeUsd`, `liquidityUsd`): a dollar to a trillion dollars, like a whale. Sums of
 *   volume, and what a price move books (depth × √(price ratio): about 1e24 between the price
 *   bounds), stay finite, and the holder figures divide by the daily volume without overflowing.
 */
export const scenarioLimits = {
  speed: { max: 3_600 },
  rateLimitPerMinute: { min: 1, max: 1_000_000_000 },
  blockTimeMs: { min: 1, max: 3_600_000 },
  annualVolatility: { min: 0.0001, max: 10 },
  usd: { min: 1, max: 1e12 }
} as const

/** A number from `minimum` to `maximum`; `range` is how the message says them. */
const NumberBetween = (minimum: number, maximum: number, range: string) =>
  Schema.Finite.check(Schema.isBetween({ minimum, maximum }, { message: `must be between ${range}` }))

/**
 * A whole number from `minimum` to `maximum`. Out of range is reported alone (the check aborts), so
 * 1e300 gets one message, not a second one saying it is not a safe integer.
 */
const WholeNumberBetween = (minimum: number, maximum: number, range: string) =>
  Schema.Finite.check(
    Schema.isBetween({ minimum, maximum }, { message: `must be between ${range}` }).abort(),
    Schema.isInt({ message: "must be a whole number" })
  )

const Probability = NumberBetween(0, 1, "0 and 1")
/** A USD amount of a pool or a day's trading. */
const UsdAmount = NumberBetween(scenarioLimits.usd.min, scenarioLimits.usd.max, "1 and 1e12 (USD)")
const RequestsPerMinute = WholeNumberBetween(
  scenarioLimits.rateLimitPerMinute.min,
  scenarioLimits.rateLimitPerMinute.max,
  "1 and 1000000000 (requests a minute)"
)

/**
 * Whether an ISO date-time names a real instant. `Date.parse` alone is not enough: it rolls 2026-02-30 over to
 * March 2 and reads T24:00 as the next day. Text that is not ISO at all passes here, so that the pattern's message
 * is the only one it gets.
 */
const isRealInstant = (text: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})/.exec(text)
  if (match === null) return true
  const [year, month, day, hour] = match.slice(1).map(Number) as [number, number, number, number]
  // Day 0 of the next month is this month's last; the year folded into the 400-year Gregorian cycle keeps leap days.
  const daysInMonth = new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate()
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && !Number.isNaN(Date.parse(text))
}

const IsoInstant = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: "must be an ISO 8601 date-time such as 2026-01-01T00:00:00Z"
  }),
  Schema.makeFilter((s: string) => isRealInstant(s) || "is not a real date-time")
)

/** The market ticks once a second from the start, so the start must fall on a whole second. */
const StartInstant = IsoInstant.check(
  Schema.makeFilter((s: string) => {
    const ms = Date.parse(s)
    return Number.isNaN(ms) || ms % 1000 === 0 || "must be a whole second (the market ticks once a second)"
  })
)

export const ClockSettings = Schema.Struct({
  mode: Schema.Literals(["manual", "realtime"]),
  start: Schema.optionalKey(StartInstant),
  /** Realtime only: market milliseconds per wall-clock millisecond. */
  speed: Schema.optionalKey(
    Schema.Finite.check(
      Schema.isBetween({ minimum: 0, maximum: scenarioLimits.speed.max, exclusiveMinimum: true }, {
        message: "must be greater than 0 and at most 3600"
      })
    )
  )
})

export const NetworkSettings = Schema.Struct({
  blockTimeMs: Schema.optionalKey(
    WholeNumberBetween(scenarioLimits.blockTimeMs.min, scenarioLimits.blockTimeMs.max, "1 and 3600000 (an hour)")
  ),
  failureRate: Schema.optionalKey(Probability),
  confirmations: Schema.optionalKey(WholeNumberBetween(0, 1000, "0 and 1000"))
})

export const RateLimitSettings = Schema.Union([
  Schema.Boolean,
  Schema.Struct({
    free: Schema.optionalKey(RequestsPerMinute),
    pro: Schema.optionalKey(RequestsPerMinute),
    unauthenticated: Schema.optionalKey(RequestsPerMinute)
  })
])

export const TokenSettings = Schema.Struct({
  symbol: Schema.String,
  priceUsd: Schema.optionalKey(PriceUsd),
  annualVolatility: Schema.optionalKey(
    NumberBetween(
      scenarioLimits.annualVolatility.min,
      scenarioLimits.annualVolatility.max,
      "0.0001 and 10 (0.01% to 1000% a year)"
    )
  ),
  dailyVolumeUsd: Schema.optionalKey(UsdAmount),
  liquidityUsd: Schema.optionalKey(perNetwork(UsdAmount))
})

export const ApiKeySettings = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" })),
  key: Schema.String.check(
    Schema.isPattern(API_KEY_PATTERN, { message: "must be sd_test_ (or sd_live_) followed by 40 base62 characters" })
  ),
  scopes: Schema.Array(ApiScope),
  expiresAt: Schema.optionalKey(IsoInstant)
})

export const WalletSettings = Schema.Struct({
  network: Network,
  /**
   * Absent: the address of the wallet's key derived from the seed (which then also signs its
   * orders). Given: kept as is, and its orders are signed by that derived key as its delegated
   * signing key (docs/orders.md).
   */
  address: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" }))),
  delegatedSigning: Schema.optionalKey(Schema.Boolean),
  /** Token symbol -> decimal string. */
  balances: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})

export { NotificationSettingsInput }

export const AccountSettings = Schema.Struct({
  id: DeclaredAccountId,
  plan: Schema.optionalKey(Plan),
  apiKeys: Schema.optionalKey(Schema.Array(ApiKeySettings)),
  notifications: Schema.optionalKey(NotificationSettingsInput),
  wallets: Schema.optionalKey(Schema.Array(WalletSettings))
})

/** One token's candle file, as the scenario names it. */
export const HistorySource = Schema.Struct({
  file: Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" }))
})

/** The scenario file as written (decoded, it is a `ScenarioFile` with its history files loaded). */
export const ScenarioFile = Schema.Struct({
  /** Where an editor finds the file's JSON Schema (`@swapdesk/simulator/scenario.schema.json`); not read otherwise. */
  $schema: Schema.optionalKey(Schema.String),
  seed: Schema.optionalKey(Schema.Union([Schema.Finite, Schema.String])),
  clock: Schema.optionalKey(ClockSettings),
  rateLimits: Schema.optionalKey(RateLimitSettings),
  networks: Schema.optionalKey(perNetwork(NetworkSettings)),
  historyDays: Schema.optionalKey(WholeNumberBetween(1, 90, "1 and 90")),
  tokens: Schema.optionalKey(Schema.Array(TokenSettings)),
  accounts: Schema.optionalKey(Schema.Array(AccountSettings)),
  /** Token symbol -> the file of candles its price replays. */
  history: Schema.optionalKey(Schema.Record(Schema.String, HistorySource))
})

/** A history file, read and parsed. */
export interface LoadedHistory {
  /** The path as the scenario wrote it. */
  readonly file: string
  readonly candles: CandleSeries
}

/** A decoded scenario: the file's settings, with every history file read, parsed and checked. */
export type ScenarioFile = Omit<typeof ScenarioFile.Type, "history"> & {
  readonly history?: Readonly<Record<string, LoadedHistory>>
}

/** Where a scenario's history files are found. */
export interface ScenarioSources {
  /**
   * The directory a relative history path is resolved against: the scenario file's. Without it,
   * the process's working directory.
   */
  readonly directory?: string
  /** Reads a file's text (default: `readFileSync` from `node:fs`). */
  readonly readFile?: (path: string) => string
}

/** Defaults for every key a scenario leaves out (documented in docs/simulator.md). */
export const scenarioDefaults = {
  seed: 1,
  clock: { mode: "manual", start: "2026-01-01T00:00:00Z", speed: 1 },
  historyDays: 30
} as const

/**
 * A scenario problem: where, what is wrong, and the value found there. Text that is not JSON has
 * no value to show, and its issue has no `value` key (a missing field has one: `undefined`).
 */
export type ScenarioIssue = FileIssue

/** A scenario that cannot be run: every problem, one per line. */
export class InvalidScenario extends InvalidFile {
  constructor(issues: ReadonlyArray<ScenarioIssue>) {
    super("scenario", issues)
    this.name = "InvalidScenario"
  }
}

/**
 * Overrides the market would accept and never use, refused instead (docs/decisions.md). A
 * stablecoin's price is its peg: it starts there and mean-reverts around it. A wrapper that tracks
 * another token (WETH) has no price process of its own, so neither a price nor a volatility.
 */
const unusedOverrides = (symbol: string, override: typeof TokenSettings.Type, i: number): Array<ScenarioIssue> => {
  const calibration = defaultMarketParams.find((p) => p.symbol === symbol)
  const issues: Array<ScenarioIssue> = []
  if (calibration?.peg !== undefined && override.priceUsd !== undefined) {
    issues.push({
      path: `tokens.${i}.priceUsd`,
      message: `cannot be set on a stablecoin: ${symbol} starts on its peg of ${calibration.peg} USD ` +
        `(PUT /v1/sim/prices/${symbol} moves it off the peg once the world runs)`,
      value: override.priceUsd
    })
  }
  const target = calibration?.tracks
  if (target !== undefined) {
    for (const key of ["priceUsd", "annualVolatility"] as const) {
      if (override[key] === undefined) continue
      issues.push({
        path: `tokens.${i}.${key}`,
        message: `cannot be set on ${symbol}: it tracks ${target}'s price exactly (set ${target}'s instead)`,
        value: override[key]
      })
    }
  }
  return issues
}

/**
 * What the cross checks and the history files read: the decoded scenario, or where the schema
 * refused it, each part that decodes on its own (`undefined` in place of one that does not, so that
 * every index stays the file's). The schema's issues and these checks' are then reported together.
 */
interface CheckedParts {
  readonly tokens?: ReadonlyArray<typeof TokenSettings.Type | undefined>
  readonly accounts?: ReadonlyArray<
    {
      readonly id?: string | undefined
      readonly apiKeys?: ReadonlyArray<typeof ApiKeySettings.Type | undefined> | undefined
      readonly wallets?: ReadonlyArray<typeof WalletSettings.Type | undefined> | undefined
    } | undefined
  >
  readonly history?: Readonly<Record<string, typeof HistorySource.Type | undefined>>
  /** The clock's start where the clock decodes; with `clockDecodes` false, history ranges go unchecked. */
  readonly clock?: { readonly start?: string } | undefined
  readonly clockDecodes: boolean
}

const partOf = <S extends Schema.Codec<unknown, unknown>>(schema: S) => {
  const decode = Schema.decodeUnknownExit(schema)
  return (value: unknown): S["Type"] | undefined => {
    const exit = decode(value, { errors: "all", onExcessProperty: "error" })
    return exit._tag === "Success" ? exit.value : undefined
  }
}
const tokenPart = partOf(TokenSettings)
const apiKeyPart = partOf(ApiKeySettings)
const walletPart = partOf(WalletSettings)
const historyPart = partOf(HistorySource)
const clockPart = partOf(ClockSettings)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const arrayOf = <A>(value: unknown, part: (item: unknown) => A): ReadonlyArray<A> | undefined =>
  Array.isArray(value) ? value.map(part) : undefined

/** The parts of a file the schema refused that still decode alone. */
const partsOf = (input: unknown): CheckedParts => {
  if (!isRecord(input)) return { clockDecodes: false }
  const clock = input["clock"] === undefined ? undefined : clockPart(input["clock"])
  const history = isRecord(input["history"])
    ? Object.fromEntries(Object.entries(input["history"]).map(([symbol, source]) => [symbol, historyPart(source)]))
    : undefined
  const accounts = arrayOf(input["accounts"], (account) =>
    isRecord(account)
      ? {
        id: typeof account["id"] === "string" ? account["id"] : undefined,
        apiKeys: arrayOf(account["apiKeys"], apiKeyPart),
        wallets: arrayOf(account["wallets"], walletPart)
      }
      : undefined)
  return {
    clockDecodes: input["clock"] === undefined || clock !== undefined,
    ...(clock === undefined ? {} : { clock }),
    ...(history === undefined ? {} : { history }),
    ...(accounts === undefined ? {} : { accounts }),
    ...(Array.isArray(input["tokens"]) ? { tokens: input["tokens"].map(tokenPart) } : {})
  }
}

/**
 * Rules the schema cannot see: tokens exist, balances fit their token, ids and keys are unique, and
 * no override sets what the market would not use.
 */
const crossChecks = (scenario: CheckedParts): Array<ScenarioIssue> => {
  const issues: Array<ScenarioIssue> = []
  const accountIds = new Set<string>()
  const keys = new Set<string>()
  const tokenSymbols = new Set<string>()
  scenario.tokens?.forEach((t, i) => {
    if (t === undefined) return
    const token = simulatorCatalog.find(t.symbol)
    // A ticker in any case; a contract address would find the token here but match no override later.
    if (Option.isNone(token) || token.value.symbol !== t.symbol.toUpperCase()) {
      issues.push({ path: `tokens.${i}.symbol`, message: "is not a supported token", value: t.symbol })
      return
    }
    const { addresses, symbol } = token.value
    if (tokenSymbols.has(symbol)) {
      issues.push({ path: `tokens.${i}.symbol`, message: `lists ${symbol} twice`, value: t.symbol })
    }
    tokenSymbols.add(symbol)
    issues.push(...unusedOverrides(symbol, t, i))
    for (const [network, depth] of Object.entries(t.liquidityUsd ?? {})) {
      if (addresses[network as Network] === undefined) {
        issues.push({
          path: `tokens.${i}.liquidityUsd.${network}`,
          message: `${symbol} does not exist on ${network}`,
          value: depth
        })
      }
    }
  })
  for (const symbol of Object.keys(scenario.history ?? {})) {
    const path = `history.${symbol}`
    const calibration = defaultMarketParams.find((p) => p.symbol === symbol)
    if (calibration === undefined) {
      issues.push({ path, message: "is not a supported token symbol (use the upper-case ticker)", value: symbol })
    } else if (calibration.tracks !== undefined) {
      issues.push({
        path,
        message:
          `cannot replay ${symbol}: it tracks ${calibration.tracks}'s price exactly (give ${calibration.tracks} the history)`,
        value: symbol
      })
    }
    scenario.tokens?.forEach((t, i) => {
      if (t !== undefined && t.symbol.toUpperCase() === symbol && t.priceUsd !== undefined) {
        issues.push({
          path: `tokens.${i}.priceUsd`,
          message: `cannot be set on ${symbol}: its price comes from history.${symbol}.file`,
          value: t.priceUsd
        })
      }
    })
  }
  scenario.accounts?.forEach((account, a) => {
    if (account === undefined) return
    if (account.id !== undefined) {
      if (accountIds.has(account.id)) {
        issues.push({ path: `accounts.${a}.id`, message: "is used by another account", value: account.id })
      }
      accountIds.add(account.id)
    }
    account.apiKeys?.forEach((k, i) => {
      if (k === undefined) return
      if (keys.has(k.key)) {
        issues.push({ path: `accounts.${a}.apiKeys.${i}.key`, message: "is not unique", value: k.key })
      }
      keys.add(k.key)
    })
    const networksSeen = new Set<string>()
    account.wallets?.forEach((w, i) => {
      if (w === undefined) return
      if (networksSeen.has(w.network)) {
        issues.push({
          path: `accounts.${a}.wallets.${i}.network`,
          message: "has a second wallet on the same network",
          value: w.network
        })
      }
      networksSeen.add(w.network)
      for (const [symbol, amount] of Object.entries(w.balances ?? {})) {
        const path = `accounts.${a}.wallets.${i}.balances.${symbol}`
        const token = simulatorCatalog.find(symbol)
        if (Option.isNone(token) || token.value.symbol !== symbol) {
          issues.push({ path, message: "is not a supported token symbol (use the upper-case ticker)", value: symbol })
        } else if (token.value.addresses[w.network] === undefined) {
          issues.push({ path, message: `is not available on ${w.network}`, value: symbol })
        } else if (amount !== "0") {
          const parsed = parseAmount(amount, token.value.decimals)
          if (Result.isFailure(parsed)) issues.push({ path, message: parsed.failure, value: amount })
        }
      }
    })
  })
  return issues
}

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * Reads and parses each history file, and checks that the clock's start falls inside it: the
 * candles, or issues naming the file, the line or index, and the fault.
 */
const loadHistory = (
  scenario: CheckedParts,
  sources: ScenarioSources
): { readonly history: Record<string, LoadedHistory>; readonly issues: Array<ScenarioIssue> } => {
  const history: Record<string, LoadedHistory> = {}
  const issues: Array<ScenarioIssue> = []
  const read = sources.readFile ?? ((path: string) => readFileSync(path, "utf8"))
  const startText = scenario.clock?.start ?? scenarioDefaults.clock.start
  const startMs = Date.parse(startText)
  for (const [symbol, source] of Object.entries(scenario.history ?? {})) {
    if (source === undefined) continue
    const { file } = source
    const path = `history.${symbol}.file`
    const resolved = resolve(sources.directory ?? "", file)
    let text: string
    try {
      text = read(resolved)
    } catch (error) {
      issues.push({ path, message: `${resolved} cannot be read (${(error as Error).message})`, value: file })
      continue
    }
    let candles: CandleSeries
    try {
      candles = parseCandleFile(text)
    } catch (error) {
      if (!(error instanceof CandleFileFault)) throw error
      issues.push({ path, message: `${resolved}: ${error.message}`, value: file })
      continue
    }
    const { fromMs, toMs } = seriesRange(candles)
    if (scenario.clockDecodes && !(startMs >= fromMs && startMs < toMs)) {
      issues.push({
        path,
        message: `${resolved} covers ${iso(fromMs)} to ${iso(toMs)}: the clock's start ${startText} is outside it`,
        value: file
      })
      continue
    }
    history[symbol] = { file, candles }
  }
  return { history, issues }
}

/**
 * Decodes a scenario, reading its history files from `sources`, or throws `InvalidScenario` naming
 * every bad field and its value (and for a history file, the line or index and the fault), all in
 * one report: the schema's issues, the rules it cannot see and the history files' faults together,
 * so that a file is fixed in one round.
 */
export const decodeScenario = (input: unknown, sources: ScenarioSources = {}): ScenarioFile => {
  const decoded = Schema.decodeUnknownExit(ScenarioFile)(input, { errors: "all", onExcessProperty: "error" })
  if (decoded._tag === "Failure") {
    const error = decoded.cause.reasons.find((r) => r._tag === "Fail")
    const issue = error !== undefined && Schema.isSchemaError(error.error) ? error.error.issue : undefined
    if (issue === undefined) throw new InvalidScenario([{ path: "", message: "could not be decoded", value: input }])
    const schemaIssues = fileIssuesOf(issue, input)
    const parts = partsOf(input)
    throw new InvalidScenario([...schemaIssues, ...crossChecks(parts), ...loadHistory(parts, sources).issues])
  }
  const parts: CheckedParts = { ...decoded.value, clockDecodes: true }
  const { history: historyFiles, ...settings } = decoded.value
  const { history, issues: historyIssues } = historyFiles === undefined
    ? { history: {}, issues: [] }
    : loadHistory(parts, sources)
  const issues = [...crossChecks(parts), ...historyIssues]
  if (issues.length > 0) throw new InvalidScenario(issues)
  return historyFiles === undefined ? settings : { ...settings, history }
}

/** Parses a scenario file's text (JSON), or throws `InvalidScenario`. */
export const parseScenario = (text: string, sources: ScenarioSources = {}): ScenarioFile => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new InvalidScenario([{ path: "", message: `is not valid JSON: ${(error as Error).message}` }])
  }
  return decodeScenario(json, sources)
}
