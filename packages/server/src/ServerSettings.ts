/**
 * The standalone server's settings, read through Effect's `Config` from the environment (README.md,
 * "Running on your own scenario"): each one's name, default and accepted values are here, and a
 * value the server cannot start with is refused in one line that names the setting and what it was
 * given ({@link settingRefusal}). An empty setting is an unset one, as Effect's environment provider
 * reads it. The channel settings (`SMTP_URL` and its companions) are read by `@swapdesk/channels`.
 */
import { Logging, parseCorsOrigins } from "@swapdesk/http"
import { Config, Effect, type LogLevel, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"

/**
 * The text of a setting, read as `parse` reads it into a `Value`: the value, or why the server
 * cannot start with it.
 */
const settingText = <A>(
  Value: Schema.Codec<A>,
  parse: (text: string) => { readonly value: A } | { readonly refusal: string }
) =>
  Schema.String.pipe(Schema.decodeTo(
    Value,
    SchemaTransformation.transformEffect({
      decode: (text: string) => {
        const parsed = parse(text)
        return "value" in parsed
          ? Effect.succeed(parsed.value)
          : Effect.fail(new SchemaIssue.InvalidValue({ message: parsed.refusal }, text))
      },
      encode: (value: A) => Effect.succeed(String(value))
    })
  ))

/**
 * A whole number from `min` to `max`, written in digits only: `Number` alone would read "0x50",
 * "8e3" or " 80" as numbers the operator never wrote.
 */
const wholeNumber = (name: string, min: number, max: number) =>
  settingText(Schema.Number, (text) => {
    const value = new RegExp(`^[0-9]{1,${String(max).length}}$`).test(text) ? Number(text) : Number.NaN
    return value >= min && value <= max
      ? { value }
      : { refusal: `${name} must be an integer from ${min} to ${max} (found ${JSON.stringify(text)})` }
  })

/** One of `values`, exactly as written. */
const oneOf = <const L extends string>(values: ReadonlyArray<L>, refusal: (found: string) => string) =>
  settingText(Schema.Literals(values), (text) => {
    const value = values.find((candidate) => candidate === text)
    return value === undefined ? { refusal: refusal(JSON.stringify(text)) } : { value }
  })

/** `PORT`: a TCP port; 0 asks the operating system for a free one (the log line says which). */
const Port = Config.schema(wholeNumber("PORT", 0, 65_535), "PORT").pipe(Config.withDefault(3000))

/** `HOST`: the address to listen on. */
const Host = Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))

/** `SCENARIO`: the path of a scenario file; unset, the built-in demo scenario. */
const Scenario = Config.String("SCENARIO").pipe(Config.withDefault(undefined))

/**
 * `LIVE_CONFIG`: the path of a live configuration file (docs/live.md): set, the server runs in live
 * mode on the file's EVM networks instead of the simulator.
 */
const LiveConfigPath = Config.String("LIVE_CONFIG").pipe(Config.withDefault(undefined))

/** `LOG_FORMAT`: how log lines are written, `text` (logfmt) or `json` (one object per line). */
const LogFormatSetting = Config.schema(
  oneOf(Logging.LOG_FORMATS, (found) => `LOG_FORMAT must be text or json (found ${found})`),
  "LOG_FORMAT"
).pipe(Config.withDefault<Logging.LogFormat>("text"))

/** `LOG_LEVEL`: the least severe level logged, `error`, `warn`, `info` or `debug` (any case). */
const LogLevelSetting = Config.schema(
  settingText(Schema.Literals(Logging.LOG_LEVELS), (text) => {
    const value = Logging.parseLogLevel(text)
    return value === undefined
      ? { refusal: `LOG_LEVEL must be error, warn, info or debug (found ${JSON.stringify(text)})` }
      : { value }
  }),
  "LOG_LEVEL"
).pipe(Config.withDefault<LogLevel.LogLevel>("Info"))

/** `SIM_CONTROL_KEY`: the key the `/v1/sim` routes take (docs/simulator.md#control-routes). */
const ControlKey = Config.Redacted("SIM_CONTROL_KEY").pipe(Config.withDefault(undefined))

/** `SIM_LOG_MAX`: how many entries the event log and the outbox each keep; unset, the simulator's default. */
const LogMax = Config.schema(wholeNumber("SIM_LOG_MAX", 1, 10_000_000), "SIM_LOG_MAX").pipe(
  Config.withDefault(undefined)
)

/** `CORS_ORIGINS`: a comma-separated list of origins (`scheme://host[:port]`) browsers may call the API from. */
const CorsOrigins = Config.schema(
  settingText(Schema.Array(Schema.String), (text) => {
    const origins = parseCorsOrigins(text)
    return Result.isFailure(origins) ? { refusal: `CORS_ORIGINS: ${origins.failure}` } : { value: origins.success }
  }),
  "CORS_ORIGINS"
).pipe(Config.withDefault<ReadonlyArray<string>>([]))

/** `DATABASE_URL`: where the records are kept (docs/storage.md); unset, in memory. It may hold a password. */
const DatabaseUrl = Config.Redacted("DATABASE_URL").pipe(Config.withDefault(undefined))

/**
 * `WEBHOOK_ALLOW_PRIVATE_URLS`: `true` or `false`. Unset, the simulator's default: any host, as
 * local receivers are how its users test; `false` applies the address rule (docs/alerts.md#webhooks)
 * for a simulator that untrusted callers can reach.
 */
const AllowPrivateUrls = Config.schema(
  oneOf(
    ["true", "false"],
    (found) => `WEBHOOK_ALLOW_PRIVATE_URLS must be true or false (found ${found})`
  ),
  "WEBHOOK_ALLOW_PRIVATE_URLS"
).pipe(Config.map((text) => text === "true"), Config.withDefault(true))

/**
 * `LIVE_DROP_GRACE_SECONDS` (live mode): how long after it was sent a swap the node no longer knows
 * (neither mined nor pending) is taken as dropped and its trade failed `NETWORK_ERROR`; 30 unless set.
 * A node behind a load balancer may not know a fresh transaction yet: such a setup may need longer.
 */
const LiveDropGrace = Config.schema(wholeNumber("LIVE_DROP_GRACE_SECONDS", 1, 3600), "LIVE_DROP_GRACE_SECONDS").pipe(
  Config.withDefault(30)
)

/** Every setting of the standalone server, read in this order: the first it cannot start with is reported. */
export const ServerSettings = Config.all({
  port: Port,
  host: Host,
  scenario: Scenario,
  liveConfig: LiveConfigPath,
  logFormat: LogFormatSetting,
  logLevel: LogLevelSetting,
  controlKey: ControlKey,
  logMax: LogMax,
  corsOrigins: CorsOrigins,
  databaseUrl: DatabaseUrl,
  allowPrivateUrls: AllowPrivateUrls,
  liveDropGraceSeconds: LiveDropGrace
})

/** The standalone server's settings, as read. */
export type ServerSettings = Config.Success<typeof ServerSettings>

/** A setting the server cannot start with, in the one line an operator reads. */
export const settingRefusal = (error: Config.ConfigError): string => {
  if (error.cause._tag !== "SchemaError") return error.message
  const [issue] = SchemaIssue.makeFormatterStandardSchemaV1()(error.cause.issue).issues
  return issue?.message ?? error.message
}
