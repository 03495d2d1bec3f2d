/**
 * The live configuration file (`LIVE_CONFIG`, docs/live.md): the EVM networks live mode trades on,
 * their exchange and tokens, and the accounts with their keys and wallets. Decoded with a Schema
 * that reports every bad field in one pass, one line per field with its path and value, as a bad
 * scenario is reported. What needs the node (its chain id, the code at the addresses) is not
 * checked here: a node that does not answer is a network that is down, not a bad file.
 */
import { ApiScope, Plan, type ValidationIssue } from "@swapdesk/core"
import { Schema, SchemaIssue } from "effect"
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

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

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

/**
 * Checks across a network's fields: symbols and addresses listed once, and the quote token among
 * them. ETH is the native coin and is never listed.
 */
const networkChecks = Schema.makeFilter((network: {
  readonly quoteToken: string
  readonly tokens: ReadonlyArray<{ readonly symbol: string; readonly address: string }>
}) => {
  const issues: Array<Schema.FilterIssue> = []
  network.tokens.forEach((token, i) => {
    if (token.symbol === "ETH") {
      issues.push({ path: ["tokens", i, "symbol"], issue: "is the native coin: it is not listed (WETH is)" })
    }
    if (network.tokens.findIndex((t) => t.symbol === token.symbol) < i) {
      issues.push({ path: ["tokens", i, "symbol"], issue: "is listed twice" })
    }
    if (network.tokens.findIndex((t) => sameAddress(t.address, token.address)) < i) {
      issues.push({ path: ["tokens", i, "address"], issue: "is listed twice" })
    }
  })
  if (!network.tokens.some((t) => t.symbol === network.quoteToken)) {
    issues.push({ path: ["quoteToken"], issue: "must be one of the network's tokens" })
  }
  return issues
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
}).check(networkChecks)
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
}).check(
  Schema.makeFilter((k: { readonly key?: string; readonly keyHash?: string }) =>
    (k.key === undefined) !== (k.keyHash === undefined) || "must give exactly one of key and keyHash"
  )
)

/** A wallet: delegated when it names the variable holding its signing key, external otherwise. */
export const LiveWallet = Schema.Struct({
  network: Schema.String,
  address: EvmAddress,
  signingKeyEnv: Schema.optionalKey(EnvName)
})
export type LiveWallet = typeof LiveWallet.Type

/** Where an account is notified. */
export const LiveNotifications = Schema.Struct({
  email: Schema.optionalKey(Schema.NullOr(Schema.String)),
  telegram: Schema.optionalKey(Schema.NullOr(Schema.Struct({ chatId: Schema.String }))),
  push: Schema.optionalKey(Schema.NullOr(Schema.Struct({ deviceToken: Schema.String })))
})

/** An account served live. */
export const LiveAccount = Schema.Struct({
  id: Schema.String.check(
    Schema.isPattern(/^acct_[0-9A-Za-z_-]{1,64}$/, { message: "must be acct_ followed by letters, digits, _ or -" })
  ),
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

/** Checks across the file: ids, keys and wallets unique, wallets and feeds on configured networks. */
const fileChecks = Schema.makeFilter((file: {
  readonly networks: Readonly<Record<string, unknown>>
  readonly accounts: ReadonlyArray<typeof LiveAccount.Type>
  readonly fx?: Readonly<Record<string, { readonly network: string }>>
}) => {
  const issues: Array<Schema.FilterIssue> = []
  const configured = (network: string) => network !== "solana" && file.networks[network] !== undefined
  const ids = new Set<string>()
  const secrets = new Set<string>()
  const wallets = new Set<string>()
  file.accounts.forEach((account, a) => {
    if (ids.has(account.id)) issues.push({ path: ["accounts", a, "id"], issue: "is used by another account" })
    ids.add(account.id)
    account.apiKeys?.forEach((k, i) => {
      const secret = k.key ?? k.keyHash ?? ""
      const field = k.key !== undefined ? "key" : "keyHash"
      if (secrets.has(secret)) issues.push({ path: ["accounts", a, "apiKeys", i, field], issue: "is not unique" })
      secrets.add(secret)
    })
    const networksSeen = new Set<string>()
    account.wallets?.forEach((w, i) => {
      if (!configured(w.network)) {
        issues.push({ path: ["accounts", a, "wallets", i, "network"], issue: "is not a network of this file" })
      } else if (networksSeen.has(w.network)) {
        issues.push({ path: ["accounts", a, "wallets", i, "network"], issue: "has a second wallet on the same network" })
      }
      networksSeen.add(w.network)
      const walletKey = `${w.network}:${w.address.toLowerCase()}`
      if (wallets.has(walletKey)) {
        issues.push({ path: ["accounts", a, "wallets", i, "address"], issue: "belongs to another account's wallet" })
      }
      wallets.add(walletKey)
    })
  })
  for (const [currency, feed] of Object.entries(file.fx ?? {})) {
    if (!configured(feed.network)) issues.push({ path: ["fx", currency, "network"], issue: "is not a network of this file" })
  }
  return issues
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
}).check(fileChecks)
export type LiveConfig = typeof LiveConfig.Type

/** A problem in the file: where, what is wrong, and the value found there (absent for text that is not JSON). */
export interface LiveConfigIssue extends ValidationIssue {
  readonly value?: unknown
}

/** One line per issue: `  path: message (found value)`, the scenario file's format. */
const describeIssue = (issue: LiveConfigIssue): string =>
  `  ${issue.path === "" ? "(root)" : issue.path}: ${issue.message}` +
  ("value" in issue ? ` (found ${JSON.stringify(issue.value) ?? "nothing"})` : "")

/** A live configuration file that cannot be used: every bad field, one per line. */
export class InvalidLiveConfig extends Error {
  readonly issues: ReadonlyArray<LiveConfigIssue>
  constructor(issues: ReadonlyArray<LiveConfigIssue>) {
    super("invalid live configuration:\n" + issues.map(describeIssue).join("\n"))
    this.name = "InvalidLiveConfig"
    this.issues = issues
  }
}

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = input
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

const toIssues = SchemaIssue.makeFormatterStandardSchemaV1()

/** Decodes a live configuration, or throws `InvalidLiveConfig` naming every bad field and its value. */
export const decodeLiveConfig = (input: unknown): LiveConfig => {
  const decoded = Schema.decodeUnknownExit(LiveConfig)(input, { errors: "all", onExcessProperty: "error" })
  if (decoded._tag === "Success") return decoded.value
  const failure = decoded.cause.reasons.find((r) => r._tag === "Fail")
  const issue = failure !== undefined && Schema.isSchemaError(failure.error) ? failure.error.issue : undefined
  if (issue === undefined) throw new InvalidLiveConfig([{ path: "", message: "could not be decoded", value: input }])
  throw new InvalidLiveConfig(
    toIssues(issue).issues.map((i) => {
      const path = (i.path ?? []) as ReadonlyArray<PropertyKey>
      return { path: path.map(String).join("."), message: i.message, value: valueAt(input, path) }
    })
  )
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
