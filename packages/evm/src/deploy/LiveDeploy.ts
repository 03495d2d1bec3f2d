/**
 * `live:deploy`: deploys the project's contract (`SwapdeskRouter`) on every network of the live
 * file that has none recorded, and records each new address in the file under
 * `networks.<name>.contracts.swapdeskRouter`, every other key left as it was. Everything that can
 * be checked without a node (the file, `DEPLOYER_KEY`, each executor's key) is checked before any
 * network is contacted, so a missing setting never leaves a half-done deployment. A network that
 * does not answer, or answers with another chain id, is reported and skipped; the others are still
 * handled (docs/decisions.md, "Deploying the project's contract").
 */
import { Config, Data, Effect, Option, Redacted } from "effect"
import { readFile, rename, stat, unlink, writeFile } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { type Address, createWalletClient, getAddress, type Hash, http, publicActions } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { swapdeskRouterAbi, swapdeskRouterBytecode } from "../contracts/SwapdeskRouter.ts"
import type { EvmNetwork } from "../EvmNetwork.ts"
import { defaultRpcTimeoutMs, type EvmRpc, evmRpcSettingsOf, makeEvmRpc } from "../EvmRpc.ts"
import { type EvmRpcFailure, rpcFailure } from "../EvmRpcFailure.ts"
import { addressOf, InvalidLiveConfig, type LiveConfig, liveNetworksOf, parseLiveConfig } from "../LiveConfig.ts"
import { readPrivateKeyText } from "../PrivateKeyText.ts"

/** What happened on one network. */
export type NetworkDeployment =
  /** The contract was deployed by `transaction` and its address written into the file. */
  | { readonly _tag: "Deployed"; readonly network: EvmNetwork; readonly address: Address; readonly transaction: Hash }
  /** The file already records a contract with code on the node: nothing was sent. */
  | { readonly _tag: "AlreadyDeployed"; readonly network: EvmNetwork; readonly address: Address }
  /** The RPC did not answer, or answered with another chain id: nothing was sent. */
  | { readonly _tag: "Down"; readonly network: EvmNetwork; readonly reason: string }
  /**
   * The node answered but the network could not be completed: the recorded address has no code
   * there, or the deployment was refused or reverted. Nothing was written for it.
   */
  | { readonly _tag: "Failed"; readonly network: EvmNetwork; readonly reason: string }

/** What a run did, network by network in the file's order (ethereum, base, arbitrum). */
export interface LiveDeployReport {
  readonly configPath: string
  readonly networks: ReadonlyArray<NetworkDeployment>
}

/** Whether every network ended with its contract in place. */
export const deploymentSucceeded = (report: LiveDeployReport): boolean =>
  report.networks.every((n) => n._tag === "Deployed" || n._tag === "AlreadyDeployed")

/** The run could not start: a setting or the file is missing or bad. Nothing was sent to any network. */
export class LiveDeployRefused extends Data.TaggedError("LiveDeployRefused")<{ readonly message: string }> {}

/** One line for a network's outcome, as the command prints it. */
export const describeDeployment = (outcome: NetworkDeployment): string => {
  switch (outcome._tag) {
    case "Deployed":
      return `${outcome.network}: deployed SwapdeskRouter at ${outcome.address} (transaction ${outcome.transaction})`
    case "AlreadyDeployed":
      return `${outcome.network}: already deployed at ${outcome.address}`
    case "Down":
      return `${outcome.network}: down, nothing deployed (${outcome.reason})`
    case "Failed":
      return `${outcome.network}: not deployed (${outcome.reason})`
  }
}

/** The closing line: how many networks got a contract, or that nothing was deployed. */
export const describeReport = (report: LiveDeployReport): string => {
  const deployed = report.networks.filter((n) => n._tag === "Deployed").length
  const problems = report.networks.filter((n) => n._tag === "Down" || n._tag === "Failed").length
  const written = deployed === 0
    ? "nothing deployed"
    : `deployed on ${deployed} network${deployed === 1 ? "" : "s"}, written to ${report.configPath}`
  return problems === 0 ? written : `${written}; ${problems} network${problems === 1 ? "" : "s"} not done: run again`
}

/** A private key from a variable: absent, not a key, or the key and its address. Never the value in a message. */
const readKey = (variable: string) =>
  Effect.gen(function*() {
    const found = yield* Config.Redacted(variable).pipe(Config.option)
    const read = readPrivateKeyText(variable, Option.getOrUndefined(Option.map(found, Redacted.value)))
    return read._tag === "Key" ? read : { _tag: "Problem", reason: `${variable} ${read.reason}` } as const
  }).pipe(
    Effect.catch(() => Effect.succeed({ _tag: "Problem", reason: `${variable} cannot be read` } as const))
  )

/** The indentation the file's text uses (the first indented line's), so the file is written back the same way. */
const indentationOf = (text: string): string | number => {
  const match = /\n([ \t]+)\S/.exec(text)
  return match?.[1] ?? 0
}

type Json = Record<string, unknown>

/**
 * The file's text with `networks.<network>.contracts.swapdeskRouter` set to `address`: parsed as
 * JSON, the one key set (`contracts` added at the end of the network when absent), written back
 * with the same indentation and final newline. Key order is JSON.parse's, which keeps the file's
 * (no key of the file is an integer).
 */
export const withContractAddress = (text: string, network: EvmNetwork, address: Address): string => {
  const json = JSON.parse(text) as Json
  const networks = json["networks"] as Json
  const settings = networks[network] as Json
  const contracts = (settings["contracts"] ?? {}) as Json
  contracts["swapdeskRouter"] = address
  settings["contracts"] = contracts
  const trailing = /\r?\n$/.exec(text)?.[0] ?? ""
  return JSON.stringify(json, null, indentationOf(text)) + trailing
}

/** Replaces the file at once: a temporary file beside it, same permissions, renamed over it. */
const writeAtomically = (path: string, text: string) =>
  Effect.tryPromise({
    try: async () => {
      const mode = (await stat(path)).mode & 0o777
      const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`)
      try {
        await writeFile(temporary, text, { mode })
        await rename(temporary, path)
      } catch (error) {
        await unlink(temporary).catch(() => undefined)
        throw error
      }
    },
    catch: (error) => new LiveDeployRefused({ message: `cannot write ${path}: ${(error as Error).message}` })
  })

const readText = (path: string) =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (error) => new LiveDeployRefused({ message: `cannot read LIVE_CONFIG ${path}: ${(error as Error).message}` })
  })

/** Options a caller may set; the settings themselves come from `Config` (the environment). */
export interface LiveDeployOptions {
  /** Each RPC call's timeout: 10 s when absent. */
  readonly timeoutMs?: number
  /** Called with each network's line as soon as it is known (the command prints it). */
  readonly onNetwork?: (outcome: NetworkDeployment) => void
}

/**
 * Reads `LIVE_CONFIG` (the file's path), `DEPLOYER_KEY` and the executor key of every network
 * lacking its contract, then, network by network: verifies the chain id, checks a recorded
 * contract's code, or deploys one (router, WETH, executor, fee recipient from the file; the
 * deployer as owner), waits for its receipt and writes its address into the file before the next
 * network. Fails with `LiveDeployRefused` before any network is contacted when a setting is
 * missing or bad; a network's own trouble is in the report instead.
 */
export const liveDeploy = (
  options: LiveDeployOptions = {}
): Effect.Effect<LiveDeployReport, LiveDeployRefused> =>
  Effect.gen(function*() {
    const configPath = yield* Config.String("LIVE_CONFIG").pipe(
      Config.option,
      Effect.map(Option.filter((value: string) => value.trim() !== "")),
      Effect.catch(() => Effect.succeed(Option.none<string>()))
    )
    if (Option.isNone(configPath)) {
      return yield* new LiveDeployRefused({
        message: "LIVE_CONFIG is not set: the path of the live configuration file"
      })
    }
    const path = configPath.value
    const text = yield* readText(path)
    const config: LiveConfig = yield* Effect.try({
      try: () => parseLiveConfig(text),
      catch: (error) =>
        new LiveDeployRefused({
          message: error instanceof InvalidLiveConfig ? `${path}: ${error.message}` : `${path}: ${String(error)}`
        })
    })

    // Every setting is read before any network is contacted: a missing one deploys nothing anywhere.
    const problems: Array<string> = []
    const deployer = yield* readKey("DEPLOYER_KEY")
    if (deployer._tag === "Problem") problems.push(`${deployer.reason}: the key that pays for the deployments`)
    const networks = liveNetworksOf(config)
    const executors = new Map<EvmNetwork, Address>()
    for (const [network, settings] of networks) {
      if (settings.contracts?.swapdeskRouter !== undefined) continue
      const executor = yield* readKey(settings.executorKeyEnv)
      if (executor._tag === "Problem") {
        problems.push(`${executor.reason}: networks.${network}.executorKeyEnv, the key of ${network}'s executor`)
      } else executors.set(network, executor.address)
    }
    if (deployer._tag === "Problem" || problems.length > 0) {
      return yield* new LiveDeployRefused({ message: problems.join("\n") })
    }
    const owner = privateKeyToAccount(Redacted.value(deployer.key))

    let current = text
    const outcomes: Array<NetworkDeployment> = []
    for (const [network, settings] of networks) {
      const rpc = makeEvmRpc(evmRpcSettingsOf(network, settings, timeoutOf(options)))
      const call = <A>(run: () => Promise<A>) =>
        Effect.tryPromise({ try: run, catch: (error) => rpcFailure(network, error) })
      const recorded = settings.contracts?.swapdeskRouter
      const outcome: NetworkDeployment = yield* Effect.gen(function*() {
        yield* rpc.verifyChain
        if (recorded !== undefined) {
          const address = getAddress(addressOf(recorded))
          const code = yield* call(() => rpc.client.getCode({ address }))
          return code === undefined || code === "0x"
            ? {
              _tag: "Failed",
              network,
              reason: `the file records ${address} but it has no code on this chain; ` +
                `remove networks.${network}.contracts.swapdeskRouter to deploy a new one`
            } as const
            : { _tag: "AlreadyDeployed", network, address } as const
        }
        // The receipt is read every half second: viem's default for a chain it knows no block time of
        // is every 4 s, which chains of one-second blocks (Base, Arbitrum, the devnet) would wait on.
        const client = createWalletClient({
          account: owner,
          chain: rpc.client.chain,
          transport: rpcTransport(rpc),
          pollingInterval: 500
        }).extend(publicActions)
        const transaction = yield* call(() =>
          client.deployContract({
            abi: swapdeskRouterAbi,
            bytecode: swapdeskRouterBytecode,
            args: [
              getAddress(addressOf(settings.dex.router)),
              getAddress(addressOf(settings.dex.weth)),
              executors.get(network)!,
              getAddress(addressOf(settings.feeRecipient)),
              owner.address
            ]
          })
        )
        // Once sent, a failure must name the transaction: running again would deploy a second contract.
        const receipt = yield* call(() =>
          client.waitForTransactionReceipt({ hash: transaction, timeout: receiptTimeoutMs })
        ).pipe(
          Effect.mapError((failure) =>
            new LiveDeployRefused({
              message: `deployment ${transaction} was sent but its receipt could not be read (${reasonOf(failure)}); ` +
                "check it before running again"
            })
          )
        )
        if (receipt.status !== "success" || receipt.contractAddress == null) {
          return { _tag: "Failed", network, reason: `the deployment ${transaction} reverted` } as const
        }
        const address = getAddress(receipt.contractAddress)
        current = withContractAddress(current, network, address)
        yield* writeAtomically(path, current).pipe(
          Effect.mapError((refused) =>
            new LiveDeployRefused({
              message: `deployed at ${address} by ${transaction}, but the file was not updated (${refused.message}); ` +
                `record it as networks.${network}.contracts.swapdeskRouter`
            })
          )
        )
        return { _tag: "Deployed", network, address, transaction } as const
      }).pipe(
        Effect.catchTag(
          "LiveDeployRefused",
          (refused) => Effect.succeed<NetworkDeployment>({ _tag: "Failed", network, reason: refused.message })
        ),
        Effect.catch((failure) =>
          Effect.succeed<NetworkDeployment>(
            failure._tag === "NetworkUnavailable"
              ? { _tag: "Down", network, reason: failure.reason }
              : { _tag: "Failed", network, reason: reasonOf(failure) }
          )
        )
      )
      options.onNetwork?.(outcome)
      outcomes.push(outcome)
    }
    return { configPath: path, networks: outcomes }
  })

/** A typed RPC failure in words: its reason when it has one, else its name. */
const reasonOf = (failure: EvmRpcFailure): string =>
  "reason" in failure ? `${failure._tag}: ${failure.reason}` : failure._tag

/** How long to wait for a deployment's receipt: a busy mainnet can take minutes. */
const receiptTimeoutMs = 600_000

const timeoutOf = (options: LiveDeployOptions) =>
  options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }

/** The same HTTP transport the network's read client uses, for the sending client. */
const rpcTransport = (rpc: EvmRpc) =>
  http(rpc.settings.rpcUrl, { timeout: rpc.settings.timeoutMs ?? defaultRpcTimeoutMs, retryCount: 0 })
