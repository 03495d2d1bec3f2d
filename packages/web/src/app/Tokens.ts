/**
 * The token list the pickers offer: the server's catalogue (`GET /v1/tokens`), read once at
 * sign-in and kept for the tab, so that a symbol or address chosen here is one this server knows —
 * the simulator's tokens on the simulator, the configured ones on a live server
 * (docs/decisions.md, "`GET /v1/tokens` publishes the catalogue").
 */
import { computed, signal } from "@preact/signals"
import { type Network, networks } from "./api/Types.ts"

export interface TokenInfo {
  readonly symbol: string
  readonly name: string
  /** Digits after the point an amount of it may have (the API refuses more). */
  readonly decimals: number
  readonly addresses: Readonly<Partial<Record<Network, string>>>
}

/** One token as `GET /v1/tokens` answers it. */
export interface TokenView {
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly stablecoin: boolean
  readonly networks: Readonly<Record<string, string>>
}

const NATIVE = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

/** The catalogue's tokens as the pickers use them (addresses on the networks this interface knows). */
export const tokenInfoOf = (view: TokenView): TokenInfo => {
  const addresses: Partial<Record<Network, string>> = {}
  for (const network of networks) {
    const address = view.networks[network]
    if (address !== undefined) addresses[network] = address
  }
  return { symbol: view.symbol, name: view.name, decimals: view.decimals, addresses }
}

/** The server's tokens, in its order; empty until read (or when the read failed). */
export const tokenCatalogue = signal<ReadonlyArray<TokenInfo>>([])

/** Why the catalogue could not be read (the API's message), or null: the pickers show it rather than no tokens. */
export const tokensProblem = signal<string | null>(null)

/** Whether the catalogue has been read for the signed-in key (the screens wait for it). */
export const tokensLoaded = signal(false)

/** The networks at least one listed token exists on, in the interface's network order. */
export const listedNetworks = computed((): ReadonlyArray<Network> =>
  networks.filter((network) => tokenCatalogue.value.some((entry) => entry.addresses[network] !== undefined))
)

/** The networks the pickers offer: those the catalogue lists tokens on, or every one while it lists none. */
export const offeredNetworks = (): ReadonlyArray<Network> =>
  listedNetworks.value.length > 0 ? listedNetworks.value : networks

/** The token the Market screen opens on: the first listed on the first network the server lists tokens on. */
export const defaultToken = (): string => {
  const network = listedNetworks.value[0]
  return (network === undefined ? undefined : tokensOn(network)[0]?.symbol) ?? ""
}

/** The token gas is paid in on `network`. */
export const nativeToken = (network: Network): string => (network === "solana" ? "SOL" : "ETH")

/**
 * What Max leaves of the native token for gas, in whole tokens: many times a swap's gas on each
 * network, and on ethereum enough for a congested or spiking block (docs/decisions.md, "Max leaves
 * gas on the native token").
 */
export const gasReserve: Readonly<Record<Network, string>> = {
  solana: "0.01",
  ethereum: "0.02",
  base: "0.001",
  arbitrum: "0.001"
}

/** The tokens that exist on `network`, in list order. */
export const tokensOn = (network: Network): ReadonlyArray<TokenInfo> =>
  tokenCatalogue.value.filter((entry) => entry.addresses[network] !== undefined)

export const tokenBySymbol = (symbol: string): TokenInfo | undefined =>
  tokenCatalogue.value.find((entry) => entry.symbol === symbol.toUpperCase())

const sameAddress = (a: string, b: string) => (a.startsWith("0x") ? a.toLowerCase() === b.toLowerCase() : a === b)

/**
 * Whether `entry` answers a search on `network`: its symbol or name contains the query (any case),
 * or the query is its contract address there (EVM addresses in any case).
 */
export const matchesToken = (entry: TokenInfo, network: Network, query: string): boolean => {
  const text = query.trim()
  if (text === "") return true
  const address = entry.addresses[network]
  if (address !== undefined && address !== NATIVE && sameAddress(address, text)) return true
  const lower = text.toLowerCase()
  return entry.symbol.toLowerCase().includes(lower) || entry.name.toLowerCase().includes(lower)
}
