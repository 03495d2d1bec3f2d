import { defaultMarketParams } from "/work/main/packages/simulator/src/market/MarketParams.ts"
for (const p of defaultMarketParams) {
  console.log(p.symbol, p.priceUsd, JSON.stringify(p.liquidityUsd), p.tracks ?? "", p.dailyVolumeUsd)
}
