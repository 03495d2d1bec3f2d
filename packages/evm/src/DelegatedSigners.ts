/**
 * The signing keys of delegated wallets, read from the environment variables the live file names.
 * A key is held as `Redacted` from the moment it is read: it never appears in an error, a log line,
 * `toString` or JSON. A variable that is absent, is not a private key, or is the key of another
 * address stops the start, naming the variable (never its value).
 */
import { Array as Arr, Data, Effect, Redacted, Result } from "effect"
import { type Address, getAddress, type Hex, type LocalAccount } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { addressOf, type LiveConfig, liveNetworksOf, type LiveWallet } from "./LiveConfig.ts"
import { readPrivateKeyText } from "./PrivateKeyText.ts"

/** A delegated wallet and its signing key. */
export interface DelegatedSigner {
  readonly accountId: string
  readonly network: "ethereum" | "base" | "arbitrum"
  readonly address: Address
  /** The variable the key was read from. */
  readonly variable: string
  readonly key: Redacted.Redacted<Hex>
}

/** One variable that does not hold the key it should, and why (never the value). */
export interface SigningKeyProblem {
  readonly variable: string
  readonly wallet: string
  readonly reason: string
}

/** Delegated wallets whose keys cannot be read: every variable at fault. */
export class SigningKeysUnavailable extends Data.TaggedError("SigningKeysUnavailable")<{
  readonly problems: ReadonlyArray<SigningKeyProblem>
}> {
  override get message() {
    return this.problems.map((p) => `${p.variable} (${p.wallet}): ${p.reason}`).join("; ")
  }
}

/** The local account that signs with a delegated wallet's key. */
export const signerAccount = (signer: { readonly key: Redacted.Redacted<Hex> }): LocalAccount =>
  privateKeyToAccount(Redacted.value(signer.key))

/** The environment variables keys are read from (`process.env` in the server). */
type Environment = Readonly<Record<string, string | undefined>>

/**
 * Every signer `read` reads (when the effect runs, not before), or `SigningKeysUnavailable` naming
 * every variable at fault: one start reports them all, not the first.
 */
const everySigner = <S>(
  read: () => ReadonlyArray<Result.Result<S, SigningKeyProblem>>
): Effect.Effect<ReadonlyArray<S>, SigningKeysUnavailable> =>
  Effect.suspend(() => {
    const readings = read()
    const problems = Arr.getFailures(readings)
    return problems.length > 0
      ? Effect.fail(new SigningKeysUnavailable({ problems }))
      : Effect.succeed(Arr.getSuccesses(readings))
  })

/** A delegated wallet's signer, from the key in `variable`, which must be the key of the wallet's address. */
const delegatedSigner = (
  accountId: string,
  wallet: LiveWallet,
  variable: string,
  env: Environment
): Result.Result<DelegatedSigner, SigningKeyProblem> => {
  const address = getAddress(addressOf(wallet.address))
  const problem = (reason: string) =>
    Result.fail({ variable, wallet: `${accountId}'s ${wallet.network} wallet ${address}`, reason })
  const read = readPrivateKeyText(variable, env[variable])
  if (read._tag === "Problem") return problem(read.reason)
  if (read.address !== address) return problem(`is the key of ${read.address}, not of ${address}`)
  return Result.succeed({
    accountId,
    network: wallet.network as DelegatedSigner["network"],
    address,
    variable,
    key: read.key
  })
}

/**
 * Every delegated wallet of the file with its key from `env`, or `SigningKeysUnavailable` naming
 * each variable that is absent, is not a 0x-hex private key, or is the key of another address.
 */
export const readDelegatedSigners = (
  config: LiveConfig,
  env: Environment
): Effect.Effect<ReadonlyArray<DelegatedSigner>, SigningKeysUnavailable> =>
  everySigner(() =>
    config.accounts.flatMap((account) =>
      (account.wallets ?? []).flatMap((wallet) =>
        wallet.signingKeyEnv === undefined ? [] : [delegatedSigner(account.id, wallet, wallet.signingKeyEnv, env)]
      )
    )
  )

/** A network's executor: the only key the project's contract takes `fillOrder` from. */
export interface ExecutorSigner {
  readonly network: "ethereum" | "base" | "arbitrum"
  readonly address: Address
  /** The variable the key was read from (`executorKeyEnv`). */
  readonly variable: string
  readonly key: Redacted.Redacted<Hex>
}

/**
 * Each configured network's executor key, read from its `executorKeyEnv` (never logged or stored).
 * Live mode fills limit orders through it, so a key that is absent or not a private key fails,
 * naming the variable.
 */
export const readExecutorSigners = (
  config: LiveConfig,
  env: Environment
): Effect.Effect<ReadonlyArray<ExecutorSigner>, SigningKeysUnavailable> =>
  everySigner(() =>
    liveNetworksOf(config).map(([network, settings]) => {
      const variable = settings.executorKeyEnv
      const read = readPrivateKeyText(variable, env[variable])
      return read._tag === "Problem"
        ? Result.fail({ variable, wallet: `${network}'s executor`, reason: read.reason })
        : Result.succeed({ network, address: read.address, variable, key: read.key })
    })
  )
