/**
 * What live mode needs before anything is opened (docs/live.md#starting-the-live-server): the live
 * file read and decoded, a database to keep the records in, the project's contract recorded on
 * every network, and each delegated wallet's signing key from the variable the file names. Each
 * refusal is a `StartupFailure` in the operator's words: one line per bad field of the file, the
 * variable's name but never its value for a key, and the command that deploys a missing contract.
 */
import {
  type DelegatedSigner,
  type ExecutorSigner,
  InvalidLiveConfig,
  type LiveConfig,
  liveNetworksOf,
  parseLiveConfig,
  readDelegatedSigners,
  readExecutorSigners
} from "@swapdesk/evm"
import { Effect, type Redacted } from "effect"
import { readFileSync } from "node:fs"
import { StartupFailure } from "../StartupFailure.ts"

/** The command that deploys the project's contract where the file lacks it. */
export const LIVE_DEPLOY_COMMAND = "npx -y pnpm@12.21.0 live:deploy"

/** Everything a live server starts from, checked. */
export interface LiveStart {
  readonly configPath: string
  readonly config: LiveConfig
  readonly databaseUrl: Redacted.Redacted<string>
  /** The delegated wallets with their keys, which never leave this process. */
  readonly signers: ReadonlyArray<DelegatedSigner>
  /** Each network's executor key (`executorKeyEnv`), which fills limit orders and never leaves this process. */
  readonly executors: ReadonlyArray<ExecutorSigner>
}

/** The settings live mode reads beside the file. */
export interface LiveStartSettings {
  readonly liveConfig: string
  readonly scenario: string | undefined
  readonly databaseUrl: Redacted.Redacted<string> | undefined
}

/** Reads and decodes the live file, or says why it cannot be used. */
export const loadLiveConfig = (path: string): Effect.Effect<LiveConfig, StartupFailure> => {
  const failure = (problem: string) => new StartupFailure({ message: `LIVE_CONFIG ${path}: ${problem}` })
  return Effect.try({
    try: () => readFileSync(path, "utf8"),
    catch: (error) => failure(`cannot be read (${(error as Error).message})`)
  }).pipe(Effect.flatMap((text) =>
    Effect.suspend(() => {
      try {
        return Effect.succeed(parseLiveConfig(text))
      } catch (error) {
        // Anything but a problem of the file is a defect of the decoder, not the operator's.
        if (error instanceof InvalidLiveConfig) return Effect.fail(failure(error.message))
        throw error
      }
    })
  ))
}

/**
 * The networks of the file that lack the project's contract: the server cannot trade there, and
 * `live:deploy` is what records it.
 */
const undeployed = (config: LiveConfig): ReadonlyArray<string> =>
  liveNetworksOf(config).flatMap(([name, network]) => network.contracts?.swapdeskRouter === undefined ? [name] : [])

/**
 * Checks everything live mode needs before it opens anything, in the order an operator fixes them:
 * no `SCENARIO` beside `LIVE_CONFIG`, the file, `DATABASE_URL`, the contract on every network, the
 * delegated wallets' keys (from `env`).
 */
export const prepareLiveStart = (
  settings: LiveStartSettings,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<LiveStart, StartupFailure> =>
  Effect.gen(function*() {
    const path = settings.liveConfig
    if (settings.scenario !== undefined) {
      return yield* new StartupFailure({
        message: "SCENARIO and LIVE_CONFIG are both set: a scenario runs the simulator, LIVE_CONFIG the live " +
          "server; unset one of them"
      })
    }
    const config = yield* loadLiveConfig(path)
    if (liveNetworksOf(config).length === 0) {
      return yield* new StartupFailure({
        message: `LIVE_CONFIG ${path}: names no network: list ethereum, base or arbitrum under networks`
      })
    }
    if (settings.databaseUrl === undefined) {
      return yield* new StartupFailure({
        message: "DATABASE_URL is required in live mode (sqlite:<file path> or postgres://user:pass@host:port/db): " +
          "live records cannot be kept in memory only"
      })
    }
    const missing = undeployed(config)
    if (missing.length > 0) {
      return yield* new StartupFailure({
        message: `LIVE_CONFIG ${path}: the project's contract is not deployed on ${missing.join(", ")} ` +
          `(no networks.<name>.contracts.swapdeskRouter): run \`${LIVE_DEPLOY_COMMAND}\` with LIVE_CONFIG and ` +
          "DEPLOYER_KEY, then start again"
      })
    }
    const signers = yield* readDelegatedSigners(config, env).pipe(
      Effect.mapError((error) =>
        new StartupFailure({
          message: `LIVE_CONFIG ${path}: delegated wallets' signing keys cannot be read:\n` +
            error.problems.map((p) => `  ${p.variable} (${p.wallet}): ${p.reason}`).join("\n")
        })
      )
    )
    const executors = yield* readExecutorSigners(config, env).pipe(
      Effect.mapError((error) =>
        new StartupFailure({
          message:
            `LIVE_CONFIG ${path}: the networks' executor keys cannot be read (limit orders fill through them):\n` +
            error.problems.map((p) => `  ${p.variable} (${p.wallet}): ${p.reason}`).join("\n")
        })
      )
    )
    return { configPath: path, config, databaseUrl: settings.databaseUrl, signers, executors }
  })
