/**
 * The live configuration file (`LIVE_CONFIG`, packages/evm/README.md): the EVM networks live mode trades on,
 * their exchange and tokens, and the accounts with their keys and wallets. Decoded with a Schema
 * that reports every bad field in one pass, one line per field with its path and value, as a bad
 * scenario is reported. What needs the node (its chain id, the code at the addresses) is not
 * checked here: a node that does not answer is a network that is down, not a bad file.
 */
import {
  ApiScope,
  DeclaredAccountId,
  type FileIssue,
  fileIssuesOf,
  InvalidFile,
  NotificationSettingsInput,
  Plan
} from "@swapdesk/core"
import { Schema } from "effect"
import { type Address, isAddress } from "viem"

/** An EVM address: 0x and 40 hex digits, with a valid EIP-55 checksum when it mixes cases. */
export const EvmAddress = Schema.String.check(
  Schema.makeFilter((s: string) =>
    isAddress(s, { strict: true }) || "must be a 0x address of 40 hex digits (with a valid checksum when mixed-case)"
  )
).pipe(Schema.brand("EvmAddress"))
export type EvmAddress = typeof EvmAddress.Type

const NonEmpty = Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" }))

const WholeAtLeast = (minimum: number) =>
  Schema.Finite.check(
    Schema.isInt({ message: "must be a whole number" }),
    Schema.isGreaterThanOrEqualTo(minimum, { message: `must be at least ${minimum}` })
  )

/** An environment variable's name, as POSIX shells accept it. */
const EnvName = Schema.String.check(
  Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: "must be an environment variable name (letters, digits, _)" })
)

/** One supported token of a network. */
export const LiveToken = Schema.Struct({
  symbol: Schema.String.check(
    Schema.isPattern(/^[A-Za-z0-9.]{1,16}$/, { message: "must be 1 to 16 letters, digits or dots" })
  ),
  address: EvmAddress,
  decimals: Schema.Finite.check(
    Schema.isInt({ message: "must be a whole number" }),
    Schema.isBetween({ minimum: 0, maximum: 36 }, { message: "must be between 0 and 36" })
  )
})
export type LiveToken = typeof LiveToken.Type

/** The Uniswap-V2-style exchange a network trades on. */
export const LiveDex = Schema.Struct({
  kind: Schema.Literals(["uniswap-v2"]),
  factory: EvmAddress,
  router: EvmAddress,
  weth: EvmAddress
})

/** The project's contracts on a network, written by `live:deploy`. */
export const LiveContracts = Schema.Struct({
  swapdeskRouter: Schema.optionalKey(EvmAddress)
})

/** One EVM network's settings. */
export const LiveNetwork = Schema.Struct({
  rpcUrl: Schema.String.check(
    Schema.isPattern(/^(https?|wss?):\/\/\S+$/, { message: "must be an http(s) or ws(s) URL" })
  ),
  /** The chain id the RPC must answer `eth_chainId` with; another one marks the network down. */
  chainId: WholeAtLeast(1),
  /** Blocks, the transaction's included, before a trade is confirmed and a block indexed. */
  confirmations: WholeAtLeast(1),
  /** The first block the market-data index reads. */
  startBlock: WholeAtLeast(0),
  dex: LiveDex,
  quoteToken: Schema.String,
  feeRecipient: EvmAddress,
  executorKeyEnv: EnvName,
  tokens: Schema.Array(LiveToken),
  contracts: Schema.optionalKey(LiveContracts)
})
export type LiveNetwork = typeof LiveNetwork.Type

const refusedSolana = Schema.Unknown.check(
  Schema.makeFilter(() => "live mode on solana comes later: only ethereum, base and arbitrum are served live")
)

/** The networks, keyed by name; `solana` is refused. */
export const LiveNetworks = Schema.Struct({
  ethereum: Schema.optionalKey(LiveNetwork),
  base: Schema.optionalKey(LiveNetwork),
  arbitrum: Schema.optionalKey(LiveNetwork),
  solana: Schema.optionalKey(refusedSolana)
})

/** A live API key: the secret itself, or the lowercase hex SHA-256 of it. Exactly one of the two. */
export const LiveApiKey = Schema.Struct({
  name: NonEmpty,
  key: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^sd_live_[0-9A-Za-z]{40}$/, { message: "must be sd_live_ followed by 40 base62 characters" })
    ).pipe(Schema.brand("LiveApiKeySecret"))
  ),
  keyHash: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^[0-9a-f]{64}$/, { message: "must be the lowercase hex SHA-256 of the key (64 digits)" })
    )
  ),
  scopes: Schema.Array(ApiScope)
})

/** A wallet: delegated when it names the variable holding its signing key, external otherwise. */
export const LiveWallet = Schema.Struct({
  network: Schema.String,
  address: EvmAddress,
  signingKeyEnv: Schema.optionalKey(EnvName)
})
export type LiveWallet = typeof LiveWallet.Type

/** Where an account is notified. */
export const LiveNotifications = NotificationSettingsInput

/** An account served live. */
export const LiveAccount = Schema.Struct({
  id: DeclaredAccountId,
  plan: Schema.optionalKey(Plan),
  apiKeys: Schema.optionalKey(Schema.Array(LiveApiKey)),
  wallets: Schema.optionalKey(Schema.Array(LiveWallet)),
  notifications: Schema.optionalKey(LiveNotifications)
})

/** A currency's Chainlink-style aggregator (USD per unit). */
export const LiveFxFeed = Schema.Struct({
  network: Schema.Literals(["ethereum", "base", "arbitrum"]),
  aggregator: EvmAddress
})

/** The live configuration file as decoded. */
export const LiveConfig = Schema.Struct({
  /** Where an editor finds the file's JSON Schema; not read otherwise. */
  $schema: Schema.optionalKey(Schema.String),
  networks: LiveNetworks,
  accounts: Schema.Array(LiveAccount),
  /** Currency code -> its aggregator; without it, prices are in USD only. */
  fx: Schema.optionalKey(
    Schema.Record(
      Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "must be a 3-letter ISO 4217 code" })),
      LiveFxFeed
    )
  )
})
export type LiveConfig = typeof LiveConfig.Type

/** A problem in the file: where, what is wrong, and the value found there (absent for text that is not JSON). */
export type LiveConfigIssue = FileIssue

/** A live configuration file that cannot be used: every bad field, one per line. */
export class InvalidLiveConfig extends InvalidFile {
  constructor(issues: ReadonlyArray<LiveConfigIssue>) {
    super("live configuration", issues)
    this.name = "InvalidLiveConfig"
  }
}

type Json = Record<string, unknown>
const objectAt = (value: unknown): Json | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? value as Json : undefined
const arrayAt = (value: unknown): ReadonlyArray<unknown> => Array.isArray(value) ? value : []
const stringAt = (value: unknown): string | undefined => typeof value === "string" ? value : undefined

/**
 * Rules across fields: a network's symbols and addresses listed once and its quote token among
 * them; one of `key` and `keyHash` per API key; ids, keys and wallets unique; wallets and fx feeds on
 * networks of the file. Run on the raw input, beside the schema, so that a file is reported whole in
 * one pass even when some of these fields are also malformed.
 */
const crossChecks = (input: unknown): Array<LiveConfigIssue> => {
  const issues: Array<LiveConfigIssue> = []
  const issue = (path: ReadonlyArray<string | number>, message: string, value: unknown) =>
    issues.push({ path: path.join("."), message, value })
  const networks = objectAt(objectAt(input)?.["networks"]) ?? {}
  const configured = (name: unknown) =>
    (name === "ethereum" || name === "base" || name === "arbitrum") && objectAt(networks[name]) !== undefined
  for (const name of ["ethereum", "base", "arbitrum"]) {
    const network = objectAt(networks[name])
    if (network === undefined) continue
    const tokens = arrayAt(network["tokens"]).map((t) => objectAt(t) ?? {})
    const symbols = tokens.map((t) => stringAt(t["symbol"]))
    const addresses = tokens.map((t) => stringAt(t["address"])?.toLowerCase())
    tokens.forEach((_, i) => {
      const symbol = symbols[i]
      const address = addresses[i]
      if (symbol === "ETH") {
        issue(["networks", name, "tokens", i, "symbol"], "is the native coin: list WETH instead", symbol)
      } else if (symbol !== undefined && symbols.indexOf(symbol) < i) {
        issue(["networks", name, "tokens", i, "symbol"], "is listed twice", symbol)
      }
      if (address !== undefined && addresses.indexOf(address) < i) {
        issue(["networks", name, "tokens", i, "address"], "is listed twice", tokens[i]?.["address"])
      }
    })
    const quoteToken = network["quoteToken"]
    if (typeof quoteToken === "string" && !symbols.includes(quoteToken)) {
      issue(["networks", name, "quoteToken"], "must be one of the network's tokens", quoteToken)
    }
  }
  const ids = new Set<string>()
  const secrets = new Set<string>()
  const wallets = new Set<string>()
  arrayAt(objectAt(input)?.["accounts"]).forEach((raw, a) => {
    const account = objectAt(raw) ?? {}
    const id = stringAt(account["id"])
    if (id !== undefined && ids.has(id)) issue(["accounts", a, "id"], "is used by another account", id)
    if (id !== undefined) ids.add(id)
    arrayAt(account["apiKeys"]).forEach((rawKey, i) => {
      const apiKey = objectAt(rawKey)
      if (apiKey === undefined) return
      const key = stringAt(apiKey["key"])
      const keyHash = stringAt(apiKey["keyHash"])
      if ((key === undefined) === (keyHash === undefined) && ("key" in apiKey) === ("keyHash" in apiKey)) {
        issue(["accounts", a, "apiKeys", i], "must give exactly one of key and keyHash", apiKey)
      }
      for (const [field, secret] of [["key", key], ["keyHash", keyHash]] as const) {
        if (secret === undefined) continue
        if (secrets.has(secret)) issue(["accounts", a, "apiKeys", i, field], "is not unique", secret)
        secrets.add(secret)
      }
    })
    const networksSeen = new Set<unknown>()
    arrayAt(account["wallets"]).forEach((rawWallet, i) => {
      const wallet = objectAt(rawWallet) ?? {}
      const network = wallet["network"]
      if (!configured(network)) {
        issue(["accounts", a, "wallets", i, "network"], "is not a network of this file", network)
      } else if (networksSeen.has(network)) {
        issue(["accounts", a, "wallets", i, "network"], "has a second wallet on the same network", network)
      }
      networksSeen.add(network)
      const address = stringAt(wallet["address"])
      if (address === undefined) return
      const walletKey = `${String(network)}:${address.toLowerCase()}`
      if (wallets.has(walletKey)) {
        issue(["accounts", a, "wallets", i, "address"], "belongs to another account's wallet", address)
      }
      wallets.add(walletKey)
    })
  })
  for (const [currency, feed] of Object.entries(objectAt(objectAt(input)?.["fx"]) ?? {})) {
    const network = objectAt(feed)?.["network"]
    if (network !== undefined && !configured(network)) {
      issue(["fx", currency, "network"], "is not a network of this file", network)
    }
  }
  return issues
}

/** Decodes a live configuration, or throws `InvalidLiveConfig` naming every bad field and its value. */
export const decodeLiveConfig = (input: unknown): LiveConfig => {
  const decoded = Schema.decodeUnknownExit(LiveConfig)(input, { errors: "all", onExcessProperty: "error" })
  const issues: Array<LiveConfigIssue> = []
  if (decoded._tag === "Failure") {
    const failure = decoded.cause.reasons.find((r) => r._tag === "Fail")
    const issue = failure !== undefined && Schema.isSchemaError(failure.error) ? failure.error.issue : undefined
    if (issue === undefined) throw new InvalidLiveConfig([{ path: "", message: "could not be decoded", value: input }])
    issues.push(...fileIssuesOf(issue, input))
  }
  // A field the schema already refused is reported once, with the schema's message.
  const reported = new Set(issues.map((i) => i.path))
  issues.push(...crossChecks(input).filter((i) => !reported.has(i.path)))
  if (issues.length > 0 || decoded._tag === "Failure") throw new InvalidLiveConfig(issues)
  return decoded.value
}

/** Parses a live configuration file's text (JSON), or throws `InvalidLiveConfig`. */
export const parseLiveConfig = (text: string): LiveConfig => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new InvalidLiveConfig([{ path: "", message: `is not valid JSON: ${(error as Error).message}` }])
  }
  return decodeLiveConfig(json)
}

/** The configured networks with their settings, in the order ethereum, base, arbitrum. */
export const liveNetworksOf = (
  config: LiveConfig
): ReadonlyArray<readonly ["ethereum" | "base" | "arbitrum", LiveNetwork]> =>
  (["ethereum", "base", "arbitrum"] as const).flatMap((name) => {
    const network = config.networks[name]
    return network === undefined ? [] : [[name, network] as const]
  })

/** An address from the file as viem takes it. */
export const addressOf = (address: EvmAddress): Address => address as unknown as Address
