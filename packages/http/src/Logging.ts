/**
 * How the server logs: through Effect's loggers, one line per entry, as readable text or as JSON
 * lines (`LOG_FORMAT=json`), at the minimum level `LOG_LEVEL` names (`Info` unless set, so that a
 * request's `Debug` line is off). Errors and warnings go to stderr, the rest to stdout.
 *
 * The request path logs a failure (a defect, answered `500`) at `Error` and every answered request
 * at `Debug`, each annotated with its `requestId` (the `X-Request-Id` it was answered with), its
 * `route` and its `status` (`GlobalMiddleware.ts`).
 */
import { Layer, Logger, type LogLevel, References } from "effect"

/** How a log line is written. */
export type LogFormat = "text" | "json"

/** Every format, the default first. */
export const LOG_FORMATS: ReadonlyArray<LogFormat> = ["text", "json"]

/** The levels `LOG_LEVEL` may name, as Effect names them. */
export const LOG_LEVELS: ReadonlyArray<LogLevel.LogLevel> = ["Error", "Warn", "Info", "Debug"]

/** `text` as a format, or undefined; an empty text is the default. */
export const parseLogFormat = (text: string): LogFormat | undefined =>
  text === "" ? "text" : (LOG_FORMATS as ReadonlyArray<string>).includes(text) ? text as LogFormat : undefined

/** `text` as a level (`debug` or `Debug`), or undefined; an empty text is `Info`. */
export const parseLogLevel = (text: string): LogLevel.LogLevel | undefined =>
  text === "" ? "Info" : LOG_LEVELS.find((level) => level.toLowerCase() === text.toLowerCase())

/** The logger of `format`: logfmt (`key=value`) text, or one JSON object per line. */
export const logger = (format: LogFormat) =>
  Logger.withLeveledConsole(format === "json" ? Logger.formatJson : Logger.formatLogFmt)

/** The server's logging: lines in `format`, from `level` up. */
export const layer = (format: LogFormat, level: LogLevel.LogLevel = "Info"): Layer.Layer<never> =>
  Layer.merge(Logger.layer([logger(format)]), Layer.succeed(References.MinimumLogLevel, level))
