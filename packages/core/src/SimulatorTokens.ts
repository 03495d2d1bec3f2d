/**
 * The simulator's token catalogue: the tokens it quotes, trades and charts, with their real mainnet
 * contract addresses. The simulator provides `TokenRegistry` with it; the HTTP reference's examples
 * are drawn from it.
 */
import type { Network } from "./Network.ts"
import { NATIVE_EVM_ADDRESS, type Token } from "./Token.ts"
import { makeTokenCatalog, type TokenCatalog } from "./TokenRegistry.ts"

const token = (
  symbol: string,
  name: string,
  decimals: number,
  primaryNetwork: Network,
  addresses: Partial<Record<Network, string>>,
  stablecoin = false
): Token => ({ symbol, name, decimals, primaryNetwork, addresses, stablecoin })

/** Every token the simulator supports. Addresses are the tokens' real mainnet contracts. */
export const simulatorTokens: ReadonlyArray<Token> = [
  token("SOL", "Solana", 9, "solana", { solana: "So11111111111111111111111111111111111111112" }),
  token("ETH", "Ether", 18, "ethereum", {
    ethereum: NATIVE_EVM_ADDRESS,
    base: NATIVE_EVM_ADDRESS,
    arbitrum: NATIVE_EVM_ADDRESS
  }),
  token("WETH", "Wrapped Ether", 18, "ethereum", {
    ethereum: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    base: "0x4200000000000000000000000000000000000006",
    arbitrum: "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
  }),
  token("USDC", "USD Coin", 6, "ethereum", {
    solana: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    ethereum: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
    base: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    arbitrum: "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
  }, true),
  token("USDT", "Tether USD", 6, "ethereum", {
    solana: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
    ethereum: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
    base: "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2",
    arbitrum: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"
  }, true),
  token("DAI", "Dai Stablecoin", 18, "ethereum", {
    ethereum: "0x6B175474E89094C44Da98b954EedeAC495271d0F",
    base: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb",
    arbitrum: "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1"
  }, true),
  token("WBTC", "Wrapped Bitcoin", 8, "ethereum", {
    ethereum: "0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599",
    arbitrum: "0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f"
  }),
  token("BONK", "Bonk", 5, "solana", { solana: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263" }),
  token("JUP", "Jupiter", 6, "solana", { solana: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN" }),
  token("WIF", "dogwifhat", 6, "solana", { solana: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm" }),
  token("RAY", "Raydium", 6, "solana", { solana: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R" }),
  token("PYTH", "Pyth Network", 6, "solana", { solana: "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3" }),
  token("ARB", "Arbitrum", 18, "arbitrum", {
    ethereum: "0xB50721BCf8d664c30412Cfbc6cf7a15145234ad1",
    arbitrum: "0x912CE59144191C1204E64559FE8253a0e49E6548"
  }),
  token("GMX", "GMX", 18, "arbitrum", { arbitrum: "0xfc5A1A6EB076a2C7aD06eD22C90d7E710E35ad0a" }),
  token("LINK", "Chainlink", 18, "ethereum", {
    ethereum: "0x514910771AF9Ca656af840dff83E8264EcF986CA",
    arbitrum: "0xf97f4df75117a78c1A5a0DBb814Af92458539FB4"
  }),
  token("UNI", "Uniswap", 18, "ethereum", {
    ethereum: "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984",
    arbitrum: "0xFa7F8980b0f1E64A2062791cc3b0871572f1F7f0"
  }),
  token("AAVE", "Aave", 18, "ethereum", { ethereum: "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9" }),
  token("MKR", "Maker", 18, "ethereum", { ethereum: "0x9f8F72aA9304c8B593d555F12eF6589cC3A579A2" }),
  token("LDO", "Lido DAO", 18, "ethereum", { ethereum: "0x5A98FcBEA516Cf06857215779Fd812CA3beF1B32" }),
  token("PEPE", "Pepe", 18, "ethereum", { ethereum: "0x6982508145454Ce325dDbE47a25d4ec3d2311933" }),
  token("SHIB", "Shiba Inu", 18, "ethereum", { ethereum: "0x95aD61b0a150d79219dCF64E1E6Cc01f0B64C4cE" }),
  token("AERO", "Aerodrome Finance", 18, "base", { base: "0x940181a94A35A4569E4529A3CDfB74e38FD98631" }),
  token("DEGEN", "Degen", 18, "base", { base: "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed" })
]

/** The simulator's catalogue, for the simulator's own modules and the HTTP reference's examples. */
export const simulatorCatalog: TokenCatalog = makeTokenCatalog(simulatorTokens)
