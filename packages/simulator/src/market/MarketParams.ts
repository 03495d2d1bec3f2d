/**
 * The simulated market's calibration: one entry per registry token with a late-2025 starting
 * price, its volatility, supply, holder base, typical daily volume and pool depth on each network,
 * plus the FX rates responses are converted with. These are plausible round figures, not quotes:
 * what matters is that their proportions (a meme coin is twice as volatile as ETH and a hundred
 * times thinner) look like the real market.
 */
import type { Currency, Network } from "@swapdesk/core"

/** How one token's price and trading behave in the simulator. */
export interface TokenMarketParams {
  readonly symbol: string
  /** Price at the market's start (`MarketConfig.startMs`); history is generated to end exactly here. */
  readonly priceUsd: number
  /** Annualised volatility of log returns (365-day years: crypto trades every day); ~0.01 for stablecoins. */
  readonly annualVolatility: number
  /** Annualised drift of the price (expected growth rate); 0 for a driftless market. */
  readonly annualDrift: number
  /** Whole tokens in circulation: market cap = price × supply. */
  readonly circulatingSupply: number
  /** Holder count at the market's start; it then drifts slowly with trading. */
  readonly holders: number
  /** Percent of supply held by the ten largest holders, at the market's start. */
  readonly top10Percent: number
  /** Typical 24 h volume across all networks, in USD. */
  readonly dailyVolumeUsd: number
  /**
   * Pool depth per network: the USD reserve of a constant-product pool that prices like all of the
   * token's liquidity there. Only networks where the registry has an address; trading and volume are
   * split across networks in proportion to it.
   */
  readonly liquidityUsd: Readonly<Partial<Record<Network, number>>>
  /** Mean number of price jumps per day (news, liquidations); 0 for none. */
  readonly jumpsPerDay: number
  /** The peg of a stablecoin: its price mean-reverts around it inside a ±0.4% band instead of walking. */
  readonly peg?: number
  /**
   * The symbol whose price this token follows exactly: a wrapper redeemable one for one (WETH for
   * ETH) has no price process of its own, so the two can never drift apart. Its volatility, drift
   * and jump fields are then unused; its volume, supply, holders and pools are still its own.
   */
  readonly tracks?: string
}

const usd = (millions: number): number => millions * 1_000_000

/** Every token of the core registry, in registry order. */
export const defaultMarketParams: ReadonlyArray<TokenMarketParams> = [
  {
    symbol: "SOL",
    priceUsd: 140,
    annualVolatility: 0.7,
    annualDrift: 0,
    circulatingSupply: 560_000_000,
    holders: 9_800_000,
    top10Percent: 10,
    dailyVolumeUsd: usd(2_500),
    liquidityUsd: { solana: usd(900) },
    jumpsPerDay: 2
  },
  {
    symbol: "ETH",
    priceUsd: 3_100,
    annualVolatility: 0.62,
    annualDrift: 0,
    circulatingSupply: 120_700_000,
    holders: 128_000_000,
    top10Percent: 38,
    dailyVolumeUsd: usd(1_800),
    liquidityUsd: { ethereum: usd(700), base: usd(180), arbitrum: usd(220) },
    jumpsPerDay: 2
  },
  {
    symbol: "WETH",
    priceUsd: 3_100,
    annualVolatility: 0.62,
    annualDrift: 0,
    circulatingSupply: 2_600_000,
    holders: 3_300_000,
    top10Percent: 62,
    dailyVolumeUsd: usd(2_400),
    liquidityUsd: { ethereum: usd(650), base: usd(200), arbitrum: usd(180) },
    jumpsPerDay: 2,
    tracks: "ETH"
  },
  {
    symbol: "USDC",
    priceUsd: 1,
    annualVolatility: 0.006,
    annualDrift: 0,
    circulatingSupply: 76_000_000_000,
    holders: 6_000_000,
    top10Percent: 24,
    dailyVolumeUsd: usd(5_000),
    liquidityUsd: { ethereum: usd(1_200), solana: usd(700), base: usd(400), arbitrum: usd(300) },
    jumpsPerDay: 0,
    peg: 1
  },
  {
    symbol: "USDT",
    priceUsd: 1,
    annualVolatility: 0.008,
    annualDrift: 0,
    circulatingSupply: 185_000_000_000,
    holders: 8_500_000,
    top10Percent: 30,
    dailyVolumeUsd: usd(3_200),
    liquidityUsd: { ethereum: usd(1_000), solana: usd(250), base: usd(60), arbitrum: usd(200) },
    jumpsPerDay: 0,
    peg: 1
  },
  {
    symbol: "DAI",
    priceUsd: 1,
    annualVolatility: 0.012,
    annualDrift: 0,
    circulatingSupply: 4_500_000_000,
    holders: 560_000,
    top10Percent: 50,
    dailyVolumeUsd: usd(150),
    liquidityUsd: { ethereum: usd(300), base: usd(25), arbitrum: usd(40) },
    jumpsPerDay: 0,
    peg: 1
  },
  {
    symbol: "WBTC",
    priceUsd: 90_000,
    annualVolatility: 0.48,
    annualDrift: 0,
    circulatingSupply: 128_000,
    holders: 62_000,
    top10Percent: 58,
    dailyVolumeUsd: usd(220),
    liquidityUsd: { ethereum: usd(180), arbitrum: usd(35) },
    jumpsPerDay: 1.5
  },
  {
    symbol: "BONK",
    priceUsd: 0.0000105,
    annualVolatility: 1.05,
    annualDrift: 0,
    circulatingSupply: 88_000_000_000_000,
    holders: 960_000,
    top10Percent: 32,
    dailyVolumeUsd: usd(70),
    liquidityUsd: { solana: usd(22) },
    jumpsPerDay: 4
  },
  {
    symbol: "JUP",
    priceUsd: 0.25,
    annualVolatility: 0.95,
    annualDrift: 0,
    circulatingSupply: 3_100_000_000,
    holders: 820_000,
    top10Percent: 58,
    dailyVolumeUsd: usd(40),
    liquidityUsd: { solana: usd(18) },
    jumpsPerDay: 3
  },
  {
    symbol: "WIF",
    priceUsd: 0.4,
    annualVolatility: 1.15,
    annualDrift: 0,
    circulatingSupply: 998_900_000,
    holders: 230_000,
    top10Percent: 31,
    dailyVolumeUsd: usd(80),
    liquidityUsd: { solana: usd(20) },
    jumpsPerDay: 4
  },
  {
    symbol: "RAY",
    priceUsd: 1.2,
    annualVolatility: 1,
    annualDrift: 0,
    circulatingSupply: 268_000_000,
    holders: 110_000,
    top10Percent: 62,
    dailyVolumeUsd: usd(30),
    liquidityUsd: { solana: usd(12) },
    jumpsPerDay: 3
  },
  {
    symbol: "PYTH",
    priceUsd: 0.07,
    annualVolatility: 1,
    annualDrift: 0,
    circulatingSupply: 5_750_000_000,
    holders: 340_000,
    top10Percent: 60,
    dailyVolumeUsd: usd(12),
    liquidityUsd: { solana: usd(6) },
    jumpsPerDay: 3
  },
  {
    symbol: "ARB",
    priceUsd: 0.21,
    annualVolatility: 0.92,
    annualDrift: 0,
    circulatingSupply: 5_500_000_000,
    holders: 1_050_000,
    top10Percent: 62,
    dailyVolumeUsd: usd(60),
    liquidityUsd: { arbitrum: usd(28), ethereum: usd(9) },
    jumpsPerDay: 3
  },
  {
    symbol: "GMX",
    priceUsd: 9,
    annualVolatility: 0.85,
    annualDrift: 0,
    circulatingSupply: 10_300_000,
    holders: 100_000,
    top10Percent: 55,
    dailyVolumeUsd: usd(8),
    liquidityUsd: { arbitrum: usd(6) },
    jumpsPerDay: 2.5
  },
  {
    symbol: "LINK",
    priceUsd: 13,
    annualVolatility: 0.78,
    annualDrift: 0,
    circulatingSupply: 680_000_000,
    holders: 780_000,
    top10Percent: 66,
    dailyVolumeUsd: usd(70),
    liquidityUsd: { ethereum: usd(45), arbitrum: usd(9) },
    jumpsPerDay: 2
  },
  {
    symbol: "UNI",
    priceUsd: 6,
    annualVolatility: 0.82,
    annualDrift: 0,
    circulatingSupply: 630_000_000,
    holders: 390_000,
    top10Percent: 46,
    dailyVolumeUsd: usd(40),
    liquidityUsd: { ethereum: usd(32), arbitrum: usd(6) },
    jumpsPerDay: 2
  },
  {
    symbol: "AAVE",
    priceUsd: 180,
    annualVolatility: 0.8,
    annualDrift: 0,
    circulatingSupply: 15_200_000,
    holders: 180_000,
    top10Percent: 52,
    dailyVolumeUsd: usd(60),
    liquidityUsd: { ethereum: usd(40) },
    jumpsPerDay: 2
  },
  {
    symbol: "MKR",
    priceUsd: 1_600,
    annualVolatility: 0.72,
    annualDrift: 0,
    circulatingSupply: 870_000,
    holders: 95_000,
    top10Percent: 58,
    dailyVolumeUsd: usd(10),
    liquidityUsd: { ethereum: usd(15) },
    jumpsPerDay: 2
  },
  {
    symbol: "LDO",
    priceUsd: 0.65,
    annualVolatility: 0.95,
    annualDrift: 0,
    circulatingSupply: 850_000_000,
    holders: 60_000,
    top10Percent: 56,
    dailyVolumeUsd: usd(25),
    liquidityUsd: { ethereum: usd(14) },
    jumpsPerDay: 3
  },
  {
    symbol: "PEPE",
    priceUsd: 0.0000045,
    annualVolatility: 1.1,
    annualDrift: 0,
    circulatingSupply: 420_690_000_000_000,
    holders: 500_000,
    top10Percent: 40,
    dailyVolumeUsd: usd(150),
    liquidityUsd: { ethereum: usd(45) },
    jumpsPerDay: 4
  },
  {
    symbol: "SHIB",
    priceUsd: 0.0000085,
    annualVolatility: 0.78,
    annualDrift: 0,
    circulatingSupply: 589_000_000_000_000,
    holders: 1_550_000,
    top10Percent: 64,
    dailyVolumeUsd: usd(30),
    liquidityUsd: { ethereum: usd(18) },
    jumpsPerDay: 2.5
  },
  {
    symbol: "AERO",
    priceUsd: 0.65,
    annualVolatility: 1.1,
    annualDrift: 0,
    circulatingSupply: 900_000_000,
    holders: 420_000,
    top10Percent: 55,
    dailyVolumeUsd: usd(40),
    liquidityUsd: { base: usd(25) },
    jumpsPerDay: 3
  },
  {
    symbol: "DEGEN",
    priceUsd: 0.0015,
    annualVolatility: 1.3,
    annualDrift: 0,
    circulatingSupply: 25_000_000_000,
    holders: 880_000,
    top10Percent: 45,
    dailyVolumeUsd: usd(3),
    liquidityUsd: { base: usd(3) },
    jumpsPerDay: 4
  }
]

/** Units of each currency per US dollar (late-2025 levels), held constant by the simulator. */
export const defaultFxRates: Record<Currency, number> = {
  USD: 1,
  EUR: 0.862,
  GBP: 0.757,
  JPY: 155.2,
  CHF: 0.802,
  CAD: 1.396,
  AUD: 1.525
}
