/**
 * The signing keys of delegated wallets, read from the environment variables the live file names.
 * A key is held as `Redacted` from the moment it is read: it never appears in an error, a log line,
 * `toString` or JSON. A variable that is absent, is not a private key, or is the key of another
 * address stops the start, naming the variable (never its value).
 */
import { Data, Effect, Redacted } from "effect"
import { type Address, getAddress, type Hex, type LocalAccount } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { addressOf, type LiveConfig, liveNetworksOf } from "./LiveConfig.ts"
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

/**
 * Every delegated wallet of the file with its key from `env`, or `SigningKeysUnavailable` naming
 * each variable that is absent, is not a 0x-hex private key, or is the key of another address.
 */
export const readDelegatedSigners = (
  config: LiveConfig,
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<ReadonlyArray<DelegatedSigner>, SigningKeysUnavailable> =>
  Effect.suspend(() => {
    const signers: Array<DelegatedSigner> = []
    const problems: Array<SigningKeyProblem> = []
    for (const account of config.accounts) {
      for (const wallet of account.wallets ?? []) {
        const variable = wallet.signingKeyEnv
        if (variable === undefined) continue
        const address = getAddress(addressOf(wallet.address))
        const where = `${account.id}'s ${wallet.network} wallet ${address}`
        const read = readPrivateKeyText(variable, env[variable])
        if (read._tag === "Problem") {
          problems.push({ variable, wallet: where, reason: read.reason })
          continue
        }
        if (read.address !== address) {
          problems.push({ variable, wallet: where, reason: `is the key of ${read.address}, not of ${address}` })
          continue
        }
        signers.push({
          accountId: account.id,
          network: wallet.network as DelegatedSigner["network"],
          address,
          variable,
          key: read.key
        })
      }
    }
    return problems.length > 0 ? Effect.fail(new SigningKeysUnavailable({ problems })) : Effect.succeed(signers)
  })

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
  env: Readonly<Record<string, string | undefined>>
): Effect.Effect<ReadonlyArray<ExecutorSigner>, SigningKeysUnavailable> =>
  Effect.suspend(() => {
    const executors: Array<ExecutorSigner> = []
    const problems: Array<SigningKeyProblem> = []
    for (const [network, settings] of liveNetworksOf(config)) {
      const variable = settings.executorKeyEnv
      const where = `${network}'s executor`
      const read = readPrivateKeyText(variable, env[variable])
      if (read._tag === "Problem") {
        problems.push({ variable, wallet: where, reason: read.reason })
        continue
      }
      executors.push({
        network: network as ExecutorSigner["network"],
        address: read.address,
        variable,
        key: read.key
      })
    }
    return problems.length > 0 ? Effect.fail(new SigningKeysUnavailable({ problems })) : Effect.succeed(executors)
  })
