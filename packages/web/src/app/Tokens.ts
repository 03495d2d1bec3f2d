/**
 * The token list the pickers offer: every token the API trades, with its name, decimals and
 * contract (or mint) address per network. The API publishes no token list route, so the interface
 * carries one, as a wallet or DEX front end carries a token list; it mirrors the registry the
 * server resolves tokens with (`packages/core/src/Token.ts`, checked equal by
 * `test/Tokens.test.ts`), so a symbol or address chosen here is one the server knows.
 */
import type { Network } from "./api/Types.ts"

export interface TokenInfo {
  readonly symbol: string
  readonly name: string
  /** Digits after the point an amount of it may have (the API refuses more). */
  readonly decimals: number
  readonly addresses: Readonly<Partial<Record<Network, string>>>
}

const NATIVE = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

const token = (
  symbol: string,
  name: string,
  decimals: number,
  addresses: Partial<Record<Network, string>>
): TokenInfo => ({
  symbol,
  name,
  decimals,
  addresses
})

export const tokenList: ReadonlyArray<TokenInfo> = [
  token("SOL", "Solana", 9, { solana: "So11111111111111111111111111111111111111112" }),
  token("ETH", "Ether", 18, { ethereum: NATIVE, base: NATIVE, arbitrum: NATIVE }),
  token("WETH", "Wrapped Ether", 18, {
    ethereum: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    base: "0x4200000000000000000000000000000000000006",
    arbitrum: "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
  }),
  token("USDC", "USD Coin", 6, {
    solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    ethereum: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    arbitrum: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
  }),
  token("USDT", "Tether USD", 6, {
    solana: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    ethereum: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    base: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2",
    arbitrum: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"
  }),
  token("DAI", "Dai Stablecoin", 18, {
    ethereum: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    base: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb",
    arbitrum: "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"
  }),
  token("WBTC", "Wrapped Bitcoin", 8, {
    ethereum: "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599",
    arbitrum: "0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f"
  }),
  token("BONK", "Bonk", 5, { solana: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" }),
  token("JUP", "Jupiter", 6, { solana: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN" }),
  token("WIF", "dogwifhat", 6, { solana: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm" }),
  token("RAY", "Raydium", 6, { solana: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" }),
  token("PYTH", "Pyth Network", 6, { solana: "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3" }),
  token("ARB", "Arbitrum", 18, {
    ethereum: "0xB50721BCf8d664c30412Cfbc6cf7a15145234ad1",
    arbitrum: "0x912CE59144191C1204E64559FE8253a0e49E6548"
  }),
  token("GMX", "GMX", 18, { arbitrum: "0xfc5A1A6EB076a2C7aD06eD22C90d7E710E35ad0a" }),
  token("LINK", "Chainlink", 18, {
    ethereum: "0x514910771AF9Ca656af840dff83E8264EcF986CA",
    arbitrum: "0xf97f4df75117a78c1A5a0DBb814Af92458539FB4"
  }),
  token("UNI", "Uniswap", 18, {
    ethereum: "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984",
    arbitrum: "0xFa7F8980b0f1E64A2062791cc3b0871572f1F7f0"
  }),
  token("AAVE", "Aave", 18, { ethereum: "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9" }),
  token("MKR", "Maker", 18, { ethereum: "0x9f8F72aA9304c8B593d555F12eF6589cC3A579A2" }),
  token("LDO", "Lido DAO", 18, { ethereum: "0x5A98FcBEA516Cf06857215779Fd812CA3beF1B32" }),
  token("PEPE", "Pepe", 18, { ethereum: "0x6982508145454Ce325dDbE47a25d4ec3d2311933" }),
  token("SHIB", "Shiba Inu", 18, { ethereum: "0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE" }),
  token("AERO", "Aerodrome Finance", 18, { base: "0x940181a94A35A4569E4529A3CDfB74e38FD98631" }),
  token("DEGEN", "Degen", 18, { base: "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed" })
]

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
  tokenList.filter((entry) => entry.addresses[network] !== undefined)

export const tokenBySymbol = (symbol: string): TokenInfo | undefined =>
  tokenList.find((entry) => entry.symbol === symbol.toUpperCase())

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
